import { useState } from 'react';
import { Alert, Button, Code, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { loginSchema, type LoginInput } from '@tramo/domain';
import { applyServerErrors } from '../../lib/forms.ts';
import { useHealth } from '../../lib/health.ts';
import { useLogin } from './api/login.ts';
import { AuthCard } from './AuthCard.tsx';

const DEMO_CREDENTIALS = [
  ['ADMIN', 'admin123'],
  ['AGENTE1', 'agente123'],
  ['AGENTE2', 'agente123'],
  ['REPARTIDOR1', 'reparto123'],
] as const;

export default function LoginPage() {
  const health = useHealth();
  const login = useLogin();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<LoginInput>({ mode: 'onTouched', resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    // On success the session changes and RedirectIfAuthed takes the user on.
    login.mutate(values, {
      onError: (err) => setAlert(applyServerErrors(err, form.setError, ['username', 'password'])),
    });
  });

  return (
    <AuthCard title="Iniciar sesión" subtitle="Back-office de envíos y carga">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {alert && (
            <Alert color="red" variant="light" role="alert">
              {alert}
            </Alert>
          )}
          <TextInput
            label="Usuario"
            autoComplete="username"
            autoFocus
            {...form.register('username')}
            error={form.formState.errors.username?.message}
          />
          <PasswordInput
            label="Contraseña"
            autoComplete="current-password"
            {...form.register('password')}
            error={form.formState.errors.password?.message}
          />
          <Button type="submit" loading={login.isPending} fullWidth mt="xs">
            Ingresar
          </Button>
        </Stack>
      </form>
      {health.data?.demo && (
        // Information, not an alert: nothing went wrong, so it is not announced.
        <Paper component="section" aria-labelledby="demo-credentials" withBorder bg="teal.0" p="sm" mt="md">
          <Text id="demo-credentials" size="sm" fw={600} mb={4}>
            Credenciales de demostración
          </Text>
          <Stack gap={2}>
            {DEMO_CREDENTIALS.map(([user, pass]) => (
              <Text size="sm" key={user}>
                <Code>{user}</Code> / <Code>{pass}</Code>
              </Text>
            ))}
          </Stack>
        </Paper>
      )}
    </AuthCard>
  );
}
