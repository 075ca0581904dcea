import { useState } from 'react';
import { ActionIcon, Alert, Badge, Box, Button, Group, Paper, Tooltip } from '@mantine/core';
import { IconBan, IconCash, IconEye, IconPencil, IconPrinter, IconTruck, IconTruckLoading } from '@tabler/icons-react';
import { Link } from 'react-router';
import { canManageArea, collectableAtCounter, SHIPMENT_MESSAGES, SHIPMENT_PAGE_SIZES, SHIPMENT_SEARCH_MIN_LENGTH } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { keysetCursor, Pager } from '../../components/ui/Pager.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countOf } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useUrlState } from '../../lib/url-state.ts';
import { AssignTransportModal, useLoadedPlates } from '../../features/fleet/index.ts';
import {
  BranchFilter,
  DateRangeFilter,
  FILTER_KEYS,
  FilterSelect,
  isRangeInvalid,
  LabelModal,
  LIST_URL_DEFAULTS,
  listParamsFrom,
  ShipmentsTable,
  StatusFilter,
  useCancelAction,
  useShipments,
  type FilterKey,
  type Shipment,
  type ShipmentColumn,
} from '../../features/shipments/index.ts';

/** Back to the first page (a filter or the page size changed). */
const FIRST_PAGE = { page: null, after: null, before: null };

/** Search waits for a 1 s pause here (spec section 9): the list is the heaviest query. */
const SEARCH_DEBOUNCE_MS = 1000;
/** Spec section 2: the list's columns include the recipient document. */
const LIST_COLUMNS: ShipmentColumn[] = [
  'code',
  'createdAt',
  'origin',
  'destination',
  'sender',
  'recipient',
  'recipientDoc',
  'weight',
  'price',
  'status',
];

const activeOptions = [
  { value: 'true', label: 'En curso' },
  { value: 'false', label: 'Cerrados' },
];

interface RowActionsProps {
  shipment: Shipment;
  onPrint(): void;
  onCancel(): void;
  /** Absent for couriers: loading onto transports is admin and agent work. */
  onAssign?(): void;
  /** Payments are admin and agent work (DESIGN.md section 4). */
  canPay: boolean;
  /** The plate of the transport it is loaded on: it cannot be cancelled or assigned again. */
  loadedPlate?: string;
}

