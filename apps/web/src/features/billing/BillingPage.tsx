import { useState } from 'react';
import { Alert, Button, Tabs } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { creditNoteFrom, emptyInvoiceForm, limaDay, type DocumentDetail, type InvoiceFormValues } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { useUrlState } from '../../lib/url-state.ts';
import { DocumentsRegister } from './components/DocumentsRegister.tsx';
import { InvoiceForm } from './components/InvoiceForm.tsx';

const TABS = ['factura', 'comprobantes', 'guia', 'retencion', 'percepcion'] as const;
type Tab = (typeof TABS)[number];

/** Tabs the next billing issue fills (guides and vouchers): they say so instead of pretending. */
function NotYet({ what }: { what: string }) {
  return (
    <Alert color="gray" variant="light" title="Aún no disponible">
      La emisión de {what} todavía no está habilitada en esta versión de Tramo.
    </Alert>
  );
}

/**
 * /billing/preview: issue a factura, boleta or credit note; the register of every issued document;
 * and (coming) guides, retention and perception. The tab lives in the address.
 */
export default function BillingPage() {
  const navigate = useNavigate();
  const [url, setUrl] = useUrlState({ tab: 'factura' });
  const tab: Tab = (TABS as readonly string[]).includes(url.tab) ? (url.tab as Tab) : 'factura';
  // A pre-filled form (billing shipments, a credit note) remounts the form with its values.
  const [draft, setDraft] = useState<{ key: number; values: InvoiceFormValues }>(() => ({ key: 0, values: emptyInvoiceForm(limaDay(new Date())) }));

  const openForm = (values: InvoiceFormValues) => {
    setDraft((d) => ({ key: d.key + 1, values }));
    setUrl({ tab: 'factura' });
  };
  const creditNote = (doc: DocumentDetail) => {
    const values = creditNoteFrom(doc, limaDay(new Date()));
    if (values) openForm(values);
  };
  const creditNoteOf = (id: number) => api.get<DocumentDetail>(`/billing/lookup/${id}`).then(creditNote, (err: unknown) => notify.error(err));

  return (
    <>
      <PageHeader title="Facturación" description="Comprobantes electrónicos SUNAT: boletas, facturas y notas de crédito">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/'))}
        >
          Volver
        </Button>
      </PageHeader>
      <Tabs value={tab} onChange={(v) => v && setUrl({ tab: v })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="factura">Factura / Boleta</Tabs.Tab>
          <Tabs.Tab value="comprobantes">Comprobantes</Tabs.Tab>
          <Tabs.Tab value="guia">Guía de remisión</Tabs.Tab>
          <Tabs.Tab value="retencion">Retención</Tabs.Tab>
          <Tabs.Tab value="percepcion">Percepción</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="factura">
          <InvoiceForm key={draft.key} initial={draft.values} onCreditNote={creditNoteOf} />
        </Tabs.Panel>
        <Tabs.Panel value="comprobantes">
          <DocumentsRegister onPrepare={openForm} onCreditNote={creditNote} />
        </Tabs.Panel>
        <Tabs.Panel value="guia">
          <NotYet what="guías de remisión (remitente y transportista)" />
        </Tabs.Panel>
        <Tabs.Panel value="retencion">
          <NotYet what="comprobantes de retención" />
        </Tabs.Panel>
        <Tabs.Panel value="percepcion">
          <NotYet what="comprobantes de percepción" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
