import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Box, Button, Grid, Group, Paper, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { Link, useParams } from 'react-router';
import {
  canManage as mayManage,
  canReturn,
  closedShipmentRefusal,
  returnRefusal,
  PRODUCT_TYPE_LABELS,
  SHIPMENT_MESSAGES,
  canManageArea,
} from '@tramo/domain';
import { confirmThenMutate } from '../../components/ui/confirm.tsx';
import { Field } from '../../components/ui/Field.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { StatusChip } from '../../components/ui/StatusChip.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime, formatMoney, formatNumber, formatWeight } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { SHORTCUTS, shortcutLabel, useShortcut, withShortcut } from '../../lib/shortcuts.ts';
import { ShipmentDocuments } from '../../features/billing/index.ts';
import { DeliveryProofView } from '../../features/deliveries/index.ts';
import { ShipmentTransportBox } from '../../features/fleet/index.ts';
import { ShipmentIncidents } from '../../features/incidents/index.ts';
import { CollectAction } from '../../features/payments/index.ts';
import {
  DescriptionModal,
  LabelModal,
  ManagePanel,
  PublicTrackingBox,
  ReturnModal,
  SecretCodeModal,
  ShipmentHistory,
  useCancelAction,
  useDeleteCheckpoint,
  useShipment,
  PriceBreakdown,
  WhoPaysBox,
  type Shipment,
  type ShipmentEvent,
} from '../../features/shipments/index.ts';

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