function RowActions({ shipment, onPrint, onCancel, onAssign, canPay, loadedPlate }: RowActionsProps) {
  const isCreated = shipment.status === 'Creado';
  const free = isCreated && !loadedPlate;
  // The counter collects today's shipments only (spec section 4): an older one is billed instead.
  const payable = collectableAtCounter(shipment, new Date());
  return (
    <Group gap={2} justify="flex-start" wrap="nowrap">
      <Tooltip label="Ver">
        <ActionIcon size="sm" component={Link} to={`/shipments/${shipment.id}`} variant="subtle" aria-label={`Ver ${shipment.code}`}>
          <IconEye size={16} />
        </ActionIcon>
      </Tooltip>
      {shipment.canEdit && (
        <Tooltip label="Editar">
          <ActionIcon size="sm" component={Link} to={`/shipments/new?edit=${shipment.id}`} variant="subtle" aria-label={`Editar ${shipment.code}`}>
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label="Imprimir etiqueta">
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Imprimir etiqueta ${shipment.code}`} onClick={onPrint}>
          <IconPrinter size={16} />
        </ActionIcon>
      </Tooltip>
      {loadedPlate && (
        <Tooltip label={`Cargado en ${loadedPlate}: quítalo en Transportistas para anularlo`}>
          {/* On a 1024 px tablet the plate gives way to a truck (the tooltip names it) so the row's actions still fit. */}
          <Badge size="sm" variant="light" color="indigo" tt="none" ff="monospace" style={{ flexShrink: 0 }} aria-label={`Cargado en ${loadedPlate}`}>
            <Box component="span" visibleFrom="lg">
              {loadedPlate}
            </Box>
            <Box component="span" hiddenFrom="lg" display="flex">
              <IconTruck size={12} />
            </Box>
          </Badge>
        </Tooltip>
      )}
      {free && onAssign && (
        <Tooltip label="Asignar a transporte">
          <ActionIcon size="sm" variant="subtle" color="indigo" aria-label={`Asignar ${shipment.code} a transporte`} onClick={onAssign}>
            <IconTruckLoading size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {payable && canPay && (
        <Tooltip label="Pagar">
          <ActionIcon
            size="sm"
            component={Link}
            to={`/pagos?shipmentId=${shipment.id}`}
            variant="subtle"
            color="teal"
            aria-label={`Pagar ${shipment.code}`}
          >
            <IconCash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {free && shipment.canManage && (
        <Tooltip label="Anular">
          <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Anular ${shipment.code}`} onClick={onCancel}>
            <IconBan size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

/** /shipments. Composed here, not in the shipments feature: its row actions load a shipment onto the fleet's transports, and fleet reads shipments. */
export default function ShipmentsPage() {
  const user = useCurrentUser();
  const [url, setUrl] = useUrlState(LIST_URL_DEFAULTS);
  const params = listParamsFrom(url);
  const rangeInvalid = isRangeInvalid(params);
  const shipments = useShipments(params, !rangeInvalid);
  const cancel = useCancelAction();
  const [printing, setPrinting] = useState<Shipment | null>(null);
  const [assigning, setAssigning] = useState<Shipment | null>(null);

  /** A filter change goes back to page 1. */
  const setFilter = (key: FilterKey, value: string | null) => setUrl({ [key]: value, ...FIRST_PAGE });
  const hasFilters = FILTER_KEYS.some((k) => url[k] !== '');
  const data = shipments.data;
  const loadedPlates = useLoadedPlates(rangeInvalid ? [] : (data?.items ?? []).filter((s) => s.status === 'Creado').map((s) => s.id));

  return (
    <>
      <PageHeader
        title="Envíos"
        // While the count loads the line stays (blank), so the page does not jump when it arrives.
        description={rangeInvalid ? undefined : data ? `${data.totalCapped ? 'Más de ' : ''}${countOf(data.total, 'envío')}` : '\u00a0'}
      >
        <SearchInput
          value={params.q ?? ''}
          onSearch={(v) => setFilter('q', v.trim() || null)}
          debounceMs={SEARCH_DEBOUNCE_MS}
          minLength={SHIPMENT_SEARCH_MIN_LENGTH}
          tooShortMessage={SHIPMENT_MESSAGES.searchTermTooShort}
          placeholder="Código, DNI/RUC o nombre"
          aria-label="Buscar envíos"
          w={260}
        />
        {canManageArea(user, 'newShipment') && (
          <Button component={Link} to="/shipments/new">
            Nuevo envío
          </Button>
        )}
      </PageHeader>

      <Group gap="xs" mb="sm" align="flex-end" wrap="wrap">
        <StatusFilter value={params.status} onChange={(v) => setFilter('status', v)} />
        <FilterSelect
          label="Vigencia"
          placeholder="Todos"
          w={120}
          data={activeOptions}
          value={params.active}
          onChange={(v) => setFilter('active', v)}
        />
        <DateRangeFilter from={params.dateFrom} to={params.dateTo} onChange={setFilter} />
        <BranchFilter label="Origen" value={params.originBranchId} onChange={(v) => setFilter('originBranchId', v)} />
        <BranchFilter label="Destino" value={params.destinationBranchId} onChange={(v) => setFilter('destinationBranchId', v)} />
        {params.incidencia === 'abierta' && (
          <Button
            variant="light"
            color="red"
            size="xs"
            onClick={() => setFilter('incidencia', null)}
            aria-label="Quitar filtro: con incidencia abierta"
          >
            Con incidencia abierta ✕
          </Button>
        )}
        <Button
          variant="subtle"
          size="xs"
          disabled={!hasFilters}
          // The page size is a preference, not a filter: it stays.
          onClick={() => setUrl({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), ...FIRST_PAGE })}
        >
          Limpiar filtros
        </Button>
      </Group>

      {rangeInvalid && (
        <Alert color="yellow" variant="light" role="alert" mb="sm">
          {SHIPMENT_MESSAGES.invalidRange}
        </Alert>
      )}
      {shipments.isError && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {errorMessage(shipments.error)}
        </Alert>
      )}

      <Paper withBorder style={{ overflowX: 'auto' }}>
        <ShipmentsTable
          rows={rangeInvalid ? null : (data?.items ?? [])}
          loading={shipments.isPending}
          skeletonRows={Math.min(params.pageSize, 10)}
          columns={LIST_COLUMNS}
          wideOnly={['createdAt', 'sender', 'weight']}
          linkCode
          nameWidth={92}
          horizontalSpacing={3}
          style={{ opacity: shipments.isPlaceholderData ? 0.6 : 1 }}
          actionWidth={150}
          action={(s) => (
            <RowActions
              shipment={s}
              onPrint={() => setPrinting(s)}
              onCancel={() => void cancel.run(s)}
              onAssign={canManageArea(user, 'fleet') ? () => setAssigning(s) : undefined}
              canPay={canManageArea(user, 'payments')}
              loadedPlate={loadedPlates.get(s.id)}
            />
          )}
        />
      </Paper>
      {!rangeInvalid && (
        <Pager
          page={params.page}
          pageSize={params.pageSize}
          total={data?.total ?? 0}
          totalCapped={data?.totalCapped}
          pageSizes={SHIPMENT_PAGE_SIZES}
          onPage={(p) => setUrl({ page: String(p), after: null, before: null })}
          onPageSize={(size) => setUrl({ ...FIRST_PAGE, pageSize: String(size) })}
          cursor={keysetCursor(params, data, (to) => setUrl({ page: String(to.page), after: to.after ?? null, before: to.before ?? null }))}
        />
      )}
      <LabelModal shipment={printing} onClose={() => setPrinting(null)} />
      <AssignTransportModal shipment={assigning} onClose={() => setAssigning(null)} />
    </>
  );
}
