import { Alert, Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { canManageArea } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useBranches } from '../branches/index.ts';
import { useTariffSettingsQuery } from './api/tariffs.ts';
import { PricingTabs } from './components/PricingTabs.tsx';
import { ArticlesTab } from './tariffs/ArticlesTab.tsx';
import { CustomersTab } from './tariffs/CustomersTab.tsx';
import { RoutesTab } from './tariffs/RoutesTab.tsx';
import { SettingsTab } from './tariffs/SettingsTab.tsx';
import { SurchargesTab } from './tariffs/SurchargesTab.tsx';

const TABS = [
  ['articulos', 'Artículos'],
  ['clientes', 'Tarifas de cliente'],
  ['recargos', 'Recargos'],
  ['rutas', 'Cargo mínimo y divisor'],
  ['valor-declarado', 'Valor declarado'],
] as const;

/**
 * 'Tarifas' (issue 34), beside Factor Peso: articles and their prices per route, customer tariffs,
 * surcharges, each route's minimum charge and divisor with 'Clonar tarifa', and the company's
 * declared-value settings and liability clause. Factor Peso keeps its own screen and spec behaviour.
 */
export default function TarifasPage() {
  const user = useCurrentUser();
  const branches = useBranches();
  const settings = useTariffSettingsQuery();
  const [params, setParams] = useSearchParams();
  const tab = TABS.some(([v]) => v === params.get('tab')) ? params.get('tab')! : 'articulos';

  let body;
  if (branches.isPending || settings.isPending) body = <PageSkeleton rows={6} />;
  else if (branches.isError || settings.isError)
    body = (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(branches.error ?? settings.error, 'No se pudieron cargar las tarifas.')}
      </Alert>
    );
  else
    body = (
      <Tabs value={tab} onChange={(v) => v && setParams({ tab: v }, { replace: true })} variant="pills" keepMounted={false}>
        <Tabs.List mb="sm">
          {TABS.map(([value, label]) => (
            <Tabs.Tab key={value} value={value}>
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="articulos">
          <ArticlesTab branches={branches.data} />
        </Tabs.Panel>
        <Tabs.Panel value="clientes">
          <CustomersTab branches={branches.data} />
        </Tabs.Panel>
        <Tabs.Panel value="recargos">
          <SurchargesTab />
        </Tabs.Panel>
        <Tabs.Panel value="rutas">
          <RoutesTab branches={branches.data} companyDivisor={settings.data.volumetricDivisor} />
        </Tabs.Panel>
        <Tabs.Panel value="valor-declarado">
          <SettingsTab settings={settings.data} canEdit={canManageArea(user, 'settings')} />
        </Tabs.Panel>
      </Tabs>
    );

  return (
    <>
      <PricingTabs />
      <PageHeader title="Tarifas" description="Artículos, tarifas de cliente, recargos, cargo mínimo, divisor y valor declarado" />
      {body}
    </>
  );
}
