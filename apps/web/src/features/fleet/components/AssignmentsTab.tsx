import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Checkbox, Group, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { exceedsCapacity, FLEET_MESSAGES, wouldOverload, type Transport } from '@tramo/domain';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { confirmDanger, confirmThenMutate } from '../../../components/ui/confirm.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useLoadableShipments } from '../api/get-loadable-shipments.ts';
import { useTransportLoad } from '../api/get-transport-load.ts';
import { useLoadShipments } from '../api/load-shipments.ts';
import { useTrip } from '../api/trips.ts';
import { useUnloadShipment } from '../api/unload-shipment.ts';
import { CapacityBar } from './CapacityBar.tsx';
import { IssueGuidesButton } from './IssueGuidesButton.tsx';
import { ManifestButton } from './ManifestButton.tsx';
import { driverNames, formatKg, plates } from './format.ts';
import { TransportStatusPill } from './TransportStatusPill.tsx';
import { ComplianceAlert } from './ComplianceAlert.tsx';
import { ArrivalPanel, DepartButton, LoadScanBox, TripBanner } from './TripControls.tsx';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

export function AssignmentsTab({ transport }: { transport: Transport | null }) {
  if (!transport) {
    return (
      <Alert color="blue" variant="light" title="Ningún transporte elegido">
        Elige un transporte en la pestaña Transportes y pulsa «Ver carga» para ver y cambiar los paquetes que lleva.
      </Alert>
    );
  }
  // Keyed so the search and the selection start clean for each transport.
  return <TransportLoadPanel key={transport.id} transport={transport} />;
}

function TransportLoadPanel({ transport }: { transport: Transport }) {
  const load = useTransportLoad(transport.id);
  const trip = useTrip(transport.id);
  const total = load.data?.totalWeightKg ?? 0;
  const capacity = load.data ? load.data.capacityKg : transport.capacity_kg;
  const exceeded = exceedsCapacity(total, capacity);
  const onTheRoad = trip.data ?? null;

  return (
    <Stack gap="md">
      <Paper withBorder p="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Group gap="xs">
              <Title order={2} size="h4" ff="monospace">
                {plates(transport.plate_primary, transport.plate_secondary)}
              </Title>
              <TransportStatusPill status={transport.status} />
            </Group>
            <Text size="sm" c="dark.4">
              {[[transport.make, transport.model].filter(Boolean).join(' '), transport.route].filter(Boolean).join(' · ') || 'Sin ruta'}
            </Text>
            <Text size="sm">Conductores: {driverNames(transport.driver1, transport.driver2)}</Text>
            <Group gap="xs" mt="xs">
              {/* SUNAT: goods on the road travel with the carrier's guide (GRE-T) of this load. */}
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={`/billing/preview?tab=guia&transportId=${transport.id}`}
                disabled={(load.data?.items.length ?? 0) === 0}
              >
                Emitir guía transportista
              </Button>
              <IssueGuidesButton
                transportId={transport.id}
                plate={transport.plate_primary}
                disabled={(load.data?.items.length ?? 0) === 0 || onTheRoad !== null}
              />
              <ManifestButton transportId={transport.id} plate={transport.plate_primary} disabled={(load.data?.items.length ?? 0) === 0} />
              <Button size="xs" variant="subtle" component={Link} to={`/transportistas/${transport.id}/viajes`}>
                Viajes
              </Button>
            </Group>
          </div>
          <Group align="flex-start" gap="lg" wrap="wrap">
            <CapacityBar
              realKg={total}
              billableKg={load.data?.totalBillableWeightKg ?? 0}
              capacityKg={capacity}
              netWeightKg={load.data?.netWeightKg ?? transport.net_weight_kg}
            />
            {trip.isSuccess && !onTheRoad && <DepartButton transport={transport} load={load.data} />}
          </Group>
        </Group>
        {trip.isSuccess && !onTheRoad && <ComplianceAlert transport={transport} />}
        {exceeded && (
          <Alert color="orange" variant="light" mt="sm" role="status" title={FLEET_MESSAGES.capacityExceeded}>
            Lleva {formatKg(total)} y su capacidad es {formatKg(capacity)}: {formatKg(Math.round((total - (capacity ?? 0)) * 100) / 100)} de más.
            Puedes seguir cargando, pero la salida pedirá una segunda confirmación.
          </Alert>
        )}
      </Paper>
      {onTheRoad ? (
        <>
          <TripBanner trip={onTheRoad} />
          <ArrivalPanel transport={transport} trip={onTheRoad} />
          <Paper withBorder p="sm">
            <Title order={2} size="h5" mb="xs">
              Paquetes en viaje {load.data ? `(${load.data.items.length})` : ''}
            </Title>
            <LoadedTable transportId={transport.id} plate={transport.plate_primary} load={load} locked />
          </Paper>
        </>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Stack gap="md">
            <LoadScanBox transport={transport} />
            <LoadableSearch transportId={transport.id} plate={transport.plate_primary} loadedKg={total} capacityKg={capacity} />
          </Stack>
          <Paper withBorder p="sm">
            <Title order={2} size="h5" mb="xs">
              Paquetes cargados {load.data ? `(${load.data.items.length})` : ''}
            </Title>
            {load.isError && (
              <Alert color="red" variant="light" role="alert" mb="xs">
                {errorMessage(load.error)}
              </Alert>
            )}
            <LoadedTable transportId={transport.id} plate={transport.plate_primary} load={load} />
          </Paper>
        </SimpleGrid>
      )}
    </Stack>
  );
}

