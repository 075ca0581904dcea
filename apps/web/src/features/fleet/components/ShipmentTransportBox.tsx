import { Alert, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { FLEET_MESSAGES } from '@tramo/domain';
import { formatDateTime } from '../../../lib/format.ts';
import { useShipmentAssignment } from '../api/get-shipment-assignment.ts';
import { driverNames, plates } from './format.ts';
import { TransportStatusPill } from './TransportStatusPill.tsx';

/** The transport assignment on /shipments/{id}: plates, status, route, drivers and when it was loaded. */
export function ShipmentTransportBox({ shipmentId }: { shipmentId: number | string }) {
  const assignment = useShipmentAssignment(shipmentId);
  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h5" mb="xs">
        Transporte
      </Title>
      {assignment.isPending ? (
        <Skeleton height={48} />
      ) : assignment.isError ? (
        <Alert color="red" variant="light" role="alert">
          {FLEET_MESSAGES.assignmentLoadFailed}
        </Alert>
      ) : assignment.data === null ? (
        <Text c="dimmed" size="sm">
          {FLEET_MESSAGES.noTransport}
        </Text>
      ) : (
        <Stack gap={2}>
          <Group gap="xs">
            <Text fw={600} ff="monospace">
              {plates(assignment.data.plate_primary, assignment.data.plate_secondary)}
            </Text>
            <TransportStatusPill status={assignment.data.status} />
          </Group>
          {assignment.data.route && <Text size="sm">{assignment.data.route}</Text>}
          <Text size="sm">Conductores: {driverNames(assignment.data.driver1, assignment.data.driver2)}</Text>
          <Text size="xs" c="dimmed">
            Cargado el {formatDateTime(assignment.data.loaded_at)}
          </Text>
        </Stack>
      )}
    </Paper>
  );
}