function WeightSection({ shipment }: { shipment: Shipment }) {
  const lines = shipment.multiLineDetail ?? [];
  return (
    <Section title="Líneas de peso">
      {lines.length > 0 ? (
        <Table verticalSpacing={4} mb="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>Categoría</Table.Th>
              <Table.Th ta="right">Peso</Table.Th>
              <Table.Th ta="right">Kg facturables</Table.Th>
              <Table.Th ta="right">Factor</Table.Th>
              <Table.Th ta="right">Precio</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>{PRODUCT_TYPE_LABELS[l.productType]}</Table.Td>
                <Table.Td ta="right">{formatWeight(l.weightKg)}</Table.Td>
                <Table.Td ta="right">{formatWeight(l.billableWeightKg)}</Table.Td>
                <Table.Td ta="right">{formatNumber(l.factorPerKg)}</Table.Td>
                <Table.Td ta="right">{formatMoney(l.price)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      <SimpleGrid cols={3}>
        <Field label="Peso real">{formatWeight(shipment.weightKg)}</Field>
        <Field label="Peso facturable">{formatWeight(shipment.billableWeightKg)}</Field>
        <Field label="Categoría">{PRODUCT_TYPE_LABELS[shipment.productType] ?? shipment.productType}</Field>
      </SimpleGrid>
    </Section>
  );
}

function History({ shipment, canManage }: { shipment: Shipment; canManage: boolean }) {
  const remove = useDeleteCheckpoint();
  const onDelete = (event: ShipmentEvent) =>
    confirmThenMutate(
      { title: 'Eliminar evento', message: `¿Eliminar el evento «${event.name}» del historial?`, success: SHIPMENT_MESSAGES.eventDeleted },
      remove.mutate,
      { id: shipment.id, checkpointId: event.id },
    );
  return (
    <Section title="Historial">
      <ShipmentHistory events={shipment.checkpoints ?? []} onDelete={canManage ? (e) => void onDelete(e) : undefined} />
    </Section>
  );
}

/**
 * /shipments/{id}: by numeric id or by code (TMT-000123). Composed here, not in the shipments
 * feature: it shows the fleet's, deliveries', incidents' and billing's boxes, and those features
 * read shipments themselves.
 */
export default function ShipmentDetailPage() {
  const { id = '' } = useParams();
  const user = useCurrentUser();
  const query = useShipment(id);
  const cancel = useCancelAction();
  const [printing, setPrinting] = useState(false);
  const [editingSecret, setEditingSecret] = useState(false);
  const [editingDescription, setEditingDescription] = useState(false);
  const [returning, setReturning] = useState(false);
  useShortcut(SHORTCUTS.label, query.isSuccess && (() => setPrinting(true)));

  if (query.isPending) return <PageSkeleton rows={10} />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Envío" />
        <Alert color="red" variant="light" role="alert">
          {errorMessage(query.error, 'No encontrado o error de conexión.')}
        </Alert>
        <Button component={Link} to="/shipments" variant="subtle" mt="sm">
          Volver a envíos
        </Button>
      </>
    );
  }

  const s = query.data;
  // The API says who may manage; older answers without the flag fall back to the same table.
  const canManage = s.canManage ?? mayManage(user, s.originBranchId);
  // A final shipment ('Entregado', 'Anulado') is closed: its history, description and code stay as they are.
  const closed = closedShipmentRefusal(s.status);
  const canChange = canManage && !closed;
  const delivered = s.deliveredInfo;
  // The agency that holds the parcel (or an admin) sends it back; the API decides again.
  const mayReturn = canReturn(user, s) && returnRefusal(s.status) === null && !s.returnedAs;

  return (
    <>
      <PageHeader title={s.code} description={`Registrado el ${formatDateTime(s.createdAt)}${s.createdByName ? ` por ${s.createdByName}` : ''}`}>
        <StatusChip status={s.status} size="lg" />
        <Tooltip label={withShortcut('Imprimir etiqueta', SHORTCUTS.label)}>
          <Button variant="default" aria-keyshortcuts={shortcutLabel(SHORTCUTS.label)} onClick={() => setPrinting(true)}>
            Imprimir etiqueta
          </Button>
        </Tooltip>
        <CollectAction shipment={s} variant="light" />
        {s.canEdit && !s.returnOf && (
          <Button component={Link} to={`/shipments/new?edit=${s.id}`} variant="default">
            Editar
          </Button>
        )}
        {canManage && s.status === 'Creado' && (
          <Button color="red" variant="light" loading={cancel.isPending} onClick={() => void cancel.run(s)}>
            Anular envío
          </Button>
        )}
        {mayReturn && (
          <Button color="grape" variant="light" onClick={() => setReturning(true)}>
            Devolver a origen
          </Button>
        )}
      </PageHeader>
      {(s.returnOf || s.returnedAs) && (
        <Alert color="grape" variant="light" mb="md">
          {s.returnOf && (
            <>
              Retorno de{' '}
              <Anchor component={Link} to={`/shipments/${s.returnOf.id}`}>
                {s.returnOf.code}
              </Anchor>
            </>
          )}
          {s.returnedAs && (
            <>
              Devuelto como{' '}
              <Anchor component={Link} to={`/shipments/${s.returnedAs.id}`}>
                {s.returnedAs.code}
              </Anchor>
            </>
          )}
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <Section title="Datos del envío">
              <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="sm" verticalSpacing="sm">
                <Field label="Estado">
                  <StatusChip status={s.status} />
                </Field>
                <Field label="Fecha de registro">{formatDateTime(s.createdAt)}</Field>
                <Field label="Última actualización">{formatDateTime(s.updatedAt)}</Field>
                <Field label="Origen">
                  {s.originBranch.name}
                  {s.originBranch.city ? ` (${s.originBranch.city})` : ''}
                </Field>
                <Field label="Destino">
                  {s.destinationBranch.name}
                  {s.destinationBranch.city ? ` (${s.destinationBranch.city})` : ''}
                </Field>
                <Field label="Remitente">{s.senderName}</Field>
                <Field label="Destinatario">{s.recipientName}</Field>
                <Field label="DNI/RUC del destinatario">{s.recipientDoc}</Field>
              </SimpleGrid>
              <Group justify="space-between" align="flex-start" mt="sm" wrap="wrap" gap="xs">
                <Field label="Descripción">
                  {s.description || (
                    <Text span c="dimmed" size="sm">
                      Sin descripción
                    </Text>
                  )}
                </Field>
                {canChange && (
                  <Group gap="xs" wrap="nowrap">
                    <Button size="compact-sm" variant="subtle" onClick={() => setEditingDescription(true)}>
                      Cambiar descripción
                    </Button>
                    <Button size="compact-sm" variant="subtle" onClick={() => setEditingSecret(true)}>
                      Cambiar clave secreta
                    </Button>
                  </Group>
                )}
              </Group>
            </Section>
            <WeightSection shipment={s} />
            <Section title="Cotización">
              <SimpleGrid cols={3}>
                <Field label="Precio">
                  <Text fw={700} span>
                    {formatMoney(s.quotedPrice)}
                  </Text>
                </Field>
                <Field label="Moneda">{s.quotedCurrency}</Field>
                {/* A shipment of several lines is priced at each line's factor: one figure here would mislead. */}
                <Field label="Factor por kg">
                  {(s.multiLineDetail?.length ?? 0) > 1 ? 'Por línea (ver Líneas de peso)' : formatNumber(s.quotedFactorPerKg)}
                </Field>
              </SimpleGrid>
              <PriceBreakdown shipment={s} />
              {s.usingReverse && (
                <Text size="xs" c="dimmed" mt="xs">
                  Cotizado con la tabla de la ruta inversa (no hay tabla para {s.originBranch.name} → {s.destinationBranch.name}).
                </Text>
              )}
            </Section>
            {delivered && (
              <Section title="Entrega">
                <SimpleGrid cols={3}>
                  <Field label="Recibió">{delivered.receiverName ?? '—'}</Field>
                  <Field label="Documento">{delivered.receiverDoc ?? '—'}</Field>
                  <Field label="Entregó">{delivered.deliveredByName ?? '—'}</Field>
                  <Field label="Fecha">{formatDateTime(delivered.deliveredAt)}</Field>
                  <Field label="Notas">{delivered.notes || '—'}</Field>
                </SimpleGrid>
                <Box mt="sm">
                  <DeliveryProofView shipment={s} />
                </Box>
              </Section>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <WhoPaysBox shipment={s} canChange={canChange} />
            <ShipmentTransportBox shipmentId={s.id} />
            <PublicTrackingBox code={s.code} />
            <ShipmentIncidents shipmentId={s.id} />
            {/* Billing is for admins and agents (DESIGN.md section 5a). */}
            {canManageArea(user, 'billing') && <ShipmentDocuments shipmentId={s.id} />}
            {canChange ? (
              <ManagePanel shipment={s} />
            ) : canManage && closed ? (
              <Text size="xs" c="dimmed">
                {closed}
              </Text>
            ) : (
              <Text size="xs" c="dimmed">
                Solo lectura: gestiona este envío la agencia de origen ({s.originBranch.name}).
              </Text>
            )}
            <History shipment={s} canManage={canChange} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Anchor component={Link} to="/shipments" size="sm" mt="md" display="inline-block">
        ← Volver a envíos
      </Anchor>

      <LabelModal shipment={printing ? s : null} onClose={() => setPrinting(false)} />
      {mayReturn && <ReturnModal shipment={s} opened={returning} onClose={() => setReturning(false)} />}
      {canChange && (
        <>
          <SecretCodeModal shipment={s} opened={editingSecret} onClose={() => setEditingSecret(false)} />
          {editingDescription && <DescriptionModal shipment={s} opened onClose={() => setEditingDescription(false)} />}
        </>
      )}
    </>
  );
}
