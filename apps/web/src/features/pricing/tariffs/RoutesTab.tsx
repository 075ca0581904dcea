import { useState } from 'react';
import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { Branch } from '@tramo/domain';
import { countOf } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCloneTariff, usePutRouteTariff, useRouteTariffs, type RouteRef } from '../api/tariffs.ts';
import { ErrorAlert, firstRoute, money, RoutePicker, routeName } from './shared.tsx';

const key = (r: RouteRef) => `${r.originBranchId}-${r.destinationBranchId}`;

/** 'Rutas': each route's minimum charge and divisor override, and 'Clonar tarifa' onto other routes. */
export function RoutesTab({ branches, companyDivisor }: { branches: readonly Branch[]; companyDivisor: number | null }) {
  const routes = useRouteTariffs();
  const put = usePutRouteTariff();
  const clone = useCloneTariff();
  const [route, setRoute] = useState<RouteRef>(() => firstRoute(branches));
  const [minimumCharge, setMinimum] = useState('');
  const [divisor, setDivisor] = useState('');
  const [from, setFrom] = useState<RouteRef>(() => firstRoute(branches));
  const [targets, setTargets] = useState<string[]>([]);
  const allRoutes = branches.flatMap((o) => branches.filter((d) => d.id !== o.id).map((d) => ({ originBranchId: o.id, destinationBranchId: d.id })));

  const edit = (r: RouteRef & { minimumCharge: number; volumetricDivisor: number | null }) => {
    setRoute({ originBranchId: r.originBranchId, destinationBranchId: r.destinationBranchId });
    setMinimum(r.minimumCharge.toFixed(2));
    setDivisor(r.volumetricDivisor === null ? '' : String(r.volumetricDivisor));
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      <Paper withBorder p="sm">
        <Title order={2} size="h5" mb="xs">
          Cargo mínimo y divisor volumétrico por ruta
        </Title>
        <Table verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Ruta</Table.Th>
              <Table.Th ta="right">Cargo mínimo</Table.Th>
              <Table.Th ta="right">Divisor</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(routes.data ?? []).map((r) => (
              <Table.Tr key={key(r)}>
                <Table.Td>{routeName(branches, r)}</Table.Td>
                <Table.Td ta="right">{money(r.minimumCharge)}</Table.Td>
                <Table.Td ta="right">{r.volumetricDivisor ?? `${companyDivisor ?? '—'} (empresa)`}</Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-xs" variant="subtle" onClick={() => edit(r)}>
                    Editar
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {routes.data?.length === 0 && (
          <Text size="sm" c="dark.4">
            Ninguna ruta tiene cargo mínimo ni divisor propio.
          </Text>
        )}
        <Group align="flex-end" gap="xs" wrap="wrap" mt="sm">
          <RoutePicker branches={branches} value={route} onChange={setRoute} />
          <TextInput
            label="Cargo mínimo (S/)"
            value={minimumCharge}
            onChange={(e) => setMinimum(e.currentTarget.value)}
            w={130}
            inputMode="decimal"
          />
          <TextInput
            label="Divisor (cm³/kg)"
            placeholder={companyDivisor ? `Empresa: ${companyDivisor}` : undefined}
            value={divisor}
            onChange={(e) => setDivisor(e.currentTarget.value)}
            w={130}
            inputMode="numeric"
          />
          <Button
            loading={put.isPending}
            onClick={() =>
              put.mutate(
                { ...route, minimumCharge: minimumCharge || '0', volumetricDivisor: divisor },
                { onSuccess: () => notify.success('Ruta guardada.') },
              )
            }
          >
            Guardar ruta
          </Button>
        </Group>
        <ErrorAlert error={put.error} />
      </Paper>
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Title order={2} size="h5">
            Clonar tarifa
          </Title>
          <Text size="sm" c="dark.4">
            Copia los precios de artículos, el cargo mínimo y el divisor de una ruta a otras (reemplaza los suyos).
          </Text>
          <Group gap="xs" align="flex-end">
            <RoutePicker branches={branches} value={from} onChange={setFrom} labels={['Desde origen', 'Desde destino']} />
          </Group>
          <Checkbox.Group label="A las rutas" value={targets} onChange={setTargets}>
            <SimpleGrid cols={2} spacing={4} mt={4}>
              {allRoutes
                .filter((r) => key(r) !== key(from))
                .map((r) => (
                  <Checkbox key={key(r)} value={key(r)} label={routeName(branches, r)} size="xs" />
                ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button
              loading={clone.isPending}
              onClick={() =>
                clone.mutate(
                  {
                    from,
                    to: allRoutes.filter((r) => targets.includes(key(r)) && key(r) !== key(from)),
                  },
                  {
                    onSuccess: (r) => {
                      notify.success(
                        `Tarifa clonada: ${countOf(r.articlePrices, 'precio de artículo', 'precios de artículos')} y cargo mínimo ${money(r.minimumCharge)}.`,
                      );
                      setTargets([]);
                    },
                  },
                )
              }
            >
              Clonar tarifa
            </Button>
          </Group>
          <ErrorAlert error={clone.error} />
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
