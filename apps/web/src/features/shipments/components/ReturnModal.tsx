import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Textarea } from '@mantine/core';
import { RETURN_MESSAGES, secretCodeSchema } from '@tramo/domain';
import { ApiError, newIdempotencyKey } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import { useReturnShipment } from '../api/return-shipment.ts';
import type { Shipment } from '../types.ts';

/**
 * 'Devolver a origen': the confirm dialog asks why, and the return leg's secret code (as any new
 * shipment has one: whoever collects it back at the origin gives it).
 */
export function ReturnModal({ shipment, opened, onClose }: { shipment: Shipment; opened: boolean; onClose: () => void }) {
  const giveBack = useReturnShipment();
  const [reason, setReason] = useState('');
  const [secretCode, setSecretCode] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; secretCode?: string }>({});
  // One key per return the agent means to make: every submit of this dialog until it succeeds.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const check = () => {
    const code = secretCodeSchema.safeParse(secretCode);
    return {
      reason: reason.trim() ? undefined : RETURN_MESSAGES.reasonRequired,
      secretCode: code.success ? undefined : code.error.issues[0]?.message,
    };
  };
  // Issue 38: the field left says what is wrong with it, before any submit.
  const checkField = (field: 'reason' | 'secretCode') => setErrors((prev) => ({ ...prev, [field]: check()[field] }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const next = check();
    setErrors(next);
    if (next.reason || next.secretCode) return;
    giveBack.mutate(
      { id: shipment.id, reason: reason.trim(), secretCode, idempotencyKey },
      {
        onSuccess: (answer) => {
          notify.success(`${RETURN_MESSAGES.returned} Retorno: ${answer.returnShipment.code}`);
          setReason('');
          setSecretCode('');
          setIdempotencyKey(newIdempotencyKey());
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError) setErrors({ reason: err.fields.reason, secretCode: err.fields.secretCode });
          notify.error(err);
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Devolver a origen" centered>
      <form onSubmit={submit} noValidate aria-label="Devolver a origen">
        <Stack gap="sm">
          <Alert color="grape" variant="light">
            {shipment.code} quedará 'Devuelto' y se registrará su retorno de {shipment.destinationBranch.name} a {shipment.originBranch.name}, sin
            cobro.
          </Alert>
          <Textarea
            label="Motivo"
            required
            autosize
            minRows={2}
            maxLength={200}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setErrors((prev) => ({ ...prev, reason: undefined }));
            }}
            error={errors.reason}
            onBlur={() => checkField('reason')}
            data-autofocus
          />
          <PasswordInput
            label="Clave secreta del retorno"
            required
            value={secretCode}
            onChange={(e) => {
              setSecretCode(e.currentTarget.value);
              setErrors((prev) => ({ ...prev, secretCode: undefined }));
            }}
            error={errors.secretCode}
            onBlur={() => checkField('secretCode')}
            autoComplete="new-password"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" color="grape" loading={giveBack.isPending}>
              Devolver a origen
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
