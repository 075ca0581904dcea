import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import { MENU } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';

/** What each screen still to come will do: its real title, and a sentence on its purpose. */
const UPCOMING: Record<string, { title: string; will: string }> = {
  '/pagos': {
    title: 'Pagos',
    will: 'Aquí se registrarán los pagos de los envíos (efectivo, tarjeta, transferencia) y se emitirán sus comprobantes.',
  },
};

/** Stands in for a screen not built yet, and says so: it never pretends to work. */
export default function ComingSoonPage() {
  const { pathname } = useLocation();
  const upcoming = UPCOMING[pathname];
  const title = upcoming?.title ?? MENU.find((m) => m.path === pathname)?.label ?? 'Sección';
  return (
    <>
      <PageHeader title={title} />
      <Alert color="gray" variant="light" title="Aún no disponible">
        {upcoming
          ? `${upcoming.will} Todavía no está habilitada en esta versión de Tramo.`
          : 'Esta sección todavía no está habilitada en esta versión de Tramo.'}
      </Alert>
    </>
  );
}
