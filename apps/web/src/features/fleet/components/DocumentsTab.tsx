import { Badge, Group, SegmentedControl, Text } from '@mantine/core';
import { FLEET_DOCUMENT_LABELS, dayText, type FleetDocument } from '@tramo/domain';
import { RecordsTable, type RecordColumn } from '../../../components/ui/RecordsTable.tsx';
import { useUrlState } from '../../../lib/url-state.ts';
import { useExpiringDocuments } from '../api/get-fleet-documents.ts';

const WINDOWS = ['7', '15', '30'] as const;

const stateBadge = (d: FleetDocument) =>
  d.state === 'vencido' ? (
    <Badge color="red" variant="light">
      Vencido hace {-d.daysLeft} {d.daysLeft === -1 ? 'día' : 'días'}
    </Badge>
  ) : (
    <Badge color={d.daysLeft <= 7 ? 'orange' : 'yellow'} variant="light">
      {d.daysLeft === 0 ? 'Vence hoy' : `Vence en ${d.daysLeft} ${d.daysLeft === 1 ? 'día' : 'días'}`}
    </Badge>
  );

const columns: RecordColumn<FleetDocument>[] = [
  { header: 'Titular', cell: (d) => d.holder, td: { fw: 500 } },
  { header: 'Tipo', cell: (d) => (d.transportId !== null ? 'Vehículo' : 'Conductor') },
  { header: 'Documento', cell: (d) => FLEET_DOCUMENT_LABELS[d.type] },
  { header: 'Número', cell: (d) => d.number ?? '—' },
  { header: 'Vence', cell: (d) => dayText(d.expiresOn) },
  { header: 'Estado', cell: stateBadge },
];

/** Issue 36: the vehicle and driver documents that expire within 7, 15 or 30 days, or have expired. */
export function DocumentsTab() {
  const [url, setUrl] = useUrlState({ plazo: '30' }, { replace: true });
  const within = (WINDOWS as readonly string[]).includes(url.plazo) ? (Number(url.plazo) as 7 | 15 | 30) : 30;
  const docs = useExpiringDocuments(within);

  return (
    <>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          Documentos vencidos o por vencer. Un SOAT, CITV o licencia vencidos impiden cargar y despachar el vehículo.
        </Text>
        <SegmentedControl
          value={String(within)}
          onChange={(v) => setUrl({ plazo: v })}
          data={WINDOWS.map((w) => ({ value: w, label: `${w} días` }))}
          aria-label="Plazo"
        />
      </Group>
      <RecordsTable
        columns={columns}
        rows={docs.data ?? []}
        rowKey={(d) => `${d.id ?? `ficha-${d.driverId}`}`}
        loading={docs.isPending}
        error={docs.error}
        empty={`Ningún documento vence en los próximos ${within} días.`}
      />
    </>
  );
}
