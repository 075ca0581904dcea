import { Button, Stack, Text, Title } from '@mantine/core';

/** A route that failed to load or render (part of the main bundle, so it shows even when chunks do not). */
export function PageLoadError() {
  return (
    <Stack align="center" mt="xl" gap="sm">
      <Title order={1} size="h2">
        No se pudo cargar la página.
      </Title>
      <Text c="dimmed">Revisa tu conexión y vuelve a intentarlo.</Text>
      <Button variant="light" onClick={() => window.location.reload()}>
        Recargar
      </Button>
    </Stack>
  );
}
