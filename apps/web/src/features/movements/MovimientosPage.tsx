import { Alert, Button, Group, Paper, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  invalidRange,
  MOVEMENT_FILTER_METHODS,
  MOVEMENT_PAGE_SIZES,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type MovementFilters,
  canManageArea,
} from '@tramo/domain';
import { DateField } from '../../components/ui/DateField.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { keysetCursor, numberedPage, Pager } from '../../components/ui/Pager.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { pageNumber, useUrlState } from '../../lib/url-state.ts';
import { BranchSelect } from '../branches/index.ts';
import { useMovements } from './api/movements.ts';
import { CsvExport } from './components/CsvExport.tsx';
import { MovementTotals } from './components/MovementTotals.tsx';
import { MovementsTable } from './components/MovementsTable.tsx';

/** Spec section 9: filter changes reload after 400 ms, from page 1. */
const FILTER_DEBOUNCE_MS = 400;
// Past the numbered pages, `after`/`before` hold the cursor the list answered for 'Siguiente' or 'Anterior'.
const DEFAULTS = {
  dateFrom: '',
  dateTo: '',
  branchId: '',
  soldBranchId: '',
  userId: '',
  method: '',
  status: '',
  page: '1',
  size: '20',
  after: '',
  before: '',
};
const FIRST_PAGE = { page: null, after: null, before: null };
const FILTER_KEYS = ['dateFrom', 'dateTo', 'branchId', 'soldBranchId', 'userId', 'method', 'status'] as const;
const METHOD_FILTER = MOVEMENT_FILTER_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_NAMES[m] }));
const STATUS_FILTER = PAYMENT_STATUSES.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }));
const ERROR_TITLE = 'Error al cargar movimientos';

/**
 * /reports/movimientos: every payment movement, filtered from the address (days, branch that
 * collected, branch that sold, user, method, status), paged, with the totals of the whole filtered set and its CSV. An admin sees any
 * branch or all; anyone else is held to their own branch, shown read-only.
 */
export default function MovimientosPage() {
  const user = useCurrentUser();
  const [url, setUrl] = useUrlState(DEFAULTS, { replace: true });
  const anyBranch = canManageArea(user, 'allBranches');
  const ownBranch = user.branchId === null ? '' : String(user.branchId);
  const branchId = anyBranch ? url.branchId : ownBranch;
  const pageSize = pageNumber(url.size, 20, MOVEMENT_PAGE_SIZES);
  const cursor = url.after ? { after: url.after } : url.before ? { before: url.before } : {};
  const at = { pageSize, ...cursor, page: numberedPage({ page: pageNumber(url.page, 1), pageSize, ...cursor }) };
  const badRange = invalidRange(url.dateFrom, url.dateTo);

  const filters: MovementFilters = {
    dateFrom: url.dateFrom || undefined,
    dateTo: url.dateTo || undefined,
    branchId: branchId ? Number(branchId) : undefined,
    soldBranchId: url.soldBranchId ? Number(url.soldBranchId) : undefined,
    userId: url.userId ? Number(url.userId) : undefined,
    method: (url.method || undefined) as MovementFilters['method'],
    status: (url.status || undefined) as MovementFilters['status'],
  };
  // The query follows the filters once they settle (typing a user id or a date reloads once).
  const [settledKey] = useDebouncedValue(JSON.stringify(filters), FILTER_DEBOUNCE_MS);
  const settled = JSON.parse(settledKey) as MovementFilters;
  const list = useMovements({ ...settled, ...at }, !badRange && !invalidRange(settled.dateFrom, settled.dateTo));
  const filter = (patch: Partial<Record<(typeof FILTER_KEYS)[number], string>>) => setUrl({ ...patch, ...FIRST_PAGE });
  const hasFilters = FILTER_KEYS.some((k) => url[k] !== '');
  const data = badRange ? undefined : list.data;

  return (
    <>
      <PageHeader title="Movimientos" description={data ? countOf(data.total, 'movimiento') : 'Pagos por día, sucursal, usuario, método y estado'}>
        <Button component={Link} to="/" variant="default" leftSection={<IconArrowLeft size={16} />}>
          Volver al Panel
        </Button>
        <CsvExport filters={filters} disabled={badRange} />
      </PageHeader>

      <Group gap="xs" mb="sm" align="flex-end" wrap="wrap">
        <DateField label="Desde" value={url.dateFrom} onChange={(d) => filter({ dateFrom: d ?? '' })} />
        <DateField label="Hasta" value={url.dateTo} onChange={(d) => filter({ dateTo: d ?? '' })} />
        <BranchSelect
          size="xs"
          w={130}
          label="Sucursal"
          placeholder={anyBranch ? 'Todas' : 'Sin sucursal'}
          clearable={anyBranch}
          readOnly={!anyBranch}
          variant={anyBranch ? 'default' : 'filled'}
          rightSection={anyBranch ? undefined : <span />}
          value={branchId}
          onChange={(v) => anyBranch && filter({ branchId: v ?? '' })}
        />
        {/* Issue 33: pago en destino is collected by another branch than the one that sold it. */}
        <BranchSelect
          size="xs"
          w={140}
          label="Sucursal de venta"
          placeholder="Todas"
          clearable
          value={url.soldBranchId}
          onChange={(v) => filter({ soldBranchId: v ?? '' })}
        />
        <TextInput
          size="xs"
          w={90}
          label="ID usuario"
          inputMode="numeric"
          maxLength={9}
          value={url.userId}
          onChange={(e) => filter({ userId: e.currentTarget.value.replace(/\D/g, '') })}
        />
        <Select
          size="xs"
          w={160}
          label="Método"
          placeholder="Todos"
          clearable
          data={METHOD_FILTER}
          value={url.method || null}
          onChange={(v) => filter({ method: v ?? '' })}
        />
        <Select
          size="xs"
          w={120}
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
          disabled={!hasFilters}
          // Non-admins keep their branch: it is not in the address, so clearing leaves it as it is.
          onClick={() => setUrl({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), ...FIRST_PAGE })}
        >
          Limpiar
        </Button>
      </Group>

      {badRange && (
        <Alert color="orange" variant="light" mb="sm" role="alert">
          {PAYMENT_MESSAGES.dateRange}
        </Alert>
      )}
      {list.isError && !badRange && (
        <Alert color="red" variant="light" mb="sm" role="alert" title={ERROR_TITLE}>
          {errorMessage(list.error, ERROR_TITLE)}
        </Alert>
      )}
      {data && <MovementTotals totals={data.totals} />}
      {/* 17 columns scroll sideways: the region takes keyboard focus so arrows can scroll it. */}
      <Paper withBorder style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Tabla de movimientos">
        <MovementsTable rows={data?.items ?? null} loading={list.isPending && !badRange && !list.isError} dimmed={list.isPlaceholderData} />
      </Paper>
      <Pager
        page={at.page}
        pageSize={pageSize}
        total={data?.total ?? 0}
        totalCapped={data?.totalCapped}
        pageSizes={MOVEMENT_PAGE_SIZES}
        onPage={(p) => setUrl({ page: String(p), after: null, before: null })}
        onPageSize={(s) => setUrl({ size: String(s), ...FIRST_PAGE })}
        cursor={keysetCursor(at, data, (to) => setUrl({ page: String(to.page), after: to.after ?? null, before: to.before ?? null }))}
      />
    </>
  );
}
