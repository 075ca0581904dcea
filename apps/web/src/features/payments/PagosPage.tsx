import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { collectableAtCounter, type ManualPayment, type ManualPaymentResult } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { keysetCursor, numberedPage, Pager } from '../../components/ui/Pager.tsx';
import { errorMessage } from '../../lib/api.ts';
import { pageNumber, useUrlState } from '../../lib/url-state.ts';
import { PdfViewer, type PdfRequest } from '../billing/index.ts';
import {
  TODAY_PAYMENTS_PAGE_SIZE,
  useShipmentsDueAtDestination,
  useShipmentsToCollect,
  useTodayPayments,
  type CollectShipment,
} from './api/payments.ts';
import { announcePayment } from './components/announce-payment.ts';
import { CashSessionPanel } from './components/CashSessionPanel.tsx';
import { CollectTable } from './components/CollectTable.tsx';
import { DaySessions } from './components/DaySessions.tsx';
import { PaymentModal } from './components/PaymentModal.tsx';
import { PaymentsTable } from './components/PaymentsTable.tsx';

const TABS = ['cobros', 'caja', 'cierres'] as const;
type Tab = (typeof TABS)[number];

/**
 * /pagos: today's shipments to collect and today's payments (spec section 2), the collector's cash
 * session, and the day's closings. /pagos?shipmentId=… (the shipments list's 'Pagar') opens the
 * payment modal for that shipment.
 */
export default function PagosPage() {
  // page/after/before: where today's payments stand (past 200 of them, 'Siguiente' by cursor).
  const [url, setUrl] = useUrlState({ tab: 'cobros', shipmentId: '', page: '1', after: '', before: '' });
  const tab: Tab = (TABS as readonly string[]).includes(url.tab) ? (url.tab as Tab) : 'cobros';
  const toCollect = useShipmentsToCollect();
  const dueAtDestination = useShipmentsDueAtDestination();
  const cursor = url.after ? { after: url.after } : url.before ? { before: url.before } : {};
  const at = { ...cursor, page: numberedPage({ page: pageNumber(url.page, 1), pageSize: TODAY_PAYMENTS_PAGE_SIZE, ...cursor }) };
  const payments = useTodayPayments(at);
  const [manual, setManual] = useState(false);
  const [receipt, setReceipt] = useState<PdfRequest | null>(null);

  const rows = toCollect.data?.items ?? [];
  const destinationRows = dueAtDestination.data?.items ?? [];
  // What the counter may collect now: today's at origin, and pago en destino once it is here ('En agencia').
  const unpaid = [...rows, ...destinationRows].filter(
    (s) => !s.paid && s.paymentStatus !== 'pending' && collectableAtCounter({ ...s, paymentMoment: s.paymentMoment }, new Date()),
  );
  const linked = url.shipmentId ? ([...rows, ...destinationRows].find((s) => String(s.id) === url.shipmentId) ?? null) : null;
  const modalShipment: CollectShipment | null = linked;
  const modalOpen = manual || linked !== null;
  const closeModal = () => {
    setManual(false);
    if (url.shipmentId) setUrl({ shipmentId: null });
  };

  const paid = (result: ManualPaymentResult) => {
    closeModal();
    setReceipt(announcePayment(result));
  };
  const openReceipt = (p: ManualPayment, format: 'a4' | 'ticket') =>
    p.documentId && p.documentNumber && setReceipt({ id: p.documentId, format, name: p.documentNumber });

  // A 'Pagar' link to a shipment that is not among today's to collect says why instead of doing nothing.
  const missing = url.shipmentId !== '' && toCollect.isSuccess && linked === null;

  return (
    <>
      <PageHeader title="Pagos" description="Cobros del día en mostrador, con su boleta o factura">
        <Button variant="subtle" component={Link} to="/reports/movimientos">
          Movimientos
        </Button>
        <Button variant="subtle" component={Link} to="/cuentas-por-cobrar">
          Cuentas por cobrar
        </Button>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={toCollect.isFetching || payments.isFetching}
          onClick={() => void Promise.all([toCollect.refetch(), dueAtDestination.refetch(), payments.refetch()])}
        >
          Actualizar
        </Button>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setManual(true)}>
          Pago manual
        </Button>
      </PageHeader>
      <Tabs value={tab} onChange={(v) => v && setUrl({ tab: v })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="cobros">Cobros de hoy</Tabs.Tab>
          <Tabs.Tab value="caja">Mi caja</Tabs.Tab>
          <Tabs.Tab value="cierres">Cierres del día</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="cobros">
          <Stack gap="md">
            {missing && (
              <Alert color="orange" variant="light" role="alert" withCloseButton onClose={() => setUrl({ shipmentId: null })}>
                Ese envío no está entre los de hoy por cobrar (solo se cobran envíos en estado Creado, creados hoy).
              </Alert>
            )}
            {(toCollect.isError || payments.isError) && (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(toCollect.error ?? payments.error)}
              </Alert>
            )}
            <Title order={2} size="h4">
              Envíos por cobrar hoy
            </Title>
            <CollectTable rows={rows} loading={toCollect.isPending} onCollect={(s) => setUrl({ shipmentId: String(s.id) })} />
            <Title order={2} size="h4">
              Por cobrar en destino
            </Title>
            <CollectTable
              rows={destinationRows}
              loading={dueAtDestination.isPending}
              label="Por cobrar en destino"
              onCollect={(s) => setUrl({ shipmentId: String(s.id) })}
            />
            <Group justify="space-between">
              <Title order={2} size="h4">
                Pagos de hoy
              </Title>
            </Group>
            <PaymentsTable rows={payments.data?.items ?? []} loading={payments.isPending} onReceipt={openReceipt} />
            {/* One page holds an ordinary day; the pager shows only when there are more. */}
            {payments.data && (at.page > 1 || payments.data.next) && (
              <Pager
                page={at.page}
                pageSize={TODAY_PAYMENTS_PAGE_SIZE}
                total={payments.data.total}
                totalCapped={payments.data.totalCapped}
                pageSizes={[TODAY_PAYMENTS_PAGE_SIZE]}
                onPage={(p) => setUrl({ page: String(p), after: null, before: null })}
                onPageSize={() => undefined}
                cursor={keysetCursor({ ...at, pageSize: TODAY_PAYMENTS_PAGE_SIZE }, payments.data, (to) =>
                  setUrl({ page: String(to.page), after: to.after ?? null, before: to.before ?? null }),
                )}
              />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="caja">
          <CashSessionPanel />
        </Tabs.Panel>
        <Tabs.Panel value="cierres">
          <DaySessions />
        </Tabs.Panel>
      </Tabs>
      {modalOpen && <PaymentModal opened shipment={modalShipment} choices={unpaid} onClose={closeModal} onPaid={paid} />}
      <PdfViewer request={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}
