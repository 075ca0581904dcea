import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { BRANCH_MESSAGES, branchSchema, type Branch } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useSaveBranch } from '../api/save-branch.ts';
import { SideForm } from '../../../components/ui/SideForm.tsx';

export function BranchForm({ branch, onDone }: { branch: Branch | null; onDone(): void }) {
  const save = useSaveBranch();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<z.input<typeof branchSchema>, unknown, z.output<typeof branchSchema>>({
    mode: 'onTouched',
    resolver: zodResolver(branchSchema),
    defaultValues: { name: branch?.name ?? '', city: branch?.city ?? '', address: branch?.address ?? '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(
      { ...values, id: branch?.id },
      {
        onSuccess: () => {
          notify.success(branch ? 'Sucursal actualizada.' : 'Sucursal creada.');
          onDone();
        },
        onError: (err) => {
          // Spec section 8: a duplicate reads the same whatever the server said.
          if (err instanceof ApiError && (err.status === 409 || /duplicad|unique|existe/i.test(err.message))) {
            form.setError('name', { type: 'server', message: BRANCH_MESSAGES.duplicate });
            return;
          }
          setAlert(applyServerErrors(err, form.setError, ['name', 'city', 'address']));
        },
      },
    );
  });

  return (
    <SideForm
      onSubmit={onSubmit}
      alert={alert}
      submitting={save.isPending}
      submitLabel={branch ? 'Guardar cambios' : 'Crear sucursal'}
      onCancel={onDone}
    >
      <TextInput label="Nombre" withAsterisk autoFocus {...form.register('name')} error={errors.name?.message} />
      <TextInput label="Ciudad" {...form.register('city')} error={errors.city?.message} />
      <TextInput label="Dirección" {...form.register('address')} error={errors.address?.message} />
    </SideForm>
  );
}
