import { useState } from 'react';
import { ActionIcon, Alert, Button, Drawer, Group, Paper, Select, Table, Text, Tooltip } from '@mantine/core';
import { IconFileCertificate, IconPackages, IconPencil, IconRoute, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { loadPercent, TRANSPORT_PAGE_SIZES, TRANSPORT_STATUS_LABELS, TRANSPORT_STATUSES, type Transport, type TransportStatus } from '@tramo/domain';
import { confirmThenMutate } from '../../../components/ui/confirm.tsx';
import { Pager } from '../../../components/ui/Pager.tsx';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { SearchInput } from '../../../components/ui/SearchInput.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useDeleteTransport } from '../api/delete-transport.ts';
import { useTransports } from '../api/get-transports.ts';
import { driverNames, formatKg } from './format.ts';
import { HolderDocuments } from './HolderDocuments.tsx';
import { TransportForm } from './TransportForm.tsx';
import { TransportStatusPill } from './TransportStatusPill.tsx';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

const statusFilter = [{ value: '', label: 'Todos los estados' }, ...TRANSPORT_STATUSES.map((s) => ({ value: s, label: TRANSPORT_STATUS_LABELS[s] }))];

export function TransportsTab({ onViewLoad }: { onViewLoad(transport: Transport): void }) {
  const [status, setStatus] = useState<TransportStatus | ''>('');
  const [route, setRoute] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(TRANSPORT_PAGE_SIZES[0]);
  const transports = useTransports({ status, route, page, limit });
  const remove = useDeleteTransport();
  const [editing, setEditing] = useState<Transport | 'new' | null>(null);
  const [documentsOf, setDocumentsOf] = useState<Transport | null>(null);
  const items = transports.data?.items ?? [];

  const onDelete = (transport: Transport) =>
    confirmThenMutate(
      {
        title: 'Eliminar transporte',
        message: `¿Eliminar el transporte ${transport.plate_primary}? Esta acción no se puede deshacer.`,
        success: 'Transporte eliminado.',
      },
      remove.mutate,
      transport.id,
    );

  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm">
        <Group gap="sm">
          <Select
            aria-label="Filtrar por estado"
            w={190}
            data={statusFilter}
            value={status}
            onChange={(v) => {
              setStatus((v ?? '') as TransportStatus | '');
              setPage(1);
            }}
          />
          <SearchInput
            value={route}
            onSearch={(v) => {
              setRoute(v);
              setPage(1);
            }}
            aria-label="Filtrar por ruta"
            placeholder="Filtrar por ruta (p. ej. Lima)"
            w={260}
          />
        </Group>
        <Button onClick={() => setEditing('new')}>Nuevo transporte</Button>
      </Group>
      {transports.isError && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {errorMessage(transports.error, 'No se pudo cargar transportes.')}
        </Alert>
      )}
      {/* On the 1024 tablet the secondary columns step aside so state, load and actions stay in view. */}
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Placas</Table.Th>
              <Table.Th visibleFrom="lg">Marca / modelo</Table.Th>
              <Table.Th ta="right" style={NOWRAP} visibleFrom="lg">
                Capacidad
              </Table.Th>
              <Table.Th ta="right" style={NOWRAP} visibleFrom="lg">
                Peso neto
              </Table.Th>
              <Table.Th>Ruta</Table.Th>
              <Table.Th>Conductores</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th ta="right">Carga</Table.Th>
              <ActionsTh />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {transports.isPending ? (
              <TableSkeleton cols={9} />
            ) : items.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={9} ta="center" c="dimmed">
                  {status || route ? 'Sin resultados con los filtros actuales.' : 'Sin registros.'}
                </Table.Td>
              </Table.Tr>
            ) : (
              items.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td style={NOWRAP}>
                    <Text fw={600} size="sm" ff="monospace">
                      {t.plate_primary}
                    </Text>
                    {t.plate_secondary && (
                      <Text size="xs" c="dimmed" ff="monospace">
                        {t.plate_secondary}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="lg">{[t.make, t.model].filter(Boolean).join(' ') || '—'}</Table.Td>
                  <Table.Td ta="right" style={NOWRAP} visibleFrom="lg">
                    {formatKg(t.capacity_kg)}
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP} visibleFrom="lg">
                    {formatKg(t.net_weight_kg)}
                  </Table.Td>
                  <Table.Td style={NOWRAP}>{t.route ?? '—'}</Table.Td>
                  <Table.Td>
                    {/* Two drivers read as two names, with a separator, however they wrap. */}
                    <Text size="sm" lh={1.3} c={t.driver1 || t.driver2 ? undefined : 'dimmed'}>
                      {driverNames(t.driver1, t.driver2)}
                    </Text>
                  </Table.Td>
                  <Table.Td style={NOWRAP}>
                    <TransportStatusPill status={t.status} />
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    <Text size="sm">{t.loaded_count} paq.</Text>
                    <Text size="xs" c="dimmed">
                      {formatKg(t.loaded_weight_kg)}
                    </Text>
                    <LoadPercent loadedKg={t.loaded_weight_kg} capacityKg={t.capacity_kg} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Ver carga">
                        <ActionIcon variant="subtle" aria-label={`Ver carga ${t.plate_primary}`} onClick={() => onViewLoad(t)}>
                          <IconPackages size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Viajes">
                        <ActionIcon variant="subtle" component={Link} to={`/transportistas/${t.id}/viajes`} aria-label={`Viajes ${t.plate_primary}`}>
                          <IconRoute size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Documentos">
                        <ActionIcon variant="subtle" aria-label={`Documentos ${t.plate_primary}`} onClick={() => setDocumentsOf(t)}>
                          <IconFileCertificate size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Editar">
                        <ActionIcon variant="subtle" aria-label={`Editar ${t.plate_primary}`} onClick={() => setEditing(t)}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Eliminar">
                        <ActionIcon variant="subtle" color="red" aria-label={`Eliminar ${t.plate_primary}`} onClick={() => onDelete(t)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <Pager
        page={page}
        pageSize={limit}
        total={transports.data?.total ?? 0}
        pageSizes={TRANSPORT_PAGE_SIZES}
        onPage={setPage}
        onPageSize={(size) => {
          setLimit(size);
          setPage(1);
        }}
      />
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="lg"
        title={editing === 'new' ? 'Nuevo transporte' : 'Editar transporte'}
      >
        {editing !== null && <TransportForm transport={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
      <Drawer
        opened={documentsOf !== null}
        onClose={() => setDocumentsOf(null)}
        position="right"
        size="xl"
        title={documentsOf ? `Documentos de ${documentsOf.plate_primary}` : ''}
      >
        {documentsOf && <HolderDocuments kind="transports" id={documentsOf.id} holder={documentsOf.plate_primary} />}
      </Drawer>
    </>
  );
}

/** The share of the capacity the load uses; red beyond 100 %, orange from 90 %. */
function LoadPercent({ loadedKg, capacityKg }: { loadedKg: number; capacityKg: number | null }) {
  const percent = loadPercent(loadedKg, capacityKg);
  if (percent === null) return null;
  const color = percent > 100 ? 'red.9' : percent >= 90 ? 'orange.9' : 'dark.4';
  return (
    <Text size="xs" fw={700} c={color} aria-label={`Carga al ${percent}% de la capacidad`}>
      {percent}%
    </Text>
  );
}
