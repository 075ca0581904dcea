import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function ForbiddenPage() {
  return (
    <Stack align="center" mt="xl" gap="sm">
      <Title order={1} size="h2">
        403 — Acceso denegado
      </Title>
      <Text c="dimmed">No tienes permiso para acceder a esta sección.</Text>
      <Button component={Link} to="/" variant="light">
        Ir al Panel
      </Button>
    </Stack>
  );
}
