import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { AUTH_MESSAGES, changePasswordFormSchema, type ChangePasswordForm } from '@tramo/domain';
import { applyServerErrors } from '../../lib/forms.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../lib/session.ts';
import { useChangePassword } from './api/change-password.ts';
import { useLogout } from './api/logout.ts';
import { AuthCard } from './AuthCard.tsx';

export default function ChangePasswordPage() {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  return <ChangePasswordForm mustChange={session.user.mustChangePassword} />;
}

function ChangePasswordForm({ mustChange }: { mustChange: boolean }) {
  const navigate = useNavigate();
  const change = useChangePassword();
  const logout = useLogout();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<ChangePasswordForm>({
    mode: 'onTouched',
    resolver: zodResolver(changePasswordFormSchema(!mustChange)),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) => {
    setAlert(null);
    change.mutate(
      { newPassword, ...(mustChange ? {} : { currentPassword }) },
      {
        onSuccess: () => {
          notify.success('Contraseña actualizada.');
          navigate('/', { replace: true });
        },
        onError: (err) => setAlert(applyServerErrors(err, form.setError, ['currentPassword', 'newPassword'], AUTH_MESSAGES.changeFailed)),
      },
    );
  });

  return (
    <AuthCard
      title={
        <Group gap="xs">
          Cambiar contraseña
          {mustChange && (
            <Badge color="orange" variant="light">
              Primer ingreso
            </Badge>
          )}
        </Group>
      }
      subtitle={mustChange ? 'Define una nueva contraseña para continuar.' : undefined}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {alert && (
            <Alert color="red" variant="light" role="alert">
              {alert}
            </Alert>
          )}
          {!mustChange && (
            <PasswordInput
              label="Contraseña actual"
              autoComplete="current-password"
              autoFocus
              {...form.register('currentPassword')}
              error={errors.currentPassword?.message}
            />
          )}
          <PasswordInput
            label="Nueva contraseña"
            autoComplete="new-password"
            autoFocus={mustChange}
            {...form.register('newPassword')}
            error={errors.newPassword?.message}
          />
          <PasswordInput
            label="Confirmar contraseña"
            autoComplete="new-password"
            {...form.register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
          <Button type="submit" loading={change.isPending} mt="xs">
            Guardar contraseña
          </Button>
          <Group justify="center" gap="lg">
            {!mustChange && (
              <Anchor component={Link} to="/" size="sm">
                Volver
              </Anchor>
            )}
            {/* This page is outside the shell, so a flagged user has no other way out. */}
            <Button type="button" variant="subtle" color="gray" size="compact-sm" onClick={logout}>
              Cerrar sesión
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
