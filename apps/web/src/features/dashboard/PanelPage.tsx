import { useDeferredValue, type ReactNode } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Grid, Group, Stack, Paper, SimpleGrid, Skeleton, Text, Title, Tooltip } from '@mantine/core';
import { IconEye, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { FleetDocumentsAlert } from '../fleet/index.ts';
import {
  DASHBOARD_SEARCH_CAP,
  DASHBOARD_PAGE_SIZES,
  INCIDENT_REASON_LABELS,
  lastNumberedPage,
  SHIPMENT_MESSAGES,
  SHIPMENT_SEARCH_MIN_LENGTH,
  canManageArea,
  type ShipmentListRow,
} from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { Pager } from '../../components/ui/Pager.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useUrlState } from '../../lib/url-state.ts';
import {
  BranchFilter,
  DateRangeFilter,
  FilterPlaceholder,
  ShipmentsTable,
  StatusFilter,
  useShipments,
  type ShipmentColumn,
} from '../shipments/index.ts';
import { useDashboard, type DashboardBucket } from './api/get-dashboard.ts';
import { useOpenIncidents } from './api/get-open-incidents.ts';
import { DestinationDueCard } from './components/DestinationDueCard.tsx';
import ShipmentsChart from './components/ShipmentsChart.tsx';
import { PANEL_FILTER_KEYS, panelRequest, panelUrlDefaults, type PanelFilterKey } from './panel-request.ts';

/** The chart groups long spans; its title says by what. */
const PERIOD: Record<DashboardBucket, string> = { day: 'día', week: 'semana', month: 'mes', year: 'año' };

/** DESIGN 2a: a 1024 px tablet must see the whole row, 'Ver' included; the sender is secondary. */
const PANEL_COLUMNS: ShipmentColumn[] = ['code', 'createdAt', 'origin', 'destination', 'sender', 'recipient', 'status'];

const COUNTERS = [
  { key: 'total', label: 'Total', color: 'dark' },
  { key: 'Creado', label: 'Creado', color: 'orange.9' },
  { key: 'En tránsito', label: 'En tránsito', color: 'blue.7' },
  { key: 'Entregado', label: 'Entregado', color: 'teal.7' },
] as const;

export default function PanelPage() {
  const user = useCurrentUser();
  const [url, setUrl] = useUrlState(panelUrlDefaults());
  const { filters, effective, page, pageSize, anyBranch, rangeInvalid, latest: latestParams } = panelRequest(user, url);
  const dashboard = useDashboard(effective, !rangeInvalid);
  const latest = useShipments(latestParams, !rangeInvalid);

  /** A filter change goes back to page 1; a cleared date stays '' (an open range), not the default. */
  const set = (key: PanelFilterKey, value: string | null) => setUrl({ [key]: value ?? '', page: null });
  const counters = dashboard.data?.counters;

  return (
    <>
      <PageHeader title="Panel" description="Resumen de envíos del periodo">
        {canManageArea(user, 'newShipment') && (
          <Button component={Link} to="/shipments/new">
            Nuevo envío
          </Button>
        )}
      </PageHeader>

      <Paper withBorder p="sm" mb="md">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <DateRangeFilter from={filters.dateFrom} to={filters.dateTo} onChange={set} />
          {anyBranch ? (
            <Later before={<FilterPlaceholder kind="branch" label="Origen" value={filters.originBranchId} />}>
              <BranchFilter label="Origen" value={filters.originBranchId} onChange={(v) => set('originBranchId', v)} />
            </Later>
          ) : (
            <div>
              <Text size="xs" fw={500} mb={4}>
                Origen
              </Text>
              <Badge variant="light" color="gray" tt="none" size="lg">
                Agencia: {user.branchName ?? '—'}
              </Badge>
            </div>
          )}
          <Later before={<FilterPlaceholder kind="branch" label="Destino" value={filters.destinationBranchId} />}>
            <BranchFilter label="Destino" value={filters.destinationBranchId} onChange={(v) => set('destinationBranchId', v)} />
          </Later>
          <Later before={<FilterPlaceholder kind="status" label="Estado" value={filters.status} />}>
            <StatusFilter value={filters.status} onChange={(v) => set('status', v)} />
          </Later>
          <SearchInput
            label="Buscar"
            size="xs"
            w={200}
            autoFocus={false}
            placeholder="Código, DNI/RUC o nombre"
            value={filters.q ?? ''}
            onSearch={(v) => set('q', v.trim())}
            minLength={SHIPMENT_SEARCH_MIN_LENGTH}
            tooShortMessage={SHIPMENT_MESSAGES.searchTermTooShort}
          />
          <Button
            variant="subtle"
            size="xs"
            // The page size is a preference, not a filter: it stays.
            onClick={() => setUrl({ ...Object.fromEntries(PANEL_FILTER_KEYS.map((k) => [k, null])), page: null })}
          >
            Limpiar filtros
          </Button>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            loading={dashboard.isFetching || latest.isFetching}
            disabled={rangeInvalid}
            onClick={() => {
              void dashboard.refetch();
              void latest.refetch();
            }}
          >
            Actualizar
          </Button>
        </Group>
        {rangeInvalid && (
          <Alert color="yellow" variant="light" role="alert" mt="sm" py="xs">
            {SHIPMENT_MESSAGES.invalidRange}
          </Alert>
        )}
      </Paper>

      <FleetDocumentsAlert enabled={canManageArea(user, 'fleetCompliance')} />
      {(dashboard.isError || latest.isError) && (
        <Alert color="red" variant="light" role="alert" mb="sm">
          {errorMessage(dashboard.error ?? latest.error)}
        </Alert>
      )}

      <Grid gap="md" mb="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="sm">
            <SimpleGrid cols={2} spacing="sm">
              {COUNTERS.map((c) => (
                <Paper withBorder p="sm" key={c.key} aria-label={`Contador ${c.label}`}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                    {c.label}
                  </Text>
                  {rangeInvalid ? (
                    // No figures for a range that cannot be asked: a dash, not a skeleton that never ends.
                    <Text fz={26} fw={700} c="dimmed" aria-label="Sin datos">
                      —
                    </Text>
                  ) : counters ? (
                    <Text fz={26} fw={700} c={c.color} data-testid={`counter-${c.key}`}>
                      {c.key === 'total' && dashboard.data?.totalCapped && (
                        // Small, so the capped total keeps the counters' one-line height.
                        <Text span fz="sm" fw={600}>
                          {'Más de '}
                        </Text>
                      )}
                      {formatNumber(counters[c.key])}
                    </Text>
                  ) : (
                    <Skeleton height={30} mt={4} width="50%" />
                  )}
                </Paper>
              ))}
            </SimpleGrid>
            {dashboard.data?.totalCapped && (
              // A common name is not counted through the whole table (issue 19): say what the figures are.
              <Text size="xs" c="dimmed" data-testid="counters-capped">
                {`Con búsqueda, los contadores y el gráfico cuentan los ${formatNumber(DASHBOARD_SEARCH_CAP)} envíos más recientes que coinciden.`}
              </Text>
            )}
            <OpenIncidentsCard />
            {canManageArea(user, 'payments') && <DestinationDueCard />}
            <Paper withBorder p="sm">
              <Title order={2} size="h5" mb="xs">
                Accesos rápidos
              </Title>
              <SimpleGrid cols={2} spacing="xs">
                {canManageArea(user, 'newShipment') && (
                  <Button component={Link} to="/shipments/new" variant="light">
                    Nuevo envío
                  </Button>
                )}
                <Button component={Link} to="/shipments" variant="light">
                  Envíos
                </Button>
                <Button component={Link} to="/tracking" variant="light">
                  Rastreo
                </Button>
                {/* DESIGN.md section 4: movements are for admins and agents. */}
                {canManageArea(user, 'movements') && (
                  <Button component={Link} to="/reports/movimientos" variant="light">
                    Movimientos
                  </Button>
                )}
              </SimpleGrid>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="sm">
            <Title order={2} size="h5" mb="xs">
              Envíos por {PERIOD[dashboard.data?.bucket ?? 'day']}
            </Title>
            {rangeInvalid ? (
              <Text c="dimmed" size="sm" py="xl" ta="center">
                Corrige el rango de fechas para ver el gráfico.
              </Text>
            ) : dashboard.data ? (
              <ShipmentsChart days={dashboard.data.series} bucket={dashboard.data.bucket} />
            ) : (
              <Skeleton height={200} />
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      <Paper withBorder p="sm">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h5">
            Últimos envíos
          </Title>
          <Anchor component={Link} to="/shipments" size="sm">
            Ver todos
          </Anchor>
        </Group>
        <LatestShipments
          rows={rangeInvalid ? null : (latest.data?.items ?? [])}
          loading={latest.isPending}
          pageSize={pageSize}
          pager={
            !rangeInvalid && (
              <Pager
                page={page}
                pageSize={pageSize}
                total={latest.data?.total ?? 0}
                totalCapped={latest.data?.totalCapped}
                pageSizes={DASHBOARD_PAGE_SIZES}
                maxPages={lastNumberedPage(pageSize)}
                onPage={(p) => setUrl({ page: String(p) })}
                onPageSize={(size) => setUrl({ page: null, pageSize: String(size) })}
              />
            )
          }
        />
      </Paper>
    </>
  );
}

/**
 * False in the Panel's first render, true in a deferred one just after it: on a slow device the
 * branch and status pickers, the latest shipments' rows and their pager took most of that first
 * render, and the counters and the chart need not wait for them (issue 37).
 */
const useDrawnLater = () => useDeferredValue(true, false);

/** `children` once drawn later (useDrawnLater), `before` until then. */
function Later({ children, before }: { children: ReactNode; before: ReactNode }) {
  return useDrawnLater() ? children : before;
}

/** The latest shipments: until drawn later, the table shows its loading rows, as while the list is on its way. */
function LatestShipments({
  rows,
  loading,
  pageSize,
  pager,
}: {
  rows: ShipmentListRow[] | null;
  loading: boolean;
  pageSize: number;
  pager: ReactNode;
}) {
  const drawn = useDrawnLater();
  return (
    <>
      <ShipmentsTable
        rows={rows}
        loading={loading || !drawn}
        skeletonRows={pageSize}
        columns={PANEL_COLUMNS}
        wideOnly={['sender']}
        nameWidth={130}
        // Row actions are icons with their name as tooltip and accessible name, as on the list (issue 16, item 12).
        action={(s) => (
          <Tooltip label="Ver">
            <ActionIcon size="sm" component={Link} to={`/shipments/${s.id}`} variant="subtle" aria-label={`Ver ${s.code}`}>
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      />
      {drawn && pager}
    </>
  );
}

/** Open incidents (issue 17): a counter that opens the shipments that have one. */
function OpenIncidentsCard() {
  const incidents = useOpenIncidents();
  const open = incidents.data?.open;
  return (
    <Paper withBorder p="sm" aria-label="Contador Incidencias abiertas">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Incidencias abiertas
          </Text>
          {open === undefined ? (
            <Skeleton height={30} mt={4} width={60} />
          ) : (
            <Text fz={26} fw={700} c={open > 0 ? 'red.8' : 'dark'} data-testid="counter-incidents">
              {formatNumber(open)}
            </Text>
          )}
        </div>
        {/* No link to an empty list (and no disabled button to read). */}
        {open !== undefined && open > 0 && (
          <Button component={Link} to="/shipments?incidencia=abierta" variant="light" color="red" size="xs">
            Ver envíos
          </Button>
        )}
      </Group>
      {incidents.data && incidents.data.items.length > 0 && (
        <Text size="xs" mt={4} c="dark.4">
          Última: {incidents.data.items[0]!.shipmentCode} · {INCIDENT_REASON_LABELS[incidents.data.items[0]!.reason]}
        </Text>
      )}
    </Paper>
  );
}
