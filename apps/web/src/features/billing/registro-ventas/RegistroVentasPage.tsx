import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Table, Text } from '@mantine/core';
import {
  dayText,
  limaDay,
  PLE_STATE_LABELS,
  SALES_REGISTER_PAGE_SIZES,
  SALES_REGISTER_TYPE_LABELS,
  type SalesRegister,
  type SalesRegisterRow,
} from '@tramo/domain';
import { PageHeader } from '../../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { Pager } from '../../../components/ui/Pager.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/files.ts';
import { countOf, formatMoney } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { pageNumber, useUrlState } from '../../../lib/url-state.ts';
import { fetchSalesRegisterFile, useSalesRegister } from '../api/sales-register.ts';

const MONTH_NAMES = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'setiembre', 'octubre', 'noviembre', 'diciembre'];
const monthLabel = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** This month and the 23 before it, newest first (YYYY-MM). */
function recentMonths(today: string): string[] {
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  const months: string[] = [];
  for (let i = 0; i < 24; i++) {
    months.push(`${y}-${String(m).padStart(2, '0')}`);
    m -= 1;
    if (m === 0) {
      m = 12;
      y -= 1;
    }
  }
  return months;
}

/** Amounts without the currency (the header says S/): 1,234.50 with es-PE marks, negative in red. */
const AMOUNT = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (v: number) => (
  <Text span fz="xs" ff="monospace" c={v < 0 ? 'red.9' : undefined} style={{ whiteSpace: 'nowrap' }}>
    {AMOUNT.format(v)}
  </Text>
);
const nowrap = { whiteSpace: 'nowrap' } as const;

