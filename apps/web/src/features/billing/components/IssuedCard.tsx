import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { SUNAT_DOCUMENT_LABELS, type SunatDocumentType, type IssueResult } from '@tramo/domain';
import { useDocument } from '../api/documents.ts';
import { DocumentActions } from './DocumentActions.tsx';
import { DocumentStatusBadge } from './DocumentStatusBadge.tsx';

/**
 * After 'Crear Documento': serie-número, the provider's status (kept current: the register's lookup
 * consults a pending document) and the document's actions.
 */
export function IssuedCard({
  type,
  result,
  message,
  onNew,
  onCreditNote,
}: {
  type: SunatDocumentType;
  result: IssueResult;
  message: string | null;
  onNew(): void;
  onCreditNote?(id: number): void;
}) {
  const detail = useDocument(result.id);
  const status = detail.data?.status ?? result.status ?? 'pendiente';
  const name = detail.data?.fullNumber ?? `${result.serie}-${String(result.numero ?? 0).padStart(8, '0')}`;
  return (
    <Paper withBorder p="lg" aria-label="Documento emitido">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {SUNAT_DOCUMENT_LABELS[type]}
            </Text>
            <Group gap="sm">
              <Title order={2} size="h3" ff="monospace">
                {name}
              </Title>
              <DocumentStatusBadge status={status} />
            </Group>
          </Stack>
          <Button onClick={onNew}>Nuevo documento</Button>
        </Group>
        {message && (
          <Alert color={status === 'rechazado' ? 'red' : 'yellow'} variant="light" role="alert">
            {message}
          </Alert>
        )}
        {result.id !== null && (
          <DocumentActions
            size="sm"
            doc={{ id: result.id, type, name, status }}
            onCreditNote={onCreditNote && result.id !== null ? () => onCreditNote(result.id!) : undefined}
          />
        )}
      </Stack>
    </Paper>
  );
}
