import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import {
  formatKg as formatKgText,
  TRIP_MESSAGES,
  wouldOverload,
  type Transport,
  type TransportLoad,
  type Trip,
  type UnloadCheck,
  canManageArea,
} from '@tramo/domain';
import { confirmDanger } from '../../../components/ui/confirm.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useCompliance } from '../api/compliance.ts';
import { useArrive, useDepart, useScanToLoad, useUnloadCheck, useUnloadScan } from '../api/trips.ts';
import { ScanBox, type ScanFeedback, type ScanTone } from './ScanBox.tsx';

/** 'Registrar salida': asks, and asks again in red when the load is beyond the capacity. */
export function DepartButton({ transport, load }: { transport: Transport; load: TransportLoad | undefined }) {
  const user = useCurrentUser();
  const depart = useDepart();
  // Issue 36: SUNAT has not accepted a guide of the load yet; the retry asks again (the API consults SUNAT first).
  const [guidePending, setGuidePending] = useState<string | null>(null);
  const compliance = useCompliance(transport.id);
  const mayDepart = canManageArea(user, 'allBranches') || (transport.origin_branch_id !== null && user.branchId === transport.origin_branch_id);
  if (!mayDepart) return null;
  const count = load?.items.length ?? 0;
  const total = load?.totalWeightKg ?? 0;
  const overloaded = wouldOverload(total, 0, load?.capacityKg);
  const destination = transport.route?.split(' – ')[1] ?? 'su destino';
  const reason =
    transport.status === 'mantenimiento'
      ? TRIP_MESSAGES.maintenance(transport.plate_primary)
      : transport.origin_branch_id === null || transport.destination_branch_id === null
        ? TRIP_MESSAGES.noRoute
        : count === 0
          ? TRIP_MESSAGES.emptyLoad
          : compliance.data?.refusal && !compliance.data.override
            ? compliance.data.refusal
            : null;

  const run = async () => {
    const ok = await confirmDanger({
      title: 'Registrar salida',
      message: `¿Registrar la salida de ${transport.plate_primary} hacia ${destination}? ${count === 1 ? 'El envío cargado pasará' : `Los ${count} envíos cargados pasarán`} a 'En tránsito'.`,
      confirmLabel: 'Registrar salida',
      color: 'teal',
    });
    if (!ok) return;
    if (overloaded) {
      const again = await confirmDanger({
        title: 'Salir con sobrecarga',
        message: TRIP_MESSAGES.overloaded(formatKgText(total), formatKgText(load?.capacityKg ?? 0)),
        confirmLabel: 'Salir con sobrecarga',
      });
      if (!again) return;
    }
    send(overloaded);
  };
  const send = (confirmOverload: boolean) =>
    depart.mutate(
      { transportId: transport.id, confirmOverload },
      {
        onSuccess: (trip) => {
          setGuidePending(null);
          notify.success(TRIP_MESSAGES.departed(trip.plate, trip.destinationName));
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'GUIDE_PENDING') setGuidePending(errorMessage(err));
          else {
            setGuidePending(null);
            notify.error(err);
          }
        },
      },
    );

  return (
    <Stack gap={4} align="flex-end">
      <Button onClick={() => void run()} disabled={reason !== null} loading={depart.isPending}>
        Registrar salida
      </Button>
      {/* Issue 38: a disabled button always says why, an empty load included. */}
      {reason && (
        <Text size="xs" c="orange.9" maw={300} ta="right">
          {reason}
        </Text>
      )}
      {guidePending && !reason && (
        <Alert color="yellow" variant="light" maw={340} p="xs" role="status" title="Guía pendiente en SUNAT">
          {/* The title says it already: the body names the guides and what to do. */}
          <Text size="xs">{guidePending.replace(/^Guía pendiente en SUNAT: /, 'Guías ')}</Text>
          <Button size="xs" mt={6} variant="light" loading={depart.isPending} onClick={() => send(overloaded)}>
            Reintentar
          </Button>
        </Alert>
      )}
    </Stack>
  );
}

/** The transport is on the road: where to, since when, and who may receive it. */
export function TripBanner({ trip }: { trip: Trip }) {
  return (
    <Alert color="blue" variant="light" title={`En ruta hacia ${trip.destinationName}`}>
      Salió de {trip.originName} el {formatDateTime(trip.departedAt)}
      {trip.departedByName ? ` (${trip.departedByName})` : ''} con {trip.shipmentCount === 1 ? '1 envío' : `${trip.shipmentCount} envíos`} (
      {formatKgText(trip.weightKg)} kg){trip.overloaded ? ', con sobrecarga' : ''}. No se puede cargar ni descargar hasta que llegue.
    </Alert>
  );
}

function scanFeedback(err: unknown): ScanFeedback {
  const message = errorMessage(err);
  if (!(err instanceof ApiError)) return { tone: 'error', message };
  const tones: Record<string, ScanTone> = { WRONG_DESTINATION: 'error', NOT_LOADABLE: 'warn', ALREADY_LOADED: 'warn', NOT_FOUND: 'unknown' };
  return { tone: tones[err.code ?? ''] ?? 'error', message };
}

