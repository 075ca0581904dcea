import { useState } from 'react';
import { Tabs } from '@mantine/core';
import type { Transport } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { useUrlState } from '../../lib/url-state.ts';
import { useLatestTransport } from './api/get-transports.ts';
import { AssignmentsTab } from './components/AssignmentsTab.tsx';
import { DriversTab } from './components/DriversTab.tsx';
import { TransportsTab } from './components/TransportsTab.tsx';

const TABS = ['transportes', 'conductores', 'asignaciones'] as const;
type Tab = (typeof TABS)[number];

export default function TransportistasPage() {
  // The tab lives in the address so a reload or the back button keeps the user where they were.
  const [url, setUrl] = useUrlState({ tab: 'transportes' }, { replace: true });
  const tab: Tab = (TABS as readonly string[]).includes(url.tab) ? (url.tab as Tab) : 'transportes';
  const [picked, setChosen] = useState<Transport | null>(null);
  // After an edit the lists reload; the Asignaciones tab must not keep the old plates or drivers.
  const chosen = useLatestTransport(picked);
  const setTab = (next: Tab) => setUrl({ tab: next });

  return (
    <>
      <PageHeader title="Transportistas" description="Vehículos, conductores y los paquetes que lleva cada transporte" />
      <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="transportes">Transportes</Tabs.Tab>
          <Tabs.Tab value="conductores">Conductores</Tabs.Tab>
          <Tabs.Tab value="asignaciones">Asignaciones{chosen ? ` · ${chosen.plate_primary}` : ''}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="transportes">
          <TransportsTab
            onViewLoad={(transport) => {
              setChosen(transport);
              setTab('asignaciones');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="conductores">
          <DriversTab />
        </Tabs.Panel>
        <Tabs.Panel value="asignaciones">
          <AssignmentsTab transport={chosen} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
