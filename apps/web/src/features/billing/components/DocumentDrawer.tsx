import { useEffect, useState } from 'react';
import { Accordion, Alert, Code, Drawer, Group, Image, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import QRCode from 'qrcode';
import {
  BILLING_DOC_TYPE_SHORT,
  CREDIT_NOTE_REASON_LABELS,
  isBillingDocType,
  isCreditNoteReason,
  PAYMENT_FORM_LABELS,
  SUNAT_DOCUMENT_LABELS,
  VOID_SUMMARY_LABELS,
  type DocumentDetail,
  dayText,
} from '@tramo/domain';
import { PageSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import { useDocument } from '../api/documents.ts';
import { DocumentActions } from './DocumentActions.tsx';
import { DocumentStatusBadge } from './DocumentStatusBadge.tsx';

function QrImage({ text }: { text: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(text, { margin: 1, width: 140 }).then(
      (url) => live && setSrc(url),
      () => live && setSrc(null),
    );
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <Image src={src} alt="Código QR de SUNAT" w={140} h={140} /> : null;
}

function Amount({ label, value }: { label: string; value: number }) {
  return (
    <Group justify="space-between" gap="xl">
      <Text size="sm">{label}</Text>
      <Text size="sm" ff="monospace">
        {formatMoney(value)}
      </Text>
    </Group>
  );
}

function Body({ doc, onCreditNote }: { doc: DocumentDetail; onCreditNote(doc: DocumentDetail): void }) {
  const docType = Number(doc.customerDocType);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {SUNAT_DOCUMENT_LABELS[doc.type]}
            {doc.contingency ? ' · contingencia' : ''}
          </Text>
          <Group gap="sm">
            <Title order={2} size="h3" ff="monospace">
              {doc.fullNumber}
            </Title>
            <DocumentStatusBadge status={doc.status} />
          </Group>
          <Text size="sm">
            Emitido el {dayText(doc.issueDate)} por {doc.issuedByName}
            {doc.branchName ? ` · ${doc.branchName}` : ''}
          </Text>
        </Stack>
        <QrImage text={doc.qrText} />
      </Group>
      <DocumentActions
        doc={{ id: doc.id, type: doc.type, name: doc.fullNumber, status: doc.status, ofLivePayment: doc.ofLivePayment, voidSummary: doc.voidSummary }}
        onCreditNote={() => onCreditNote(doc)}
      />
      {doc.voidReason && (
        <Alert color="gray" variant="light">
          Motivo de anulación: {doc.voidReason}
          {doc.voidSummary &&
            ` · ${VOID_SUMMARY_LABELS[doc.voidSummary.kind]} ${doc.voidSummary.id}${doc.voidSummary.ticket ? ` (ticket ${doc.voidSummary.ticket})` : ''}`}
        </Alert>
      )}
      <SimpleGrid cols={2} spacing="sm">
        <div>
          <Text size="xs" c="dimmed">
            Cliente
          </Text>
          <Text size="sm" fw={600}>
            {doc.customerName}
          </Text>
          <Text size="sm">
            {isBillingDocType(docType) ? BILLING_DOC_TYPE_SHORT[docType] : doc.customerDocType} {doc.customerDocNumber}
          </Text>
          {doc.customerAddress && <Text size="sm">{doc.customerAddress}</Text>}
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Forma de pago
          </Text>
          <Text size="sm">{PAYMENT_FORM_LABELS[doc.paymentForm]}</Text>
          {doc.instalments.map((c) => (
            <Text size="sm" key={c.number}>
              Cuota {c.number}: {formatMoney(c.amount)} al {dayText(c.dueDate)}
            </Text>
          ))}
          {doc.modifies && doc.creditNote && (
            <Text size="sm">
              Modifica {doc.modifies} ·{' '}
              {isCreditNoteReason(doc.creditNote.reason) ? CREDIT_NOTE_REASON_LABELS[doc.creditNote.reason] : doc.creditNote.reason}
            </Text>
          )}
          {doc.shipmentCodes.length > 0 && <Text size="sm">Envíos: {doc.shipmentCodes.join(', ')}</Text>}
        </div>
      </SimpleGrid>
      <div style={{ overflowX: 'auto' }}>
        <Table withTableBorder verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Descripción</Table.Th>
              <Table.Th>Unidad</Table.Th>
              <Table.Th ta="right">Cantidad</Table.Th>
              <Table.Th ta="right">Valor unitario</Table.Th>
              <Table.Th ta="right">IGV</Table.Th>
              <Table.Th ta="right">Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {doc.lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td className="user-text">{l.description}</Table.Td>
                <Table.Td>{l.unit}</Table.Td>
                <Table.Td ta="right">{l.quantity}</Table.Td>
                <Table.Td ta="right">{l.unitValue}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.igv)}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.total)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Text size="sm" fs="italic">
            {doc.amountInWords}
          </Text>
          {doc.detraction && (
            <Text size="sm">
              Detracción {doc.detraction.code} ({doc.detraction.percent} %): {formatMoney(doc.detraction.amount)} · Cta. {doc.detraction.bankAccount}
            </Text>
          )}
          {doc.guides.map((g) => (
            <Text size="sm" key={`${g.series}-${g.number}`}>
              Guía {g.type === 1 ? 'remitente' : 'transportista'} {g.series}-{g.number}
            </Text>
          ))}
        </Stack>
        <Stack gap={2} miw={240}>
          <Amount label="Op. gravada" value={doc.totals.gravada} />
          <Amount label="Op. exonerada" value={doc.totals.exonerada} />
          <Amount label="Op. inafecta" value={doc.totals.inafecta} />
          <Amount label="IGV 18 %" value={doc.totals.igv} />
          <Group justify="space-between">
            <Text fw={700}>Total</Text>
            <Text fw={700} ff="monospace">
              {formatMoney(doc.totals.total)}
            </Text>
          </Group>
        </Stack>
      </Group>
      <div>
        <Title order={2} size="h5" mb="xs">
          Historial
        </Title>
        <Timeline bulletSize={12} lineWidth={2} active={doc.history.length}>
          {doc.history.map((h, i) => (
            <Timeline.Item key={i} title={h.kind}>
              <Text size="xs" c="dimmed">
                {formatDateTime(h.at)}
                {h.userName ? ` · ${h.userName}` : ''}
              </Text>
              {h.note && <Text size="sm">{h.note}</Text>}
            </Timeline.Item>
          ))}
        </Timeline>
      </div>
      <Accordion variant="contained">
        <Accordion.Item value="provider">
          <Accordion.Control>Respuestas del proveedor ({doc.providerExchanges.length})</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              {doc.providerExchanges.map((x, i) => (
                <div key={i}>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(x.at)} · {x.operation}
                  </Text>
                  <Code block style={{ maxHeight: 200, overflow: 'auto' }}>
                    {JSON.stringify(x.answer, null, 2)}
                  </Code>
                </div>
              ))}
              {doc.hash && (
                <Text size="xs" c="dimmed">
                  Hash: {doc.hash}
                </Text>
              )}
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}

/** An opened document: lines, totals, QR, provider answers and history, with its actions. */
export function DocumentDrawer({ id, onClose, onCreditNote }: { id: number | null; onClose(): void; onCreditNote(doc: DocumentDetail): void }) {
  const doc = useDocument(id);
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="xl" title="Comprobante" closeButtonProps={{ 'aria-label': 'Cerrar' }}>
      {doc.isPending && <PageSkeleton />}
      {doc.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(doc.error)}
        </Alert>
      )}
      {doc.data && <Body doc={doc.data} onCreditNote={onCreditNote} />}
    </Drawer>
  );
}
