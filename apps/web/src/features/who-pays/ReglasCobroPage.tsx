import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  WHO_PAYS_RULES_MESSAGES,
  whoPaysRulesSchema,
  type Branch,
  type PaymentMethod,
  type WhoPaysRules,
} from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { applyServerErrors } from '../../lib/forms.ts';
import { notify } from '../../lib/notify.ts';
import { useBranches } from '../branches/index.ts';
import { useSaveWhoPaysRules, useWhoPaysRules } from './api/who-pays-rules.ts';

type RulesInput = z.input<typeof whoPaysRulesSchema>;
const FIELDS = ['maxDestinationFreight', 'originOnlyAboveKg'] as const;

/**
 * 'Reglas de cobro' (issue 33, admins): the most freight pago en destino may leave unpaid, the weight
 * above which the freight is paid at origin, the routes that admit pago en destino and the methods
 * each branch's counter accepts. The form holds every route and every branch; what keeps the default
 * (a route that admits it, a branch that takes every method) is not sent.
 */
export default function ReglasCobroPage() {
  const rules = useWhoPaysRules();
  const branches = useBranches();
  const failed = rules.error ?? branches.error;
  return (
    <>
      <PageHeader title="Reglas de cobro" description="Pago en destino: límites y rutas que lo admiten; medios de pago que acepta cada sucursal" />
      {rules.isPending || branches.isPending ? (
        <PageSkeleton />
      ) : failed || !rules.data || !branches.data ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(failed, 'No se pudo cargar las reglas de cobro.')}
        </Alert>
      ) : (
        <RulesForm rules={rules.data} branches={branches.data} />
      )}
    </>
  );
}

function formValues(rules: WhoPaysRules, branches: readonly Branch[]): RulesInput {
  const refused = new Map(rules.routes.map((r) => [`${r.originBranchId}:${r.destinationBranchId}`, r.destinationAllowed]));
  const methods = new Map(rules.branchMethods.map((b) => [b.branchId, b.methods]));
  return {
    maxDestinationFreight: rules.maxDestinationFreight.toFixed(2),
    originOnlyAboveKg: rules.originOnlyAboveKg === null ? '' : String(rules.originOnlyAboveKg),
    routes: branches.flatMap((o) =>
      branches
        .filter((d) => d.id !== o.id)
        .map((d) => ({ originBranchId: o.id, destinationBranchId: d.id, destinationAllowed: refused.get(`${o.id}:${d.id}`) ?? true })),
    ),
    branchMethods: branches.map((b) => ({ branchId: b.id, methods: [...(methods.get(b.id) ?? PAYMENT_METHODS)] })),
  };
}

/** Only what differs from the defaults goes to the API: routes that refuse, branches that take fewer methods. */
const toSave = (v: WhoPaysRules): WhoPaysRules => ({
  ...v,
  routes: v.routes.filter((r) => !r.destinationAllowed),
  branchMethods: v.branchMethods.filter((b) => b.methods.length < PAYMENT_METHODS.length),
});

