import { useState } from 'react';
import { Tabs } from '@mantine/core';
import type { Transport } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { pageNumber, useUrlState } from '../../lib/url-state.ts';
import { useLatestTransport, useTransports } from './api/get-transports.ts';
import { AssignmentsTab } from './components/AssignmentsTab.tsx';
import { DocumentsTab } from './components/DocumentsTab.tsx';
import { DriversTab } from './components/DriversTab.tsx';
import { TransportsTab } from './components/TransportsTab.tsx';

const TABS = ['transportes', 'conductores', 'asignaciones', 'documentos'] as const;
type Tab = (typeof TABS)[number];
/** A fleet is dozens of vehicles: the chosen one is found among them all (the API's page maximum). */
const TRANSPORTS_LIMIT = 200;

export default function TransportistasPage() {
  // The tab and the chosen transport live in the address, so a reload or the back button keeps the
  // user where they were (the load being built stays on screen).
  const [url, setUrl] = useUrlState({ tab: 'transportes', transporte: '' }, { replace: true });
  const tab: Tab = (TABS as readonly string[]).includes(url.tab) ? (url.tab as Tab) : 'transportes';
  const [picked, setChosen] = useState<Transport | null>(null);
  const wantedId = pageNumber(url.transporte, 0) || null;
  const all = useTransports({ limit: TRANSPORTS_LIMIT });
  const fromAddress = picked?.id === wantedId ? picked : (all.data?.items.find((t) => t.id === wantedId) ?? null);
  // After an edit the lists reload; the Asignaciones tab must not keep the old plates or drivers.
  const chosen = useLatestTransport(fromAddress);
  const setTab = (next: Tab) => setUrl({ tab: next });

  return (
    <>
      <PageHeader title="Transportistas" description="Vehículos, conductores y los paquetes que lleva cada transporte" />
      <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="transportes">Transportes</Tabs.Tab>
          <Tabs.Tab value="conductores">Conductores</Tabs.Tab>
          <Tabs.Tab value="asignaciones">Asignaciones{chosen ? ` · ${chosen.plate_primary}` : ''}</Tabs.Tab>
          <Tabs.Tab value="documentos">Documentos</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="transportes">
          <TransportsTab
            onViewLoad={(transport) => {
              setChosen(transport);
              setUrl({ tab: 'asignaciones', transporte: String(transport.id) });
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="conductores">
          <DriversTab />
        </Tabs.Panel>
        <Tabs.Panel value="asignaciones">
          <AssignmentsTab transport={chosen} />
        </Tabs.Panel>
        <Tabs.Panel value="documentos">
          <DocumentsTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
