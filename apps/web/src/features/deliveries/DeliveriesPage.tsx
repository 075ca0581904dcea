import { useState } from 'react';
import { Alert, Grid, Group, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { normalizeShipmentCode } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { StatusChip } from '../../components/ui/StatusChip.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useShipmentByCode, useShipmentSearch, type Shipment } from '../shipments/index.ts';
import { Field, lastEvent, ShipmentResults } from '../tracking/index.ts';
import { DeliveredBox } from './components/DeliveredBox.tsx';
import { DeliveryForm } from './components/DeliveryForm.tsx';

function Summary({ shipment }: { shipment: Shipment }) {
  const last = lastEvent(shipment);
  return (
    <Paper withBorder p="md" component="section" aria-label={`Envío ${shipment.code}`}>
      <Group justify="space-between" mb="sm">
        <Title order={3}>{shipment.code}</Title>
        <StatusChip status={shipment.status} size="lg" />
      </Group>
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
        <Field label="Origen">{shipment.originBranch.name}</Field>
        <Field label="Destino">{shipment.destinationBranch.name}</Field>
        <Field label="Remitente">{shipment.senderName}</Field>
        <Field label="Destinatario">{shipment.recipientName}</Field>
        <Field label="DNI/RUC">{shipment.recipientDoc}</Field>
        <Field label="Creado">{formatDateTime(shipment.createdAt)}</Field>
        <Field label="Descripción">{shipment.description || '—'}</Field>
        <Field label="Último evento">{last ? `${last.name} · ${formatDateTime(last.at)}` : '—'}</Field>
      </SimpleGrid>
    </Paper>
  );
}

/** Entregas: find the shipment (scanned code, or recipient name/document), then confirm against its secret code. */
export default function DeliveriesPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const code = params.get('code');
  const [codeText, setCodeText] = useState(code ?? '');
  const [codeError, setCodeError] = useState<string | null>(null);
  const results = useShipmentSearch(q);
  const detail = useShipmentByCode(code);

  const update = (next: { q?: string; code?: string | null }) => {
    const merged = new URLSearchParams(params);
    if (next.q !== undefined) next.q ? merged.set('q', next.q) : merged.delete('q');
    if (next.code !== undefined) next.code ? merged.set('code', next.code) : merged.delete('code');
    setParams(merged, { replace: true });
  };

  const openCode = () => {
    const normalized = normalizeShipmentCode(codeText);
    setCodeError(codeText.trim() && !normalized ? 'Código inválido (TMT-000123)' : null);
    if (normalized) {
      setCodeText(normalized);
      update({ code: normalized });
    }
  };

  return (
    <>
      <PageHeader title="Entregas" description="Confirma la entrega con la clave secreta del envío">
        <TextInput
          aria-label="Código de envío"
          placeholder="Código de envío (escanear)"
          autoFocus
          w={220}
          value={codeText}
          error={codeError}
          onChange={(e) => setCodeText(e.currentTarget.value)}
          onKeyDown={(e) => {
            // A barcode scanner types the code and Enter.
            if (e.key === 'Enter') {
              e.preventDefault();
              openCode();
            }
          }}
        />
        <SearchInput
          value={q}
          onSearch={(v) => update({ q: v.trim() })}
          placeholder="Nombre o documento del destinatario"
          aria-label="Buscar por nombre o documento"
          autoFocus={false}
          w={300}
        />
      </PageHeader>

      {/* The opened shipment comes first: a long result list must not push it out of view. */}
      {code &&
        (detail.isPending ? (
          <PageSkeleton rows={4} />
        ) : detail.isError ? (
          <Alert color="red" variant="light" role="alert" mb="md">
            {detail.error && 'status' in detail.error && detail.error.status === 404 ? 'No encontrado.' : 'No encontrado o error de conexión.'}
          </Alert>
        ) : (
          <Grid gap="md" mb="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Summary shipment={detail.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Paper withBorder p="md" component="section">
                <Title order={4} mb="sm">
                  {detail.data.deliveredInfo ? 'Entrega' : 'Confirmar entrega'}
                </Title>
                {detail.data.deliveredInfo ? (
                  <DeliveredBox info={detail.data.deliveredInfo} />
                ) : (
                  <DeliveryForm key={detail.data.id} shipment={detail.data} />
                )}
              </Paper>
            </Grid.Col>
          </Grid>
        ))}

      {q && (
        <ShipmentResults
          rows={results.data}
          loading={results.isPending}
          failed={results.isError}
          selectedCode={code}
          onOpen={(s) => {
            setCodeText(s.code);
            update({ code: s.code });
          }}
        />
      )}

      {!code && !q && (
        <Text c="dimmed" size="sm">
          Escanea o escribe el código del envío y presiona Enter, o busca por nombre o documento.
        </Text>
      )}
    </>
  );
}
