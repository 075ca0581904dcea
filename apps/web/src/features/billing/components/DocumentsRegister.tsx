import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import {
  BILLING_MESSAGES,
  DOCUMENT_STATUS_LABELS,
  DOCUMENT_STATUSES,
  SHIPMENT_MESSAGES,
  SUNAT_DOCUMENT_LABELS,
  type DocumentDetail,
  type DocumentFilters,
  type InvoiceFormValues,
  dayText,
} from '@tramo/domain';
import { DateField } from '../../../components/ui/DateField.tsx';
import { keysetCursor, numberedPage, Pager } from '../../../components/ui/Pager.tsx';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { SearchInput } from '../../../components/ui/SearchInput.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { pageNumber, useUrlState } from '../../../lib/url-state.ts';
import { useDocuments } from '../api/documents.ts';
import { BillShipments } from './BillShipments.tsx';
import { DocumentDrawer } from './DocumentDrawer.tsx';
import { DocumentStatusBadge } from './DocumentStatusBadge.tsx';

const PAGE_SIZES = [10, 25, 50] as const;
// Past the numbered pages, `after`/`before` hold the cursor the register answered for 'Siguiente' or 'Anterior'.
const DEFAULTS = {
  type: '',
  series: '',
  from: '',
  to: '',
  customer: '',
  status: '',
  page: '1',
  size: '10',
  after: '',
  before: '',
  doc: '',
  facturar: '',
};
const FIRST_PAGE = { page: null, after: null, before: null };
const TYPE_FILTER = [
  { value: '03', label: 'Boletas' },
  { value: '01', label: 'Facturas' },
  { value: '07', label: 'Notas de crédito' },
];
const STATUS_FILTER = DOCUMENT_STATUSES.map((s) => ({ value: s, label: DOCUMENT_STATUS_LABELS[s] }));

/**
 * Tab 'Comprobantes': every issued document, filtered from the address (type, series, dates,
 * customer, status), paged, with the totals of the whole filtered set; a row opens the document.
 */