function Row({ r }: { r: SalesRegisterRow }) {
  const voided = r.state === '2';
  return (
    <Table.Tr c={voided ? 'dimmed' : undefined}>
      <Table.Td>{r.correlative}</Table.Td>
      <Table.Td style={nowrap}>{dayText(r.issueDate)}</Table.Td>
      <Table.Td style={nowrap} title={SALES_REGISTER_TYPE_LABELS[r.type]}>
        <Text span fz="xs" c="dimmed">
          {r.type}
        </Text>{' '}
        <Text span fz="xs" ff="monospace">
          {r.series}-{r.number}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text fz="xs" lineClamp={1} title={r.customerName}>
          {r.customerName}
        </Text>
        <Text fz={11} c="dimmed" style={nowrap}>
          {r.customerDocType ? `${r.customerDocType} · ${r.customerDocNumber}` : 'sin documento'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{money(r.base)}</Table.Td>
      <Table.Td ta="right">{money(r.igv)}</Table.Td>
      <Table.Td ta="right">{money(r.total)}</Table.Td>
      <Table.Td style={nowrap}>{PLE_STATE_LABELS[r.state]}</Table.Td>
      <Table.Td style={nowrap}>{r.dueDate ? dayText(r.dueDate) : '—'}</Table.Td>
      <Table.Td style={nowrap}>
        {r.modified ? (
          <>
            <Text span fz="xs" ff="monospace">
              {r.modified.type} {r.modified.series}-{r.modified.number}
            </Text>
            {r.modified.issueDate && (
              <Text fz={11} c="dimmed">
                {dayText(r.modified.issueDate)}
              </Text>
            )}
          </>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td ta="right">{r.detraction ? money(r.detraction.amount) : '—'}</Table.Td>
    </Table.Tr>
  );
}

function Register({ data, onPage, onPageSize }: { data: SalesRegister; onPage(page: number): void; onPageSize(size: number): void }) {
  const t = data.totals;
  const c = data.counters;
  return (
    <>
      <Alert color={data.reconciled ? 'teal' : 'red'} variant="light" mb="md" py="xs">
        {data.reconciled
          ? `Cuadra con el registro de comprobantes: ${countOf(t.count, 'documento')}, total ${formatMoney(t.total)}.`
          : `No cuadra con el registro de comprobantes: el registro cuenta ${countOf(c.count, 'documento')} por ${formatMoney(c.total)} y este libro ${countOf(t.count, 'documento')} por ${formatMoney(t.total)}.`}
      </Alert>
      <Paper withBorder>
        <Table.ScrollContainer minWidth={960}>
          <Table striped highlightOnHover verticalSpacing={4} horizontalSpacing={8} fz="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Correl.</Table.Th>
                <Table.Th>Emisión</Table.Th>
                <Table.Th>Comprobante</Table.Th>
                <Table.Th miw={150}>Cliente</Table.Th>
                <Table.Th ta="right">Base imp. (S/)</Table.Th>
                <Table.Th ta="right">IGV (S/)</Table.Th>
                <Table.Th ta="right">Total (S/)</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th>Vencimiento</Table.Th>
                <Table.Th>Doc. modificado</Table.Th>
                <Table.Th ta="right">Detracción</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={11}>
                    <Text c="dimmed" ta="center" py="md">
                      Sin registros.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                data.rows.map((r) => <Row key={r.id} r={r} />)
              )}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={700}>
                <Table.Td colSpan={4}>
                  Totales · {countOf(t.count, 'documento')}
                  {t.voided > 0 ? ` (${countOf(t.voided, 'anulado')})` : ''}
                </Table.Td>
                <Table.Td ta="right">{money(t.base)}</Table.Td>
                <Table.Td ta="right">{money(t.igv)}</Table.Td>
                <Table.Td ta="right">{money(t.total)}</Table.Td>
                <Table.Td colSpan={3}>PEN · T.C. 1.000</Table.Td>
                <Table.Td ta="right">{money(t.detraction)}</Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Pager
        page={data.page}
        pageSize={data.pageSize}
        total={t.count}
        pageSizes={SALES_REGISTER_PAGE_SIZES}
        onPage={onPage}
        onPageSize={onPageSize}
      />
      {(t.exonerada !== 0 || t.inafecta !== 0) && (
        <Text size="sm" c="dimmed" mt="xs">
          Exonerado {formatMoney(t.exonerada)} · Inafecto {formatMoney(t.inafecta)}
        </Text>
      )}
    </>
  );
}

/**
 * /billing/registro-ventas (admins, issue #32): the month's Registro de Ventas e Ingresos in SUNAT's
 * PLE 14.1 columns, its totals checked against the documents register, and its two exports: the
 * PLE text file the accountant uploads and a CSV for Excel.
 */
export default function RegistroVentasPage() {
  const months = recentMonths(limaDay(new Date()));
  const [url, setUrl] = useUrlState({ mes: months[0]!, page: '1', size: '100' }, { replace: true });
  const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(url.mes) ? url.mes : months[0]!;
  const pageSize = pageNumber(url.size, 100, SALES_REGISTER_PAGE_SIZES);
  const register = useSalesRegister(month, pageNumber(url.page, 1), pageSize);
  const [downloading, setDownloading] = useState<'txt' | 'csv' | null>(null);

  const download = (file: 'txt' | 'csv') => {
    setDownloading(file);
    fetchSalesRegisterFile(month, file)
      .then(
        (blob) => {
          saveBlob(
            blob,
            file === 'txt' ? (register.data?.pleFileName ?? `registro_ventas_${month}.txt`) : `registro_ventas_${month.replace('-', '')}.csv`,
          );
          notify.success(file === 'txt' ? 'Archivo PLE 14.1 descargado.' : 'CSV descargado.');
        },
        (err: unknown) => notify.error(err),
      )
      .finally(() => setDownloading(null));
  };

  const options = (months.includes(month) ? months : [month, ...months]).map((m) => ({ value: m, label: monthLabel(m) }));
  return (
    <>
      <PageHeader
        title="Registro de Ventas"
        description={`Registro de Ventas e Ingresos (PLE 14.1) de ${monthLabel(month)}: facturas, boletas y notas de crédito`}
      >
        <Select
          aria-label="Mes"
          data={options}
          value={month}
          onChange={(v) => v && setUrl({ mes: v, page: null })}
          allowDeselect={false}
          w={180}
          searchable
        />
        <Button variant="default" onClick={() => download('csv')} loading={downloading === 'csv'} disabled={!register.data}>
          Exportar CSV
        </Button>
        <Button onClick={() => download('txt')} loading={downloading === 'txt'} disabled={!register.data}>
          Descargar PLE 14.1
        </Button>
      </PageHeader>
      {register.isPending ? (
        <Paper withBorder>
          <PageSkeleton rows={8} />
        </Paper>
      ) : register.isError ? (
        <Alert color="red" variant="light">
          {errorMessage(register.error, 'No se pudo cargar el Registro de Ventas.')}
        </Alert>
      ) : (
        <>
          <Group gap="xs" mb="xs">
            <Text size="sm" c="dimmed">
              Periodo {register.data.period} · archivo {register.data.pleFileName}
            </Text>
          </Group>
          <Register
            data={register.data}
            onPage={(p) => setUrl({ page: String(p) })}
            onPageSize={(size) => setUrl({ size: String(size), page: null })}
          />
        </>
      )}
    </>
  );
}
