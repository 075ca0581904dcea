import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import { MENU } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';

/** Stands in for a screen not built yet, and says so: it never pretends to work. */
export default function ComingSoonPage() {
  const { pathname } = useLocation();
  const entry = MENU.find((m) => m.path === pathname);
  return (
    <>
      <PageHeader title={entry?.label ?? 'Sección'} />
      <Alert color="gray" variant="light" title="Aún no disponible">
        Esta sección todavía no está habilitada en esta versión de Tramo.
      </Alert>
    </>
  );
}
