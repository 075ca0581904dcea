import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { centsToString, countedFromDenominations, DENOMINATIONS_CENTS, parseMoneyCents, type CashSession } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCloseCashSession } from '../api/payments.ts';

/** Counting the drawer: a total, or by notes and coins; the difference shows before confirming. */
export function CloseCashModal({ session, onClose, onClosed }: { session: CashSession | null; onClose(): void; onClosed(s: CashSession): void }) {
  const [mode, setMode] = useState<'denominations' | 'total'>('denominations');
  const [total, setTotal] = useState('');
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const [error, setError] = useState<string | null>(null);
  const close = useCloseCashSession();

  const expectedCash = session?.closing.lines.find((l) => l.methodCode === 'cash')?.expected ?? 0;
  const countedCents =
    mode === 'total'
      ? parseMoneyCents(total)
      : countedFromDenominations(DENOMINATIONS_CENTS.map((value) => ({ value, quantity: quantities[value] ?? 0 })));
  const difference = countedCents === null ? null : countedCents - Math.round(expectedCash * 100);

  const submit = () => {
    if (!session) return;
    if (countedCents === null) {
      setError('Monto contado inválido');
      return;
    }
    const body =
      mode === 'total'
        ? { id: session.id, countedCash: total.trim() }
        : {
            id: session.id,
            denominations: DENOMINATIONS_CENTS.filter((v) => (quantities[v] ?? 0) > 0).map((v) => ({
              value: centsToString(v),
              quantity: quantities[v]!,
            })),
          };
    close.mutate(body, {
      onSuccess: (s) => {
        notify.success('Caja cerrada.');
        setQuantities({});
        setTotal('');
        onClosed(s);
      },
      onError: (err) => setError(errorMessage(err)),
    });
  };

  return (
    <Modal opened={session !== null} onClose={onClose} title="Cerrar caja" size="lg">
      <Stack gap="sm">
        <Text size="sm">
          Efectivo esperado en el cajón (fondo incluido): <b>{formatMoney(expectedCash)}</b>. Los demás métodos se cierran con lo registrado.
        </Text>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'denominations' | 'total')}
          data={[
            { value: 'denominations', label: 'Por denominación' },
            { value: 'total', label: 'Total contado' },
          ]}
        />
        {mode === 'total' ? (
          <TextInput
            label="Efectivo contado"
            inputMode="decimal"
            w={200}
            value={total}
            onChange={(e) => setTotal(e.currentTarget.value)}
            data-autofocus
          />
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            {DENOMINATIONS_CENTS.map((value) => (
              <NumberInput
                key={value}
                label={`S/ ${centsToString(value)}`}
                min={0}
                max={100000}
                allowDecimal={false}
                allowNegative={false}
                value={quantities[value] ?? 0}
                onChange={(v) => setQuantities((q) => ({ ...q, [value]: typeof v === 'number' ? v : Number(v) || 0 }))}
              />
            ))}
          </SimpleGrid>
        )}
        <Group justify="space-between">
          <Text size="sm">Contado: {countedCents === null ? '—' : formatMoney(countedCents / 100)}</Text>
          <Text size="sm" fw={700} c={difference === null || difference === 0 ? undefined : 'red.8'} aria-label="Diferencia">
            Diferencia: {difference === null ? '—' : formatMoney(difference / 100)}
          </Text>
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button color="orange" loading={close.isPending} onClick={submit}>
            Confirmar cierre
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
