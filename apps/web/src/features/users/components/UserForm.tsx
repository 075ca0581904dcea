import { useState } from 'react';
import { Checkbox, Group, Select, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { normalizeUsername, ROLE_LABELS, ROLES, USER_MESSAGES, userSchema, type User } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { BranchSelect } from '../../branches/index.ts';
import { useUsers } from '../api/get-users.ts';
import { useSaveUser, type CreatedUser } from '../api/save-user.ts';
import { SideForm } from '../../../components/ui/SideForm.tsx';

type Input = z.input<typeof userSchema>;
type Output = z.output<typeof userSchema>;

const roleOptions = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

const FIELDS = ['username', 'firstName', 'lastName', 'email', 'role', 'branchId'] as const;

/**
 * Spec section 8, when the server names no field: username duplicates on the username, messages about
 * role or branch on those fields.
 */
function fieldFor(err: ApiError): 'username' | 'role' | 'branchId' | null {
  if (/username ya registrado|usuario ya existe/i.test(err.message)) return 'username';
  if (/\brol\b|role/i.test(err.message)) return 'role';
  if (/sucursal|branch/i.test(err.message)) return 'branchId';
  return null;
}

interface UserFormProps {
  user: User | null;
  onCreated(created: CreatedUser): void;
  onDone(): void;
}

export function UserForm({ user, onCreated, onDone }: UserFormProps) {
  const save = useSaveUser();
  // The whole directory, to flag a taken code while typing (the server still has the last word).
  const allUsers = useUsers();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    mode: 'onTouched',
    resolver: zodResolver(userSchema),
    defaultValues: {
      username: user?.username ?? '',
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      role: user?.role ?? ('' as Input['role']),
      branchId: user?.branchId ?? null,
      mustChangePassword: user?.mustChangePassword ?? true,
    },
  });
  const { errors } = form.formState;
  const usernameField = form.register('username');
  const typed = normalizeUsername(useWatch({ control: form.control, name: 'username' }) ?? '');
  const duplicate = typed.length >= 3 && typed !== user?.username && !!allUsers.data?.some((u) => u.username === typed);

  const onSubmit = form.handleSubmit((values) => {
    // The live 'Ya existe un usuario con este código.' is on the field already: take the user there.
    if (duplicate) return form.setFocus('username');
    setAlert(null);
    save.mutate(
      { ...values, id: user?.id },
      {
        onSuccess: (result) => {
          notify.success(user ? 'Usuario actualizado.' : 'Usuario creado.');
          if (result.tempPassword) onCreated(result as CreatedUser);
          onDone();
        },
        onError: (err) => {
          const message = applyServerErrors(err, form.setError, FIELDS);
          if (message === null) return;
          const field = err instanceof ApiError ? fieldFor(err) : null;
          if (field) form.setError(field, { type: 'server', message });
          else setAlert(message);
        },
      },
    );
  });

  return (
    <SideForm
      onSubmit={onSubmit}
      alert={alert}
      submitting={save.isPending}
      submitLabel={user ? 'Guardar cambios' : 'Crear usuario'}
      onCancel={onDone}
    >
      <TextInput
        label="Usuario"
        description="Código en mayúsculas, sin espacios"
        withAsterisk
        autoFocus
        {...usernameField}
        // Shown as it will be saved: no spaces, capitals.
        onChange={(e) => {
          e.target.value = normalizeUsername(e.target.value);
          return usernameField.onChange(e);
        }}
        error={errors.username?.message ?? (duplicate ? USER_MESSAGES.duplicateLive : undefined)}
      />
      <Group grow>
        <TextInput label="Nombres" {...form.register('firstName')} error={errors.firstName?.message} />
        <TextInput label="Apellidos" {...form.register('lastName')} error={errors.lastName?.message} />
      </Group>
      <TextInput label="Correo" type="email" {...form.register('email')} error={errors.email?.message} />
      <Controller
        control={form.control}
        name="role"
        render={({ field }) => (
          <Select
            label="Rol"
            withAsterisk
            data={roleOptions}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            error={errors.role?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="branchId"
        render={({ field }) => (
          <BranchSelect
            label="Sucursal"
            value={field.value ? String(field.value) : null}
            onChange={(v) => field.onChange(v ? Number(v) : null)}
            onBlur={field.onBlur}
            clearable
            allowDeselect
            error={errors.branchId?.message}
          />
        )}
      />
      {user && (
        <Controller
          control={form.control}
          name="mustChangePassword"
          render={({ field }) => (
            <Checkbox
              label="Debe cambiar la contraseña al ingresar"
              checked={!!field.value}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />
      )}
    </SideForm>
  );
}