function LoadedTable({
  transportId,
  plate,
  load,
  locked = false,
}: {
  transportId: number;
  plate: string;
  load: ReturnType<typeof useTransportLoad>;
  /** On the road: nothing comes off until the arrival. */
  locked?: boolean;
}) {
  const unload = useUnloadShipment();
  const items = load.data?.items ?? [];
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Código</Table.Th>
          <Table.Th>Destinatario</Table.Th>
          <Table.Th>Cargado</Table.Th>
          <Table.Th ta="right">Peso</Table.Th>
          <ActionsTh />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {load.isPending ? (
          <TableSkeleton cols={5} rows={3} />
        ) : items.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={5} ta="center" c="dimmed">
              {FLEET_MESSAGES.noLoad}
            </Table.Td>
          </Table.Tr>
        ) : (
          items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                  {item.code}
                </Text>
                <Text size="xs" c="dimmed" className="user-text">
                  {item.senderName}
                </Text>
                {/* The carrier guide (GRE-T) it travels under, once issued. */}
                {item.guideId && item.guideNumber && (
                  <Anchor component={Link} to={`/billing/preview?tab=comprobantes&doc=${item.guideId}`} size="xs" ff="monospace">
                    Guía {item.guideNumber}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" className="user-text">
                  {item.recipientName}
                </Text>
                <Text size="xs" c="dimmed">
                  {item.recipientDoc}
                </Text>
              </Table.Td>
              <Table.Td>{formatDateTime(item.loaded_at)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatKg(item.weightKg)}
              </Table.Td>
              <Table.Td>
                {!locked && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Quitar ${item.code}`}
                    loading={unload.isPending && unload.variables?.assignmentId === item.id}
                    onClick={() =>
                      void confirmThenMutate(
                        {
                          title: 'Quitar del transporte',
                          message: `¿Quitar ${item.code} de ${plate}? Su historial registrará la descarga.`,
                          confirmLabel: 'Quitar',
                          success: `${item.code} quitado del transporte.`,
                        },
                        unload.mutate,
                        { transportId, assignmentId: item.id },
                      )
                    }
                  >
                    Quitar
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}

function LoadableSearch({
  transportId,
  plate,
  loadedKg,
  capacityKg,
}: {
  transportId: number;
  plate: string;
  loadedKg: number;
  capacityKg: number | null;
}) {
  const [text, setText] = useState('');
  const [q, setQ] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const results = useLoadableShipments(q ?? '', q !== null);
  const loadMutation = useLoadShipments();
  const rows = results.data ?? [];

  const search = () => {
    setSelected(new Set());
    setQ(text.trim());
  };
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChecked = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const add = async () => {
    const addKg = rows.filter((r) => selected.has(r.id)).reduce((sum, r) => sum + r.weightKg, 0);
    // Warn before the load goes beyond the truck's capacity, not after.
    if (wouldOverload(loadedKg, addKg, capacityKg)) {
      const ok = await confirmDanger({
        title: 'Supera la capacidad',
        message: `Con estos envíos la carga sería ${formatKg(Math.round((loadedKg + addKg) * 100) / 100)} y la capacidad de ${plate} es ${formatKg(capacityKg)}. ¿Cargar de todos modos?`,
        confirmLabel: 'Cargar de todos modos',
        color: 'orange',
      });
      if (!ok) return;
    }
    loadMutation.mutate(
      { transportId, shipmentIds: [...selected] },
      {
        onSuccess: () => {
          notify.success(`${selected.size === 1 ? '1 envío cargado' : `${selected.size} envíos cargados`} en ${plate}.`);
          setSelected(new Set());
        },
        onError: (err) => notify.error(err),
      },
    );
  };

  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h5" mb="xs">
        Cargar envíos (estado Creado)
      </Title>
      <Group gap="xs" mb="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          type="search"
          aria-label="Buscar envíos para cargar"
          placeholder="Código, cliente, remitente o destinatario"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              search();
            }
          }}
        />
        <Button variant="default" onClick={search} loading={results.isFetching}>
          Buscar
        </Button>
      </Group>
      {results.isError && (
        <Alert color="red" variant="light" role="alert" mb="xs">
          {errorMessage(results.error, 'No se pudo buscar.')}
        </Alert>
      )}
      {q !== null && (
        <>
          <ScrollArea.Autosize mah={420} type="auto">
            <Table stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={36}>
                    <Checkbox
                      aria-label="Seleccionar todos"
                      checked={allChecked}
                      indeterminate={!allChecked && rows.some((r) => selected.has(r.id))}
                      onChange={() => setSelected(allChecked ? new Set() : new Set(rows.map((r) => r.id)))}
                    />
                  </Table.Th>
                  <Table.Th>Código</Table.Th>
                  <Table.Th>Ruta</Table.Th>
                  <Table.Th>Destinatario</Table.Th>
                  <Table.Th ta="right">Peso</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.isPending ? (
                  <TableSkeleton cols={5} rows={3} />
                ) : rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={5} ta="center" c="dimmed">
                      Sin resultados
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((r) => (
                    <Table.Tr key={r.id} onClick={() => toggle(r.id)} style={{ cursor: 'pointer' }}>
                      <Table.Td>
                        <Checkbox
                          aria-label={`Seleccionar ${r.code}`}
                          checked={selected.has(r.id)}
                          onChange={() => toggle(r.id)}
                          onClick={(e) => e.stopPropagation()}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                          {r.code}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatDateTime(r.createdAt)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {r.originName} – {r.destinationName}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" className="user-text">
                          {r.recipientName}
                        </Text>
                        <Text size="xs" c="dimmed" className="user-text">
                          De: {r.senderName}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatKg(r.weightKg)}
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end" mt="xs">
            <Button disabled={selected.size === 0} loading={loadMutation.isPending} onClick={() => void add()}>
              Agregar seleccionados ({selected.size})
            </Button>
          </Group>
        </>
      )}
    </Paper>
  );
}
