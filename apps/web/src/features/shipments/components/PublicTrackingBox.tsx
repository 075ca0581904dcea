import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { usePublicTrackingUrl } from '../../../lib/health.ts';
import { TrackingQr } from './TrackingQr.tsx';

/** The shipment's public tracking page (issue 18): the QR the label carries, and its link to share. */
export function PublicTrackingBox({ code }: { code: string }) {
  const url = usePublicTrackingUrl(code);
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h5" mb="xs">
        Seguimiento para el cliente
      </Title>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <TrackingQr code={code} size={24} />
        <Stack gap={4} miw={0}>
          <Text size="xs" c="dimmed">
            El remitente y el destinatario ven el estado escaneando el QR de la etiqueta o con este enlace (sin iniciar sesión).
          </Text>
          {url && (
            <Anchor href={url} target="_blank" rel="noopener" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {url}
            </Anchor>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
