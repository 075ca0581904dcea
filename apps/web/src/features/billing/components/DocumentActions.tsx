import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import {
  BILLING_MESSAGES,
  DOCUMENT_STATUS_LABELS,
  VOID_SUMMARY_LABELS,
  voidWordsFor,
  type DocumentStatus,
  type SunatDocumentType,
  type VoidSummaryInfo,
} from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { useConsultDocument, useVoidStatus } from '../api/documents.ts';
import { saveBlob } from '../../../lib/files.ts';
import { fetchDocumentFile } from '../api/open-file.ts';
import { PdfViewer, type PdfRequest } from './PdfViewer.tsx';
import { VoidModal, type VoidTarget } from './VoidModal.tsx';

export interface ActionableDocument {
  id: number;
  type: SunatDocumentType;
  /** 'FFF1-00000012' */
  name: string;
  status: DocumentStatus;
  /** A live payment's receipt: voided with its payment from Pagos, so no 'Anular' of its own. */
  ofLivePayment?: boolean;
  /** The comunicación de baja or resumen diario that voided it, when its XML is kept. */
  voidSummary?: VoidSummaryInfo | null;
}

/**
 * What can be done with an issued document: its PDF (A4 or 80 mm ticket), its signed XML, a new
 * consult to the provider, the void (aceptado only, and never a live payment's receipt: its void goes
 * through the payment) and the void's status, and — for a factura or boleta — a credit note.
 */
export function DocumentActions({ doc, onCreditNote, size = 'xs' }: { doc: ActionableDocument; onCreditNote?(): void; size?: 'xs' | 'sm' }) {
  const [pdf, setPdf] = useState<PdfRequest | null>(null);
  const [voiding, setVoiding] = useState<VoidTarget | null>(null);
  const consult = useConsultDocument();
  const voidStatus = useVoidStatus();

  const downloadXml = () =>
    fetchDocumentFile(doc.id, 'xml').then(
      (blob) => saveBlob(blob, `${doc.name}.xml`),
      (err: unknown) => notify.error(err),
    );
  const summary = doc.voidSummary;
  const downloadVoidXml = (id: string) =>
    fetchDocumentFile(doc.id, 'void-xml').then(
      (blob) => saveBlob(blob, `${id}.xml`),
      (err: unknown) => notify.error(err),
    );

  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Button size={size} variant="light" onClick={() => setPdf({ id: doc.id, format: 'a4', name: doc.name })}>
          Ver PDF
        </Button>
        <Button size={size} variant="light" onClick={() => setPdf({ id: doc.id, format: 'ticket', name: doc.name })}>
          Ticket 80 mm
        </Button>
        <Button size={size} variant="default" onClick={downloadXml}>
          XML
        </Button>
        {summary && (
          <Button size={size} variant="default" onClick={() => void downloadVoidXml(summary.id)} title={`${summary.id}: XML firmado`}>
            {VOID_SUMMARY_LABELS[summary.kind]} (XML)
          </Button>
        )}
        <Button
          size={size}
          variant="default"
          loading={consult.isPending}
          onClick={() =>
            consult.mutate(doc.id, {
              onSuccess: (d) => notify.info(`${doc.name}: ${DOCUMENT_STATUS_LABELS[d.status]}.`),
              onError: (err) => notify.error(err),
            })
          }
        >
          Consultar
        </Button>
        {doc.status === 'aceptado' && doc.ofLivePayment && (
          <Text size="sm" c="dimmed">
            {BILLING_MESSAGES.voidThroughPayment}
          </Text>
        )}
        {doc.status === 'aceptado' && !doc.ofLivePayment && (
          <Button size={size} variant="light" color="red" onClick={() => setVoiding({ id: doc.id, name: doc.name, type: doc.type })}>
            {voidWordsFor(doc.type).action}
          </Button>
        )}
        {(doc.status === 'anulación pendiente' || doc.status === 'anulado') && (
          <Button
            size={size}
            variant="default"
            loading={voidStatus.isPending}
            onClick={() =>
              voidStatus.mutate(doc.id, {
                onSuccess: (s) =>
                  notify.info(`Estado de anulación de ${doc.name}: ${DOCUMENT_STATUS_LABELS[s.status]}${s.message ? ` — ${s.message}` : ''}.`),
                onError: (err) => notify.error(err),
              })
            }
          >
            Estado de anulación
          </Button>
        )}
        {onCreditNote && (doc.type === '01' || doc.type === '03') && doc.status === 'aceptado' && (
          <Button size={size} variant="subtle" onClick={onCreditNote}>
            Emitir nota de crédito
          </Button>
        )}
      </Group>
      <PdfViewer request={pdf} onClose={() => setPdf(null)} />
      <VoidModal target={voiding} onClose={() => setVoiding(null)} />
    </>
  );
}
