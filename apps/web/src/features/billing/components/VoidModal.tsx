import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { BILLING_MESSAGES, DEFAULT_VOID_REASON, VOID_REASON_MAX_LENGTH, voidWordsFor, type SunatDocumentType } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import { useVoidDocument } from '../api/documents.ts';

export interface VoidTarget {
  id: number;
  name: string;
  type: SunatDocumentType;
}

/** 'Anular' ('Revertir' a voucher, 'Dar de baja' a guide): the reason is required and starts as the spec's 'ERROR DEL SISTEMA'. */
export function VoidModal({ target, onClose }: { target: VoidTarget | null; onClose(): void }) {
  const [reason, setReason] = useState(DEFAULT_VOID_REASON);
  const [error, setError] = useState<string | null>(null);
  const voiding = useVoidDocument();
  const words = voidWordsFor(target?.type ?? '01');

  const close = () => {
    setReason(DEFAULT_VOID_REASON);
    setError(null);
    onClose();
  };
  const submit = () => {
    if (!target) return;
    if (reason.trim() === '') {
      setError(BILLING_MESSAGES.voidReason);
      return;
    }
    voiding.mutate(
      { id: target.id, motivo: reason.trim() },
      {
        onSuccess: (answer) => {
          notify.success(answer.status === 'anulado' ? `${target.name} anulado.` : `Anulación de ${target.name} solicitada a SUNAT.`);
          close();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Modal opened={target !== null} onClose={close} title={target ? `${words.action} ${target.name}` : ''}>
      <Stack gap="sm">
        <Text size="sm">{words.notice}</Text>
        <TextInput
          label={words.reasonLabel}
          withAsterisk
          maxLength={VOID_REASON_MAX_LENGTH}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          // Issue 38: leaving it empty says so on the field, before any submit.
          onBlur={() => reason.trim() === '' && setError(BILLING_MESSAGES.voidReason)}
          error={error && reason.trim() === '' ? error : undefined}
          data-autofocus
        />
        {error && reason.trim() !== '' && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancelar
          </Button>
          <Button color="red" loading={voiding.isPending} onClick={submit}>
            {words.action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
