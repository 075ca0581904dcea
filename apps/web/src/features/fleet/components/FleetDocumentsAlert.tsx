import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { FLEET_DOCUMENT_MESSAGES } from '@tramo/domain';
import { useExpiringDocuments } from '../api/get-fleet-documents.ts';

/** The Panel's warning to admins (issue 36): how many fleet documents expire within 30 days or have expired. */
export function FleetDocumentsAlert({ enabled }: { enabled: boolean }) {
  const docs = useExpiringDocuments(30, enabled);
  const count = docs.data?.length ?? 0;
  if (!enabled || count === 0) return null;
  return (
    <Alert color="orange" variant="light" role="status" mb="sm" py="xs">
      {FLEET_DOCUMENT_MESSAGES.expiringAlert(count)}{' '}
      <Anchor component={Link} to="/transportistas?tab=documentos" size="sm" c="inherit" fw={600} underline="always">
        Ver documentos
      </Anchor>
    </Alert>
  );
}