export function DocumentsRegister({
  onPrepare,
  onCreditNote,
}: {
  onPrepare(values: InvoiceFormValues): void;
  onCreditNote(doc: DocumentDetail): void;
}) {
  const [url, setUrl] = useUrlState(DEFAULTS, { replace: true });
  const [billing, setBilling] = useState(false);
  const pageSize = pageNumber(url.size, 10, PAGE_SIZES);
  const cursor = url.after ? { after: url.after } : url.before ? { before: url.before } : {};
  const at = { pageSize, ...cursor, page: numberedPage({ page: pageNumber(url.page, 1), pageSize, ...cursor }) };
  const badRange = url.from !== '' && url.to !== '' && url.from > url.to;
  const filters: DocumentFilters = {
    type: (url.type || undefined) as DocumentFilters['type'],
    series: url.series || undefined,
    dateFrom: url.from || undefined,
    dateTo: url.to || undefined,
    customer: url.customer || undefined,
    status: (url.status || undefined) as DocumentFilters['status'],
  };
  const list = useDocuments({ ...filters, ...at }, !badRange);
  const filter = (patch: Partial<typeof DEFAULTS>) => setUrl({ ...patch, ...FIRST_PAGE });
  const openId = pageNumber(url.doc, 0) || null;
  // ?facturar={customerId}: 'Facturar envíos' opened for that customer (from Cuentas por cobrar).
  const billFor = pageNumber(url.facturar, 0) || null;
  const sums = list.data?.sums;

  return (
    <>
      <Group justify="space-between" mb="sm" align="flex-end" wrap="wrap">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            size="xs"
            w={150}
            label="Tipo"
            placeholder="Todos"
            clearable
            data={TYPE_FILTER}
            value={url.type || null}
            onChange={(v) => filter({ type: v ?? '' })}
          />
          <TextInput
            size="xs"
            w={80}
            label="Serie"
            maxLength={4}
            value={url.series}
            onChange={(e) => filter({ series: e.currentTarget.value.toUpperCase().trim() })}
          />
          <DateField label="Desde" value={url.from} onChange={(d) => filter({ from: d ?? '' })} />
          <DateField label="Hasta" value={url.to} onChange={(d) => filter({ to: d ?? '' })} />
          <SearchInput
            size="xs"
            w={220}
            label="Cliente"
            aria-label="Cliente"
            autoFocus={false}
            placeholder="Nombre o documento"
            value={url.customer}
            onSearch={(q) => filter({ customer: q })}
          />
          <Select
            size="xs"
            w={180}
            label="Estado"
            placeholder="Todos"
            clearable
            data={STATUS_FILTER}
            value={url.status || null}
            onChange={(v) => filter({ status: v ?? '' })}
          />
          <Button
            size="xs"
            variant="subtle"
            onClick={() => setUrl({ type: null, series: null, from: null, to: null, customer: null, status: null, ...FIRST_PAGE })}
          >
            Limpiar
          </Button>
        </Group>
        <Button onClick={() => setBilling(true)}>Facturar envíos</Button>
      </Group>
      {badRange && (
        <Alert color="orange" variant="light" mb="sm" role="alert">
          {SHIPMENT_MESSAGES.invalidRange}
        </Alert>
      )}
      {list.isError && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {sums && (
        <SimpleGrid cols={{ base: 2, sm: 5 }} mb="sm" spacing="xs" aria-label="Totales del filtro">
          {(
            [
              ['Gravada', sums.gravada],
              ['Exonerada', sums.exonerada],
              ['Inafecta', sums.inafecta],
              ['IGV', sums.igv],
              ['Total', sums.total],
            ] as const
          ).map(([label, value]) => (
            <Paper withBorder p="xs" key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={label === 'Total' ? 700 : 500} ff="monospace">
                {formatMoney(value)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {list.data && list.data.sums === null && (
        <Text size="sm" c="dimmed" mb="sm">
          {BILLING_MESSAGES.totalsTooBroad}
        </Text>
      )}
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table highlightOnHover verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Número</Table.Th>
              <Table.Th>Tipo</Table.Th>
              <Table.Th>Fecha</Table.Th>
              <Table.Th>Cliente</Table.Th>
              <Table.Th visibleFrom="lg">Sucursal</Table.Th>
              <Table.Th ta="right">Total</Table.Th>
              <Table.Th>Estado</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending && !badRange ? (
              <TableSkeleton cols={7} />
            ) : (list.data?.items.length ?? 0) === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed" ta="center" py="md">
                    Sin resultados con los filtros actuales.
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              list.data?.items.map((d) => (
                <Table.Tr key={d.id} style={{ cursor: 'pointer' }} onClick={() => setUrl({ doc: String(d.id) })}>
                  <Table.Td>
                    <Text
                      component="a"
                      href={`?doc=${d.id}`}
                      ff="monospace"
                      size="sm"
                      c="blue.8"
                      onClick={(e) => {
                        e.preventDefault();
                        setUrl({ doc: String(d.id) });
                      }}
                    >
                      {d.fullNumber}
                    </Text>
                    {d.modifies && (
                      <Text size="xs" c="dimmed">
                        modifica {d.modifies}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{SUNAT_DOCUMENT_LABELS[d.type]}</Table.Td>
                  <Table.Td>{dayText(d.issueDate)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" className="user-text">
                      {d.customerName}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {d.customerDocNumber}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="lg">{d.branchName ?? '—'}</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatMoney(d.total)}
                  </Table.Td>
                  <Table.Td>
                    <DocumentStatusBadge status={d.status} />
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>
      <Pager
        page={at.page}
        pageSize={pageSize}
        total={list.data?.total ?? 0}
        totalCapped={list.data?.totalCapped}
        pageSizes={PAGE_SIZES}
        onPage={(p) => setUrl({ page: String(p), after: null, before: null })}
        onPageSize={(s) => setUrl({ size: String(s), ...FIRST_PAGE })}
        cursor={keysetCursor(at, list.data, (to) => setUrl({ page: String(to.page), after: to.after ?? null, before: to.before ?? null }))}
      />
      <DocumentDrawer
        id={openId}
        onClose={() => setUrl({ doc: null })}
        onCreditNote={(doc) => {
          setUrl({ doc: null });
          onCreditNote(doc);
        }}
      />
      <BillShipments
        opened={billing || billFor !== null}
        customerId={billFor}
        onClose={() => {
          setBilling(false);
          if (billFor !== null) setUrl({ facturar: null });
        }}
        onPrepare={onPrepare}
      />
    </>
  );
}
