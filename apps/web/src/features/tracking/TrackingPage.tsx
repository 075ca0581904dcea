import { useEffect } from 'react';
import { Alert, Grid, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { normalizeShipmentCode } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { StatusChip } from '../../components/ui/StatusChip.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useShipmentByCode, useShipmentSearch, type Shipment } from '../shipments/index.ts';
import { Field, lastEvent } from './components/Field.tsx';
import { ShipmentHistory } from './components/ShipmentHistory.tsx';
import { ShipmentResults } from './components/ShipmentResults.tsx';

function TrackingDetail({ shipment }: { shipment: Shipment }) {
  const last = lastEvent(shipment);
  return (
    <Grid gap="md" mb="md">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Paper withBorder p="md" aria-label={`Envío ${shipment.code}`} component="section">
          <Group justify="space-between" mb="sm">
            <Title order={3}>{shipment.code}</Title>
            <StatusChip status={shipment.status} size="lg" />
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            <Field label="Origen">{shipment.originBranch.name}</Field>
            <Field label="Destino">{shipment.destinationBranch.name}</Field>
            <Field label="Remitente">{shipment.senderName}</Field>
            <Field label="Destinatario">
              {shipment.recipientName} · {shipment.recipientDoc}
            </Field>
            <Field label="Creado">{formatDateTime(shipment.createdAt)}</Field>
            <Field label="Último evento">{last ? `${last.name} · ${formatDateTime(last.at)}` : '—'}</Field>
          </SimpleGrid>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="md" component="section" aria-label="Historial del envío">
          <Title order={5} mb="sm">
            Historial
          </Title>
          <ShipmentHistory events={shipment.checkpoints ?? []} />
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

/** Rastreo: any shipment of any branch by code, recipient document or name; read-only. */
export default function TrackingPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const code = params.get('code');
  const results = useShipmentSearch(q);
  const detail = useShipmentByCode(code);

  const update = (next: { q?: string; code?: string | null }) => {
    const merged = new URLSearchParams(params);
    if (next.q !== undefined) next.q ? merged.set('q', next.q) : merged.delete('q');
    if (next.code !== undefined) next.code ? merged.set('code', next.code) : merged.delete('code');
    setParams(merged, { replace: true });
  };

  // A scanned or typed code that matches a result opens it at once.
  const typedCode = normalizeShipmentCode(q);
  const exact = typedCode ? results.data?.find((s) => s.code === typedCode) : undefined;
  useEffect(() => {
    if (exact && code !== exact.code) update({ code: exact.code });
    // Only a new exact match opens; the user may close it and keep the results.
  }, [exact?.code]);

  return (
    <>
      <PageHeader title="Rastreo" description="Cualquier envío de cualquier sucursal, por código, documento o nombre del destinatario">
        <SearchInput
          value={q}
          onSearch={(v) => update({ q: v.trim(), code: null })}
          placeholder="Código (TMT-000123), DNI/RUC o nombre"
          aria-label="Buscar envío"
          w={340}
        />
      </PageHeader>

      {/* The opened shipment comes first: a long result list must not push it out of view. */}
      {code &&
        (detail.isPending ? (
          <PageSkeleton rows={4} />
        ) : detail.isError ? (
          <Alert color="red" variant="light" role="alert" mb="md">
            No encontrado o error de conexión.
          </Alert>
        ) : (
          <TrackingDetail shipment={detail.data} />
        ))}

      {q ? (
        <ShipmentResults
          rows={results.data}
          loading={results.isPending}
          failed={results.isError}
          selectedCode={code}
          onOpen={(s) => update({ code: s.code })}
        />
      ) : (
        !code && (
          <Text c="dimmed" size="sm" mb="md">
            Escribe o escanea un código y presiona Enter.
          </Text>
        )
      )}
    </>
  );
}
