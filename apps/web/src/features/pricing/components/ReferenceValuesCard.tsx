import { memo, useState } from 'react';
import { Alert, Button, Group, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { checkRouteReference, routeReferenceInputSchema } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { usePutReferenceValues, useReferenceValues } from '../api/reference-values.ts';

/**
 * The chosen route's reference values for the freight detracción (valor referencial, SUNAT 3124-3126):
 * the service per TM and the loads of the vehicle that runs it. 'Facturar envíos' fills a 1004
 * factura's three values from them. Admins change them; agents read them. Memoised: the tier
 * editor above re-renders the page on every keystroke.
 */
export const ReferenceValuesCard = memo(function ReferenceValuesCard({
  originId,
  destinationId,
  canEdit,
}: {
  originId: number;
  destinationId: number;
  canEdit: boolean;
}) {
  const list = useReferenceValues();
  const put = usePutReferenceValues();
  const saved = list.data?.find((r) => r.originBranchId === originId && r.destinationBranchId === destinationId) ?? null;
  const routeKey = `${originId}-${destinationId}-${saved ? `${saved.servicePerTm}-${saved.effectiveLoadTm}-${saved.nominalLoadTm}` : 'none'}`;
  const [draft, setDraft] = useState<{ key: string; perTm: string; effective: string; nominal: string } | null>(null);
  const values =
    draft?.key === routeKey
      ? draft
      : {
          key: routeKey,
          perTm: saved ? saved.servicePerTm.toFixed(2) : '',
          effective: saved ? saved.effectiveLoadTm.toFixed(2) : '',
          nominal: saved ? saved.nominalLoadTm.toFixed(2) : '',
        };
  const [problems, setProblems] = useState<string[]>([]);
  const set = (field: 'perTm' | 'effective' | 'nominal', value: string) => setDraft({ ...values, [field]: value });

  const save = () => {
    const body = {
      originBranchId: originId,
      destinationBranchId: destinationId,
      servicePerTm: values.perTm,
      effectiveLoadTm: values.effective,
      nominalLoadTm: values.nominal,
    };
    const check = checkRouteReference(routeReferenceInputSchema.parse(body));
    setProblems(check.ok ? [] : check.problems);
    if (!check.ok) return;
    put.mutate(body, {
      onSuccess: () => {
        setDraft(null);
        notify.success('Valores referenciales guardados.');
      },
      onError: (err) => setProblems([errorMessage(err, 'No se pudieron guardar los valores referenciales.')]),
    });
  };

  return (
    <Paper withBorder p="md" mt="sm">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          Valores referenciales (detracción del transporte de carga)
        </Title>
        {saved && (
          <Text size="sm" c="dimmed">
            Servicio {formatMoney(saved.service)} · carga efectiva {formatMoney(saved.effectiveLoad)} · carga útil nominal{' '}
            {formatMoney(saved.nominalLoad)}
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput
          label="Valor referencial por TM (S/)"
          inputMode="decimal"
          value={values.perTm}
          onChange={(e) => set('perTm', e.currentTarget.value)}
          readOnly={!canEdit}
        />
        <TextInput
          label="Carga efectiva (TM)"
          inputMode="decimal"
          value={values.effective}
          onChange={(e) => set('effective', e.currentTarget.value)}
          readOnly={!canEdit}
        />
        <TextInput
          label="Carga útil nominal (TM)"
          inputMode="decimal"
          value={values.nominal}
          onChange={(e) => set('nominal', e.currentTarget.value)}
          readOnly={!canEdit}
        />
      </SimpleGrid>
      {!saved && list.isSuccess && (
        <Text size="sm" c="dimmed" mt="xs">
          Esta ruta no tiene valores referenciales: al facturar sus envíos con detracción hay que escribirlos.
        </Text>
      )}
      {problems.length > 0 && (
        <Alert color="red" variant="light" mt="xs" role="alert">
          {problems.join(' ')}
        </Alert>
      )}
      {canEdit && (
        <Group justify="flex-end" mt="sm">
          <Button variant="light" onClick={save} loading={put.isPending}>
            Guardar valores referenciales
          </Button>
        </Group>
      )}
    </Paper>
  );
});
