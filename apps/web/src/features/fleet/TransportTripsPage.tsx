import { Alert, Anchor, Badge, Paper, Table, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { TableSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useTransportTrips } from './api/trips.ts';
import { formatKg } from './components/format.ts';
import { ManifestButton } from './components/ManifestButton.tsx';
import { ActionsTh } from '../../components/ui/ActionsTh.tsx';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** /transportistas/{id}/viajes: a transport's trips, each with the manifest it left with. */
export default function TransportTripsPage() {
  const { id = '' } = useParams();
  const transportId = Number(id);
  const trips = useTransportTrips(transportId);
  const plate = trips.data?.[0]?.plate;

  return (
    <>
      <PageHeader title={plate ? `Viajes de ${plate}` : 'Viajes del transporte'} description="Salidas y llegadas, el más reciente primero." />
      <Paper withBorder>
        {trips.isPending ? (
          <TableSkeleton rows={4} cols={7} />
        ) : trips.isError ? (
          <Alert color="red" variant="light" role="alert" m="sm">
            {errorMessage(trips.error, 'No se pudieron cargar los viajes.')}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table striped verticalSpacing="xs" aria-label="Viajes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Salida</Table.Th>
                  <Table.Th>Llegada</Table.Th>
                  <Table.Th>Ruta</Table.Th>
                  <Table.Th ta="right">Envíos</Table.Th>
                  <Table.Th ta="right">Peso</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <ActionsTh />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {trips.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={7} ta="center" c="dimmed">
                      Este transporte aún no ha salido de viaje.
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  trips.data.map((t) => (
                    <Table.Tr key={t.id}>
                      <Table.Td style={NOWRAP}>
                        {formatDateTime(t.departedAt)}
                        {t.departedByName && (
                          <Text size="xs" c="dimmed">
                            {t.departedByName}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td style={NOWRAP}>
                        {t.arrivedAt ? formatDateTime(t.arrivedAt) : '—'}
                        {t.arrivedByName && (
                          <Text size="xs" c="dimmed">
                            {t.arrivedByName}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td style={NOWRAP}>
                        {t.originName} → {t.destinationName}
                      </Table.Td>
                      <Table.Td ta="right">{t.shipmentCount}</Table.Td>
                      <Table.Td ta="right" style={NOWRAP}>
                        {formatKg(t.weightKg)}
                        {t.overloaded && (
                          <Badge color="red" variant="light" ml={4} tt="none">
                            Sobrecarga
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" tt="none" radius="sm" color={t.arrivedAt ? 'teal' : 'blue'}>
                          {t.arrivedAt ? 'Llegó' : 'En ruta'}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">
                        <ManifestButton transportId={t.transportId} tripId={t.id} plate={t.plate} label="Manifiesto" />
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Anchor component={Link} to="/transportistas" size="sm" mt="md" display="inline-block">
        ← Volver a transportistas
      </Anchor>
    </>
  );
}
