import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, Radio, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FLEET_MESSAGES, type Transport } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import { transportsQuery } from '../api/get-transports.ts';
import { useLoadShipments } from '../api/load-shipments.ts';
import { driverNames, plates } from './format.ts';
import { TransportStatusPill } from './TransportStatusPill.tsx';

/** Enough for a branch's whole fleet in one radio list (the API caps a page at 200). */
const MODAL_LIMIT = 200;

export interface AssignTransportModalProps {
  /** The shipment to load; the modal is open while it is set. */
  shipment: { id: number; code: string; originBranchId?: number; destinationBranchId?: number } | null;
  onClose(): void;
  onAssigned?(plate: string): void;
}

/**
 * The /shipments "assign to transport" modal (spec operations section 2): a radio list of
 * transports with plates, status and drivers; loading goes through POST /transports/{id}/assignments,
 * so the same rules apply as in the Asignaciones tab (only Creado, one transport per shipment).
 */
export function AssignTransportModal({ shipment, onClose, onAssigned }: AssignTransportModalProps) {
  const opened = shipment !== null;
  const transports = useQuery({ ...transportsQuery({ limit: MODAL_LIMIT }), enabled: opened });
  const load = useLoadShipments();
  const [choice, setChoice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Every way out leaves the modal clean for the next shipment.
  const close = () => {
    setChoice(null);
    setError(null);
    load.reset();
    onClose();
  };

  const submit = () => {
    if (!shipment) return;
    const transport = transports.data?.items.find((t) => String(t.id) === choice);
    if (!transport || transport.status === 'mantenimiento') {
      setError(FLEET_MESSAGES.selectTransport);
      return;
    }
    setError(null);
    load.mutate(
      { transportId: transport.id, shipmentIds: [shipment.id] },
      {
        onSuccess: () => {
          notify.success(`Envío ${shipment.code} cargado en ${transport.plate_primary}.`);
          onAssigned?.(transport.plate_primary);
          close();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  // Issue 16, item 3: the shipment's own route first, other routes marked, maintenance not offered.
  const sameRoute = (t: Transport) => t.origin_branch_id === shipment?.originBranchId && t.destination_branch_id === shipment?.destinationBranchId;
  const items = [...(transports.data?.items ?? [])].sort(
    (a, b) => Number(b.status !== 'mantenimiento') - Number(a.status !== 'mantenimiento') || Number(sameRoute(b)) - Number(sameRoute(a)),
  );
  return (
    <Modal opened={opened} onClose={close} title={shipment ? `Asignar ${shipment.code} a un transporte` : 'Asignar a transporte'} size="lg">
      <Stack gap="sm">
        {transports.isError ? (
          <Alert color="red" variant="light" role="alert">
            {FLEET_MESSAGES.transportsLoadFailed}
          </Alert>
        ) : transports.isPending ? (
          <Stack gap="xs" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={52} />
            ))}
          </Stack>
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm">
            Sin registros.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Radio.Group
              value={choice}
              onChange={(v) => {
                setChoice(v);
                setError(null);
              }}
              aria-label="Transportes"
            >
              <Stack gap={6}>
                {items.map((t) => (
                  <Paper key={t.id} withBorder p="xs" bg={t.status === 'mantenimiento' ? 'gray.0' : undefined}>
                    <Radio
                      value={String(t.id)}
                      disabled={t.status === 'mantenimiento'}
                      label={
                        <Group gap="xs" wrap="nowrap">
                          <Text fw={600} ff="monospace" size="sm">
                            {plates(t.plate_primary, t.plate_secondary)}
                          </Text>
                          <TransportStatusPill status={t.status} />
                          {t.route && (
                            <Text size="xs" c="dark.4">
                              {t.route}
                            </Text>
                          )}
                          {t.status !== 'mantenimiento' && !sameRoute(t) && (
                            <Badge color="orange" variant="light" tt="none" size="sm">
                              Otra ruta
                            </Badge>
                          )}
                        </Group>
                      }
                      description={
                        t.status === 'mantenimiento'
                          ? 'En mantenimiento: no se puede cargar.'
                          : `${driverNames(t.driver1, t.driver2)}${sameRoute(t) ? ' · Ruta del envío' : ''}`
                      }
                    />
                  </Paper>
                ))}
              </Stack>
            </Radio.Group>
          </ScrollArea.Autosize>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancelar
          </Button>
          <Button onClick={submit} loading={load.isPending} disabled={transports.isError}>
            Asignar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
