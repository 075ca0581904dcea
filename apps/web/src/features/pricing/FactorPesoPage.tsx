import { useMemo, useState } from 'react';
import { Alert, Button, Grid } from '@mantine/core';
import { Link } from 'react-router';
import { DEFAULT_TIERS, PRICING_MESSAGES, tierProblem, type Branch, type ProductType, type WeightFactorSummary, canManageArea } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useBranches } from '../branches/index.ts';
import { useCreateWeightFactorTable } from './api/create-table.ts';
import { unanswered } from './api/fallback.ts';
import { LIST_FAILED, useRouteTable, type RouteKey } from './api/get-route-table.ts';
import { useReplaceTiers } from './api/replace-tiers.ts';
import { ConfigCard } from './components/ConfigCard.tsx';
import { PreviewCard } from './components/PreviewCard.tsx';
import { ReferenceValuesCard } from './components/ReferenceValuesCard.tsx';
import { PricingTabs } from './components/PricingTabs.tsx';
import { SummaryCard } from './components/SummaryCard.tsx';
import { toRows, toTiers, type TierRow } from './components/tierRows.ts';

type Banner = { tone: 'success' | 'error' | 'info'; text: string };
const BANNER_COLORS = { success: 'teal', error: 'red', info: 'blue' } as const;

const MESSAGES = {
  branchesFailed: 'No se pudieron cargar las sucursales.',
  saved: 'Guardado correctamente.',
  fixInvalid: 'Corrige los tramos inválidos antes de guardar.',
  fixOverlap: 'Hay tramos solapados. Ajusta los límites.',
  saveFailed: 'Error al guardar los tramos',
  noTiers: 'Agrega al menos un tramo.',
} as const;

export default function FactorPesoPage() {
  const branches = useBranches();

  if (branches.isPending) return <PageSkeleton rows={8} />;
  if (branches.isError) {
    return (
      <>
        <PageHeader title="Factor Peso" />
        <Alert color="red" variant="light" role="alert">
          {MESSAGES.branchesFailed}
        </Alert>
      </>
    );
  }
  if (branches.data.length < 2) return <NoBranches count={branches.data.length} />;
  return <FactorPesoEditor branches={branches.data} />;
}

/** A route needs two branches; with fewer, the screen asks for them first. */
function NoBranches({ count }: { count: number }) {
  const user = useCurrentUser();
  return (
    <>
      <PageHeader title="Factor Peso" />
      <Alert color="yellow" variant="light" title={count === 0 ? 'No hay sucursales' : 'Falta una sucursal'}>
        {count === 0
          ? 'Crea una sucursal primero para configurar las tarifas por peso.'
          : 'Se necesitan al menos dos sucursales para definir una ruta. Crea otra sucursal primero.'}
        {canManageArea(user, 'branches') ? (
          <Button component={Link} to="/branches" size="xs" variant="light" ml="sm">
            Ir a Sucursales
          </Button>
        ) : (
          ' Pide a un administrador que la registre.'
        )}
      </Alert>
    </>
  );
}