/** Loading by scanning: one code + Enter per parcel. */
export function LoadScanBox({ transport }: { transport: Transport }) {
  const scan = useScanToLoad();
  const read = async (code: string, confirmOverload: boolean): Promise<ScanFeedback> => {
    try {
      const answer = await scan.mutateAsync({ transportId: transport.id, code, confirmOverload });
      if (answer.outcome === 'already') return { tone: 'info', message: answer.message };
      // Beyond the capacity: nothing is loaded until the agent says so, as on the list.
      if (answer.outcome === 'overload')
        return { tone: 'warn', message: answer.message, confirm: { label: 'Cargar igual', run: () => read(code, true) } };
      if (answer.overCapacity) return { tone: 'warn', message: `${answer.message} La carga supera la capacidad del transporte.` };
      return { tone: 'ok', message: answer.message };
    } catch (err) {
      return scanFeedback(err);
    }
  };
  return <ScanBox title="Cargar escaneando" label="Código del envío a cargar" autoFocus onScan={(code) => read(code, false)} />;
}

function CheckList({ title, rows, color }: { title: string; rows: UnloadCheck['expected']; color: string }) {
  return (
    <Paper withBorder p="xs">
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={700}>
          {title}
        </Text>
        <Badge color={color} variant="light">
          {rows.length}
        </Badge>
      </Group>
      <Table withRowBorders={false} verticalSpacing={2} aria-label={title}>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td c="dark.4" fz="sm">
                Ninguno
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((r) => (
              <Table.Tr key={r.code}>
                <Table.Td ff="monospace" fz="sm" style={{ whiteSpace: 'nowrap' }}>
                  {r.code}
                </Table.Td>
                <Table.Td fz="xs" className="user-text">
                  {r.recipientName ?? ''}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/**
 * 'Registrar llegada' with the unload check (desembarque): staff scan what comes off the truck;
 * closing with missing shipments records an incident on each.
 */
export function ArrivalPanel({ transport, trip }: { transport: Transport; trip: Trip }) {
  const user = useCurrentUser();
  const mayReceive = canManageArea(user, 'allBranches') || user.branchId === trip.destinationBranchId;
  const check = useUnloadCheck(transport.id, mayReceive);
  const scan = useUnloadScan();
  const arrive = useArrive();
  if (!mayReceive) {
    return (
      <Text size="sm" c="dark.4">
        La llegada la registra la agencia de {trip.destinationName}.
      </Text>
    );
  }
  const data = check.data;
  const missing = data?.missing.length ?? 0;
  const scannedCount = data?.scanned.length ?? 0;

  const close = async (receive: 'all' | 'scanned') => {
    const message =
      receive === 'all'
        ? `¿Recibir los ${trip.shipmentCount} envíos sin escanear? Todos pasarán a 'En agencia'.`
        : missing > 0
          ? `${missing === 1 ? 'Falta 1 envío' : `Faltan ${missing} envíos`}: se registrará una incidencia 'faltante en desembarque' en cada uno y seguirán 'En tránsito'. Los ${scannedCount} escaneados pasarán a 'En agencia'.`
          : `Todos los envíos bajaron: pasarán a 'En agencia'.`;
    const ok = await confirmDanger({
      title: 'Cerrar desembarque',
      message,
      confirmLabel: 'Registrar llegada',
      color: missing > 0 && receive === 'scanned' ? 'red' : 'teal',
    });
    if (!ok) return;
    arrive.mutate(
      { transportId: transport.id, receive },
      { onSuccess: (t) => notify.success(TRIP_MESSAGES.arrived(t.destinationName)), onError: (err) => notify.error(err) },
    );
  };

  return (
    <Paper withBorder p="sm">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          Desembarque en {trip.destinationName}
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => void close('all')} loading={arrive.isPending && arrive.variables.receive === 'all'}>
            Recibir todo sin escanear
          </Button>
          <Button
            onClick={() => void close('scanned')}
            disabled={scannedCount === 0}
            loading={arrive.isPending && arrive.variables.receive === 'scanned'}
          >
            Registrar llegada
          </Button>
        </Group>
      </Group>
      {check.isError && (
        <Alert color="red" variant="light" role="alert" mb="xs">
          {errorMessage(check.error)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
        <ScanBox
          title="Escanear lo que baja"
          label="Código del envío que baja"
          autoFocus
          onScan={async (code) => {
            try {
              const answer = await scan.mutateAsync({ transportId: transport.id, code });
              const tone: ScanTone = answer.outcome === 'scanned' ? 'ok' : answer.outcome === 'already' ? 'info' : 'warn';
              return { tone, message: answer.message };
            } catch (err) {
              return scanFeedback(err);
            }
          }}
        />
        <Stack gap="xs">
          <Text size="sm">
            Esperados: <b>{data?.expected.length ?? '…'}</b> · Escaneados: <b>{scannedCount}</b> · Faltantes: <b>{missing}</b> · Sobrantes:{' '}
            <b>{data?.extra.length ?? 0}</b>
          </Text>
          <SimpleGrid cols={2} spacing="xs">
            <CheckList title="Faltantes" rows={data?.missing ?? []} color="red" />
            <CheckList title="Sobrantes" rows={data?.extra ?? []} color="orange" />
          </SimpleGrid>
          <CheckList title="Escaneados" rows={data?.scanned ?? []} color="teal" />
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
