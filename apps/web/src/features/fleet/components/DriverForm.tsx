import { useState } from 'react';
import { SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { driverSchema, type Driver, type DriverData, type DriverInput } from '@tramo/domain';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useSaveDriver } from '../api/save-driver.ts';
import { SideForm } from '../../../components/ui/SideForm.tsx';

const FIELDS = ['full_name', 'dni', 'license_number', 'license_class', 'license_expires_on', 'phone', 'note'] as const;

export function DriverForm({ driver, onDone }: { driver: Driver | null; onDone(): void }) {
  const save = useSaveDriver();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<DriverInput, unknown, DriverData>({
    mode: 'onTouched',
    resolver: zodResolver(driverSchema),
    defaultValues: {
      full_name: driver?.full_name ?? '',
      dni: driver?.dni ?? '',
      license_number: driver?.license_number ?? '',
      license_class: driver?.license_class ?? '',
      license_expires_on: driver?.license_expires_on ?? '',
      phone: driver?.phone ?? '',
      note: driver?.note ?? '',
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(
      { ...values, id: driver?.id },
      {
        onSuccess: () => {
          notify.success(driver ? 'Conductor actualizado.' : 'Conductor creado.');
          onDone();
        },
        onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
      },
    );
  });

  return (
    <SideForm
      onSubmit={onSubmit}
      alert={alert}
      submitting={save.isPending}
      submitLabel={driver ? 'Guardar cambios' : 'Crear conductor'}
      onCancel={onDone}
    >
      <TextInput label="Nombre completo" withAsterisk autoFocus {...form.register('full_name')} error={errors.full_name?.message} />
      <TextInput
        label="DNI"
        withAsterisk
        inputMode="numeric"
        // A DNI pasted as '41 526 374' or '41.526.374' is the same number; no maxLength, or the paste is cut first.
        {...form.register('dni', { setValueAs: (v: string) => v.replace(/[\s.-]/g, '') })}
        error={errors.dni?.message}
      />
      <TextInput label="Licencia" withAsterisk placeholder="Q12345678" {...form.register('license_number')} error={errors.license_number?.message} />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput label="Clase de licencia" placeholder="A-IIIc" {...form.register('license_class')} error={errors.license_class?.message} />
        <TextInput label="Vencimiento de licencia" type="date" {...form.register('license_expires_on')} error={errors.license_expires_on?.message} />
      </SimpleGrid>
      <TextInput label="Teléfono" {...form.register('phone')} error={errors.phone?.message} />
      <Textarea label="Nota" autosize minRows={2} {...form.register('note')} error={errors.note?.message} />
    </SideForm>
  );
}
