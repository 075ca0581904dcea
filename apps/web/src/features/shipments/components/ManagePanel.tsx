import { useState } from 'react';
import { Button, Checkbox, Modal, Paper, PasswordInput, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import {
  cancelRefusal,
  descriptionChangeSchema,
  checkpointSchema,
  secretCodeSchema,
  SHIPMENT_MESSAGES,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
} from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { notify } from '../../../lib/notify.ts';
import { useAddCheckpoint } from '../api/add-checkpoint.ts';
import { useChangeDescription } from '../api/change-description.ts';
import { useChangeSecretCode } from '../api/change-secret-code.ts';
import { useChangeStatus } from '../api/change-status.ts';
import type { Shipment } from '../types.ts';
import { confirmCancel } from './useShipmentActions.tsx';

const statusOptions = SHIPMENT_STATUSES.map((s) => ({ value: s, label: s }));

/** The server's field message where it belongs; everything else as the toast alone. */
const fieldMessage = (err: unknown, field: string) => (err instanceof ApiError ? err.fields[field] : undefined);

function StatusForm({ shipment }: { shipment: Shipment }) {
  const change = useChangeStatus();
  const [status, setStatus] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ status?: string; note?: string }>({});

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // Spec section 8: these two are answered before any round trip; the rules stay with the API.
    if (!status) return setErrors({ status: SHIPMENT_MESSAGES.selectStatus });
    if (status === shipment.status && !note.trim()) return setErrors({ note: SHIPMENT_MESSAGES.sameStatusNeedsNote });
    // Choosing Anulado is the cancel action (DESIGN 2a: destructive, so it asks first); the API
    // keeps the note with the cancel event.
    const cancelling = status === 'Anulado' && shipment.status !== 'Anulado';
    if (cancelling) {
      const refusal = cancelRefusal(shipment.status);
      if (refusal) {
        setErrors({ status: refusal });
        notify.error(refusal);
        return;
      }
      setErrors({});
      if (!(await confirmCancel(shipment))) return;
    }
    setErrors({});
    change.mutate(
      { id: shipment.id, status: status as ShipmentStatus, note: note.trim() || null },
      {
        onSuccess: () => {
          notify.success(cancelling ? SHIPMENT_MESSAGES.cancelled : SHIPMENT_MESSAGES.statusUpdated);
          setStatus(null);
          setNote('');
        },
        onError: (err) => {
          setErrors({ status: fieldMessage(err, 'status'), note: fieldMessage(err, 'note') });
          notify.error(err);
        },
      },
    );
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Cambiar estado">
      <Stack gap="xs">
        <Select
          label="Nuevo estado"
          placeholder="Selecciona un estado"
          size="xs"
          data={statusOptions}
          value={status}
          onChange={setStatus}
          error={errors.status}
        />
        <TextInput label="Nota" size="xs" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} error={errors.note} />
        <Button type="submit" size="xs" loading={change.isPending}>
          Actualizar estado
        </Button>
      </Stack>
    </form>
  );
}

function EventForm({ shipment }: { shipment: Shipment }) {
  const add = useAddCheckpoint();
  const [name, setName] = useState('');
  const [visibleToCustomer, setVisibleToCustomer] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = checkpointSchema.safeParse({ name, visibleToCustomer });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    add.mutate(
      { id: shipment.id, name: parsed.data.name, visibleToCustomer: parsed.data.visibleToCustomer },
      {
        onSuccess: () => {
          notify.success(SHIPMENT_MESSAGES.eventAdded);
          setName('');
          setVisibleToCustomer(false);
        },
        onError: (err) => {
          setError(fieldMessage(err, 'name'));
          notify.error(err);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Agregar evento">
      <Stack gap="xs">
        <TextInput
          label="Evento"
          placeholder="Ej.: Llegó a almacén"
          size="xs"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error}
        />
        {/* Off by default: what staff type is internal; /seguimiento shows milestones and only the events marked here. */}
        <Checkbox
          size="xs"
          label="Visible para el cliente"
          description="Se mostrará en el seguimiento público"
          checked={visibleToCustomer}
          onChange={(e) => setVisibleToCustomer(e.currentTarget.checked)}
        />
        <Button type="submit" size="xs" variant="light" loading={add.isPending}>
          Agregar evento
        </Button>
      </Stack>
    </form>
  );
}

export function SecretCodeModal({ shipment, opened, onClose }: { shipment: Shipment; opened: boolean; onClose(): void }) {
  const change = useChangeSecretCode();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setCode('');
    setError(undefined);
    onClose();
  };
  const check = () => {
    const parsed = secretCodeSchema.safeParse(code);
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    return parsed;
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = check();
    if (!parsed.success) return;
    change.mutate(
      { id: shipment.id, secretCode: parsed.data },
      {
        onSuccess: () => {
          notify.success('Clave secreta actualizada.');
          close();
        },
        onError: (err) => {
          setError(fieldMessage(err, 'secretCode'));
          notify.error(err);
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title="Cambiar clave secreta">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label="Nueva clave secreta"
            description="4 a 12: letras, números, - _ ."
            data-autofocus
            maxLength={12}
            autoComplete="new-password"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            // Issue 38: 'Mínimo 4 caracteres' or 'Solo letras, números y - _ .' as soon as the field is left.
            onBlur={() => void check()}
            error={error}
          />
          <Button type="submit" loading={change.isPending}>
            Guardar clave
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function DescriptionModal({ shipment, opened, onClose }: { shipment: Shipment; opened: boolean; onClose(): void }) {
  const change = useChangeDescription();
  const [text, setText] = useState(shipment.description ?? '');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = descriptionChangeSchema.safeParse({ description: text });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    change.mutate(
      { id: shipment.id, description: parsed.data.description },
      {
        onSuccess: () => {
          notify.success('Descripción actualizada.');
          onClose();
        },
        onError: (err) => {
          setError(fieldMessage(err, 'description'));
          notify.error(err);
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Cambiar descripción">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label="Descripción"
            data-autofocus
            autosize
            minRows={3}
            maxLength={500}
            description={`${text.length}/500`}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={error}
          />
          <Button type="submit" loading={change.isPending}>
            Guardar descripción
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** What staff of the origin branch (or an admin) can do on the detail screen. */
export function ManagePanel({ shipment }: { shipment: Shipment }) {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h5" mb="xs">
        Gestionar
      </Title>
      <Stack gap="md">
        <StatusForm shipment={shipment} />
        <EventForm shipment={shipment} />
      </Stack>
    </Paper>
  );
}
