import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PAYMENT_MOMENT_LABELS, PAYER_LABELS, toCents, whoPaysChangeSchema } from '@tramo/domain';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { Field } from '../../../components/ui/Field.tsx';
import { useChangeWhoPays } from '../api/who-pays.ts';
import type { Shipment } from '../types.ts';
import { DEFAULT_WHO_PAYS, WhoPaysFields, type WhoPaysField, type WhoPaysValues } from './WhoPaysFields.tsx';

/** The person who pays, as the receipt will name them: the name, and the document below it. */
function payerParty(s: Shipment): { name: string; doc: string | null } {
  if (s.payer === 'tercero') {
    return { name: s.payerName ?? '—', doc: s.payerDocNumber ? `${s.payerDocType === 6 ? 'RUC' : 'DNI'} ${s.payerDocNumber}` : null };
  }
  if (s.payer === 'destinatario') return { name: s.recipientName, doc: s.recipientDoc };
  return { name: s.senderName, doc: null };
}

const valuesOf = (s: Shipment): WhoPaysValues => ({
  ...DEFAULT_WHO_PAYS,
  payer: s.payer,
  paymentMoment: s.paymentMoment,
  payerDocType: s.payerDocType === 6 ? '6' : '1',
  payerDocNumber: s.payerDocNumber ?? '',
  payerName: s.payerName ?? '',
  payerCustomerId: s.payerCustomerId,
});

function ChangeWhoPaysModal({ shipment, onClose }: { shipment: Shipment; onClose(): void }) {
  const [value, setValue] = useState<WhoPaysValues>(() => valuesOf(shipment));
  const [errors, setErrors] = useState<Partial<Record<WhoPaysField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const change = useChangeWhoPays();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const parsed = whoPaysChangeSchema.safeParse(value);
    if (!parsed.success) {
      const found: Partial<Record<WhoPaysField, string>> = {};
      for (const issue of parsed.error.issues)
        found[(issue.path[0] === 'payerDocType' ? 'payerDocNumber' : issue.path[0]) as WhoPaysField] ??= issue.message;
      return setErrors(found);
    }
    setErrors({});
    change.mutate(
      { id: shipment.id, ...value, payerDocType: Number(value.payerDocType) },
      {
        onSuccess: () => {
          notify.success('Pago del flete actualizado.');
          onClose();
        },
        onError: (err) => {
          const message = errorMessage(err, 'No se pudo cambiar quién paga.');
          // A refusal about one of the fields shows under it; anything else (already loaded, paid) above the buttons.
          const fields = err instanceof ApiError ? (err.fields as Partial<Record<WhoPaysField, string>>) : {};
          setErrors(fields);
          if (Object.keys(fields).length === 0) setFailure(message);
          notify.error(message);
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Pago del flete · ${shipment.code}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <WhoPaysFields
            value={value}
            onChange={(patch) => setValue((v) => ({ ...v, ...patch }))}
            route={{
              originBranchId: shipment.originBranchId,
              destinationBranchId: shipment.destinationBranchId,
              priceCents: toCents(shipment.quotedPrice),
              weightKg: shipment.weightKg,
            }}
            errors={errors}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={change.isPending}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The detail's 'Pago del flete' (issue 33): who pays, when, what is still owed, and 'Cambiar' for
 * the origin while the freight is unpaid and the parcel not yet loaded (the API has the last word).
 */
export function WhoPaysBox({ shipment: s, canChange }: { shipment: Shipment; canChange: boolean }) {
  const [changing, setChanging] = useState(false);
  const open = s.status !== 'Anulado' && s.status !== 'Devuelto';
  const due = open && !s.freightPaid ? s.quotedPrice : 0;
  const party = payerParty(s);
  return (
    <Paper withBorder p="md" data-testid="who-pays-box">
      <Group justify="space-between" mb="xs" wrap="nowrap" gap="xs">
        <Title order={2} size="h5">
          Pago del flete
        </Title>
        {canChange && s.status === 'Creado' && !s.freightPaid && (
          <Button size="compact-sm" variant="subtle" style={{ flexShrink: 0 }} onClick={() => setChanging(true)}>
            Cambiar
          </Button>
        )}
      </Group>
      {/* Two columns on the counter's screen; one in the narrow side column of a 1024 px tablet. */}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm" verticalSpacing="sm">
        <Field label="Quién paga">{PAYER_LABELS[s.payer]}</Field>
        <Field label="Momento de pago">
          <Text span size="sm" fw={s.paymentMoment === 'destino' ? 600 : undefined} c={s.paymentMoment === 'destino' ? 'orange.9' : undefined}>
            {PAYMENT_MOMENT_LABELS[s.paymentMoment]}
          </Text>
        </Field>
        <Field label="Paga">
          {party.name}
          {party.doc && (
            <Text size="xs" c="dimmed">
              {party.doc}
            </Text>
          )}
        </Field>
        <Field label="Por cobrar">
          {s.freightPaid ? (
            <Text span size="sm" c="teal.8" fw={600}>
              Pagado
            </Text>
          ) : (
            <Text span size="sm" fw={700} c={due > 0 && s.paymentMoment === 'destino' ? 'orange.9' : undefined}>
              {formatMoney(due)}
            </Text>
          )}
        </Field>
      </SimpleGrid>
      {changing && <ChangeWhoPaysModal shipment={s} onClose={() => setChanging(false)} />}
    </Paper>
  );
}