function RulesForm({ rules, branches }: { rules: WhoPaysRules; branches: readonly Branch[] }) {
  const save = useSaveWhoPaysRules();
  const [alert, setAlert] = useState<string | null>(null);
  const defaults = useMemo(() => formValues(rules, branches), [rules, branches]);
  const form = useForm<RulesInput, unknown, WhoPaysRules>({ mode: 'onTouched', resolver: zodResolver(whoPaysRulesSchema), defaultValues: defaults });
  const { errors } = form.formState;
  const routeIndex = useMemo(() => new Map((defaults.routes ?? []).map((r, i) => [`${r.originBranchId}:${r.destinationBranchId}`, i])), [defaults]);

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(toSave(values), {
      onSuccess: (saved) => {
        notify.success(WHO_PAYS_RULES_MESSAGES.saved);
        form.reset(formValues(saved, branches));
      },
      onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md" maw={1100}>
        {alert && (
          <Alert color="red" variant="light" role="alert">
            {alert}
          </Alert>
        )}
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            Pago en destino
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Flete máximo para pago en destino (S/)"
              description="Un flete mayor se paga en origen. Por defecto S/ 500.00."
              withAsterisk
              inputMode="decimal"
              {...form.register('maxDestinationFreight')}
              error={errors.maxDestinationFreight?.message}
            />
            <TextInput
              label="Peso desde el que se paga en origen (kg)"
              description="Los envíos de más peso no admiten pago en destino. Vacío: sin límite."
              inputMode="decimal"
              {...form.register('originOnlyAboveKg')}
              error={errors.originOnlyAboveKg?.message}
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder p="md">
          <Title order={2} size="h4">
            Rutas que admiten pago en destino
          </Title>
          <Text size="sm" c="dark.4" mb="xs">
            Marcada: la ruta admite pago en destino. Desmarca las rutas donde el flete se paga siempre en origen.
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table withTableBorder withColumnBorders striped verticalSpacing={6} aria-label="Rutas que admiten pago en destino">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Origen \ Destino</Table.Th>
                  {branches.map((d) => (
                    <Table.Th key={d.id} ta="center">
                      {d.name}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {branches.map((o) => (
                  <Table.Tr key={o.id}>
                    <Table.Th scope="row">{o.name}</Table.Th>
                    {branches.map((d) => {
                      const i = routeIndex.get(`${o.id}:${d.id}`);
                      return (
                        <Table.Td key={d.id} ta="center">
                          {i === undefined ? (
                            <Text c="dark.3" aria-hidden>
                              —
                            </Text>
                          ) : (
                            <Group justify="center">
                              <Checkbox
                                aria-label={`${o.name} → ${d.name}: admite pago en destino`}
                                {...form.register(`routes.${i}.destinationAllowed`)}
                              />
                            </Group>
                          )}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>

        <Paper withBorder p="md">
          <Title order={2} size="h4">
            Medios de pago por sucursal
          </Title>
          <Text size="sm" c="dark.4" mb="xs">
            Lo que acepta el mostrador de cada sucursal, al cobrar en origen o en destino.
          </Text>
          <Table.ScrollContainer minWidth={720}>
            <Table withTableBorder striped verticalSpacing={6} aria-label="Medios de pago por sucursal">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Sucursal</Table.Th>
                  {PAYMENT_METHODS.map((m) => (
                    <Table.Th key={m} ta="center">
                      {PAYMENT_METHOD_NAMES[m]}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {branches.map((b, i) => (
                  <Controller
                    key={b.id}
                    control={form.control}
                    name={`branchMethods.${i}.methods`}
                    render={({ field, fieldState }) => {
                      const value = (field.value ?? []) as PaymentMethod[];
                      const toggle = (m: PaymentMethod, on: boolean) =>
                        field.onChange(on ? PAYMENT_METHODS.filter((x) => x === m || value.includes(x)) : value.filter((x) => x !== m));
                      return (
                        <>
                          <Table.Tr>
                            <Table.Th scope="row">{b.name}</Table.Th>
                            {PAYMENT_METHODS.map((m) => (
                              <Table.Td key={m} ta="center">
                                <Group justify="center">
                                  <Checkbox
                                    aria-label={`${b.name}: ${PAYMENT_METHOD_NAMES[m]}`}
                                    checked={value.includes(m)}
                                    onChange={(e) => toggle(m, e.currentTarget.checked)}
                                    onBlur={field.onBlur}
                                    error={Boolean(fieldState.error)}
                                  />
                                </Group>
                              </Table.Td>
                            ))}
                          </Table.Tr>
                          {fieldState.error && (
                            <Table.Tr>
                              <Table.Td colSpan={PAYMENT_METHODS.length + 1}>
                                <Text size="sm" c="red.8" role="alert">
                                  {b.name}: {fieldState.error.message}
                                </Text>
                              </Table.Td>
                            </Table.Tr>
                          )}
                        </>
                      );
                    }}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>

        <Group justify="flex-end">
          <Button type="button" variant="default" onClick={() => form.reset(defaults)} disabled={!form.formState.isDirty}>
            Deshacer cambios
          </Button>
          <Button type="submit" loading={save.isPending}>
            Guardar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