function FactorPesoEditor({ branches }: { branches: Branch[] }) {
  const user = useCurrentUser();
  // The agent's own branch is the natural origin; otherwise the first branch.
  const [originId, setOriginId] = useState(() => branches.find((b) => b.id === user.branchId)?.id ?? branches[0]!.id);
  const [destinationId, setDestinationId] = useState(() => branches.find((b) => b.id !== originId)!.id);
  const [productType, setProductType] = useState<ProductType>('liviano');
  const route: RouteKey = { originId, destinationId, productType };
  const routeKey = `${originId}-${destinationId}-${productType}`;

  const table = useRouteTable(route);
  const create = useCreateWeightFactorTable();
  const replace = useReplaceTiers();
  const [editor, setEditor] = useState<{ key: string; rows: TierRow[] } | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);

  // A route's saved tiers (or the defaults) fill the editor once per route, as soon as they arrive;
  // later refetches keep the user's edits.
  if (table.isSuccess && editor?.key !== routeKey) {
    setEditor({ key: routeKey, rows: toRows(table.data?.tiers ?? DEFAULT_TIERS) });
  }

  const rows = editor?.key === routeKey ? editor.rows : null;
  const tiers = useMemo(() => toTiers(rows ?? []), [rows]);
  const problem = rows === null ? null : rows.length === 0 ? 'empty' : tierProblem(tiers);
  const saving = create.isPending || replace.isPending;

  const chooseRoute = (next: Partial<RouteKey>) => {
    const o = next.originId ?? originId;
    let d = next.destinationId ?? destinationId;
    // The destination list excludes the origin: picking the current destination as origin moves it.
    if (d === o) d = branches.find((b) => b.id !== o)!.id;
    setOriginId(o);
    setDestinationId(d);
    if (next.productType) setProductType(next.productType);
    setBanner(null);
  };

  const loadFromSummary = (row: WeightFactorSummary) => {
    chooseRoute({ originId: row.origin_branch_id, destinationId: row.destination_branch_id, productType: row.product_type });
    // Loading again the route already on screen discards its unsaved edits.
    setEditor(null);
    void table.refetch();
  };

  const fail = (text: string) => {
    setBanner({ tone: 'error', text });
    notify.error(text);
  };

  const save = async () => {
    if (rows === null || table.isError) return fail(PRICING_MESSAGES.noActiveTable);
    if (problem === 'empty') return fail(MESSAGES.noTiers);
    if (problem === 'invalid') return fail(MESSAGES.fixInvalid);
    if (problem === 'overlap') return fail(MESSAGES.fixOverlap);
    setBanner(null);
    let id = table.data?.id;
    if (id === undefined) {
      try {
        const name = (bid: number) => branches.find((b) => b.id === bid)?.name ?? String(bid);
        const created = await create.mutateAsync({
          origin_branch_id: originId,
          destination_branch_id: destinationId,
          product_type: productType,
          name: `${name(originId)} → ${name(destinationId)} (${productType})`,
          currency: 'PEN',
        });
        id = created.id;
      } catch (err) {
        return fail(errorMessage(err, 'No se pudo crear el pricing'));
      }
    }
    try {
      const saved = await replace.mutateAsync({ id, tiers });
      setEditor({ key: routeKey, rows: toRows(saved.tiers) });
      setBanner({ tone: 'success', text: MESSAGES.saved });
      notify.success(MESSAGES.saved);
    } catch (err) {
      fail(unanswered(err) ? MESSAGES.saveFailed : errorMessage(err, MESSAGES.saveFailed));
    }
  };

  const alert: Banner | null =
    problem === 'invalid'
      ? { tone: 'error', text: PRICING_MESSAGES.invalidTiers }
      : problem === 'overlap'
        ? { tone: 'error', text: PRICING_MESSAGES.overlapping }
        : problem === 'empty'
          ? { tone: 'error', text: MESSAGES.noTiers }
          : table.isError
            ? { tone: 'error', text: errorMessage(table.error, LIST_FAILED) }
            : (banner ??
              (rows !== null && !table.data
                ? { tone: 'info', text: 'Esta ruta y categoría no tienen tabla guardada: se muestran los tramos por defecto. «Guardar» la creará.' }
                : null));

  return (
    <>
      <PricingTabs />
      <PageHeader title="Factor Peso" description="Tarifas por peso entre sucursales, por categoría">
        <Button onClick={save} loading={saving} disabled={rows === null || problem !== null || table.isError}>
          Guardar
        </Button>
      </PageHeader>

      {alert && (
        <Alert color={BANNER_COLORS[alert.tone]} variant="light" mb="sm" py={8} role={alert.tone === 'error' ? 'alert' : 'status'}>
          {alert.text}
        </Alert>
      )}

      <SummaryCard onLoad={loadFromSummary} currentId={table.data?.id ?? null} />

      <Grid gap="sm">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ConfigCard
            branches={branches}
            originId={originId}
            destinationId={destinationId}
            productType={productType}
            onOrigin={(id) => chooseRoute({ originId: id })}
            onDestination={(id) => chooseRoute({ destinationId: id })}
            onProductType={(value) => chooseRoute({ productType: value })}
            rows={rows}
            onRows={(next) => {
              setEditor({ key: routeKey, rows: next });
              setBanner(null);
            }}
            saved={Boolean(table.data)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PreviewCard tiers={tiers} />
        </Grid.Col>
      </Grid>
      <ReferenceValuesCard originId={originId} destinationId={destinationId} canEdit={canManageArea(user, 'settings')} />
    </>
  );
}
