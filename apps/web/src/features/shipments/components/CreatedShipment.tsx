import { useMemo, useRef, useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format.ts';
import { SHORTCUTS, shortcutLabel, useShortcut, withShortcut } from '../../../lib/shortcuts.ts';
import { CollectAction } from '../../payments/index.ts';
import type { Shipment } from '../types.ts';
import { LabelModal } from './LabelModal.tsx';

/**
 * After "Crear envío": the code large, then the counter's next steps in order, each a key away
 * (issue 38): the label (Alt+E), 'Cobrar' when it is paid here and now (Alt+P), the next shipment
 * (Alt+N). The focus follows the work: the label's button first, 'Cobrar' once the label is closed,
 * 'Registrar otro' once the receipt is.
 */
export function CreatedShipment({ shipment, onAnother }: { shipment: Shipment; onAnother(): void }) {
  const [printing, setPrinting] = useState(false);
  const collectRef = useRef<HTMLButtonElement>(null);
  const anotherRef = useRef<HTMLButtonElement>(null);
  // Not collectable here (pago en destino, crédito): after the label comes the next shipment.
  const afterLabel = useMemo(
    () => ({
      get current(): HTMLElement | null {
        return collectRef.current ?? anotherRef.current;
      },
    }),
    [],
  );
  useShortcut(SHORTCUTS.label, () => setPrinting(true));
  useShortcut(SHORTCUTS.newShipment, onAnother);

  return (
    <Paper withBorder p="xl" maw={840} mx="auto" mt="lg">
      <Stack align="center" gap="sm">
        <Text c="dimmed">Envío registrado</Text>
        <Title order={2} size="h1" data-testid="created-code" style={{ letterSpacing: 1 }}>
          {shipment.code}
        </Title>
        <Text size="sm" className="user-text" ta="center">
          {shipment.originBranch.name} → {shipment.destinationBranch.name} · {shipment.recipientName}
        </Text>
        <Text fw={700} size="lg">
          {formatMoney(shipment.quotedPrice)}
        </Text>
        <Group mt="sm" justify="center">
          <Tooltip label={withShortcut('Imprimir etiqueta', SHORTCUTS.label)}>
            <Button autoFocus variant="default" aria-keyshortcuts={shortcutLabel(SHORTCUTS.label)} onClick={() => setPrinting(true)}>
              Imprimir etiqueta
            </Button>
          </Tooltip>
          <CollectAction shipment={shipment} buttonRef={collectRef} afterPaidFocus={anotherRef} />
          <Button component={Link} to={`/shipments/${shipment.id}`} variant="default">
            Ver envío
          </Button>
          <Tooltip label={withShortcut('Registrar otro', SHORTCUTS.newShipment)}>
            <Button ref={anotherRef} variant="light" aria-keyshortcuts={shortcutLabel(SHORTCUTS.newShipment)} onClick={onAnother}>
              Registrar otro
            </Button>
          </Tooltip>
        </Group>
      </Stack>
      <LabelModal shipment={printing ? shipment : null} onClose={() => setPrinting(false)} returnFocusTo={afterLabel} />
    </Paper>
  );
}
