import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format.ts';
import type { Shipment } from '../types.ts';
import { LabelModal } from './LabelModal.tsx';

/** After "Crear envío": the code large, the label one click away, and the way to the next one. */
export function CreatedShipment({ shipment, onAnother }: { shipment: Shipment; onAnother(): void }) {
  const [printing, setPrinting] = useState(false);
  return (
    <Paper withBorder p="xl" maw={560} mx="auto" mt="lg">
      <Stack align="center" gap="sm">
        <Text c="dimmed">Envío registrado</Text>
        <Title order={2} size="h1" data-testid="created-code" style={{ letterSpacing: 1 }}>
          {shipment.code}
        </Title>
        <Text size="sm">
          {shipment.originBranch.name} → {shipment.destinationBranch.name} · {shipment.recipientName}
        </Text>
        <Text fw={700} size="lg">
          {formatMoney(shipment.quotedPrice)}
        </Text>
        <Group mt="sm">
          <Button autoFocus onClick={() => setPrinting(true)}>
            Imprimir etiqueta
          </Button>
          <Button component={Link} to={`/shipments/${shipment.id}`} variant="default">
            Ver envío
          </Button>
          <Button variant="light" onClick={onAnother}>
            Registrar otro
          </Button>
        </Group>
      </Stack>
      <LabelModal shipment={printing ? shipment : null} onClose={() => setPrinting(false)} />
    </Paper>
  );
}
