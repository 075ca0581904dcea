import { useState } from 'react';
import { Button, Tabs } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { creditNoteFrom, emptyInvoiceForm, limaDay, type DocumentDetail, type InvoiceFormValues } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { pageNumber, useUrlState } from '../../lib/url-state.ts';
import { DocumentsRegister } from './components/DocumentsRegister.tsx';
import { InvoiceForm } from './components/InvoiceForm.tsx';
import { GuideTab } from './components/guide/GuideTab.tsx';
import { VoucherForm } from './components/voucher/VoucherForm.tsx';

const TABS = ['factura', 'comprobantes', 'guia', 'retencion', 'percepcion'] as const;
type Tab = (typeof TABS)[number];

/**
 * /billing/preview: issue a factura, boleta or credit note; the register of every issued document;
 * dispatch guides; retention and perception vouchers. The tab lives in the address.
 */
export default function BillingPage() {
  const navigate = useNavigate();
  const [url, setUrl] = useUrlState({ tab: 'factura', transportId: '' });
  const transportId = pageNumber(url.transportId, 0) || null;
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
          <GuideTab transportId={transportId} />
        </Tabs.Panel>
        <Tabs.Panel value="retencion">
          <VoucherForm kind="retencion" />
        </Tabs.Panel>
        <Tabs.Panel value="percepcion">
          <VoucherForm kind="percepcion" />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
