import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/** The temporary password is shown this once; the server keeps only its hash. */
export function TempPasswordModal({ username, password, onClose }: { username: string; password: string | null; onClose(): void }) {
  return (
    <Modal opened={password !== null} onClose={onClose} title="Contraseña temporal" centered>
      <Stack gap="sm">
        <Text size="sm">
          Entrega esta contraseña a <b>{username}</b>. Deberá cambiarla al ingresar.
        </Text>
        <Group justify="center">
          <Code fz="xl" p="sm" data-testid="temp-password">
            {password}
          </Code>
        </Group>
        <Alert color="yellow" variant="light">
          No se volverá a mostrar.
        </Alert>
        <Group justify="flex-end">
          <CopyButton value={password ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? 'Copiada' : 'Copiar'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Listo</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
