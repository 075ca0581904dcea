import { Button, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Stack align="center" mt="xl" gap="sm">
      <Title order={1} size="h2">
        Página no encontrada.
      </Title>
      <Button component={Link} to="/" variant="light">
        Ir al Panel
      </Button>
    </Stack>
  );
}
