import { Anchor, Badge, Button, Paper, Select, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TOPIC_LABELS,
  type Notification,
  type NotificationChannel,
  type NotificationStatus,
} from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { Pager } from '../../components/ui/Pager.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { useUrlState } from '../../lib/url-state.ts';
import { useNotifications, useResendNotification } from './api/notifications.ts';
import { ActionsTh } from '../../components/ui/ActionsTh.tsx';

const PAGE_SIZES = [25, 50, 100] as const;
const STATUS_COLORS: Record<NotificationStatus, string> = { pendiente: 'yellow', enviado: 'teal', registrado: 'gray', fallido: 'red' };
const STATUS_LABELS: Record<NotificationStatus, string> = {
  pendiente: 'Pendiente',
  enviado: 'Enviado',
  registrado: 'Solo registrado',
  fallido: 'Fallido',
};
const PARTY_LABELS: Record<Notification['party'], string> = {
  sender: 'Remitente',
  recipient: 'Destinatario',
  company: 'Empresa',
  customer: 'Cliente',
};
const isStatus = (v: string): v is NotificationStatus => (NOTIFICATION_STATUSES as readonly string[]).includes(v);
const isChannel = (v: string): v is NotificationChannel => (NOTIFICATION_CHANNELS as readonly string[]).includes(v);

/**
 * Notificaciones (issue 18, admins): what the outbox sent, holds or gave up on, by status and
 * channel, with 'Reenviar'. 'Solo registrado' means no channel is configured for it (outbox-only).
 */
export default function NotificacionesPage() {
  const [url, setUrl] = useUrlState({ status: '', channel: '', page: '1', pageSize: '25' });
  const params = {
    status: isStatus(url.status) ? url.status : null,
    channel: isChannel(url.channel) ? url.channel : null,
    page: Math.max(1, Number(url.page) || 1),
    pageSize: PAGE_SIZES.find((s) => String(s) === url.pageSize) ?? 25,
  };
  const list = useNotifications(params);
  const resend = useResendNotification();

  return (
    <>
      <PageHeader title="Notificaciones" description="Mensajes al remitente y al destinatario con el enlace de seguimiento">
        <Select
          aria-label="Estado"
          placeholder="Todos los estados"
          clearable
          w={180}
          data={NOTIFICATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          value={params.status}
          onChange={(v) => setUrl({ status: v, page: null })}
        />
        <Select
          aria-label="Canal"
          placeholder="Todos los canales"
          clearable
          w={170}
          data={NOTIFICATION_CHANNELS.map((c) => ({ value: c, label: NOTIFICATION_CHANNEL_LABELS[c] }))}
          value={params.channel}
          onChange={(v) => setUrl({ channel: v, page: null })}
        />
      </PageHeader>
      <Paper withBorder>
        {list.isPending ? (
          <PageSkeleton rows={6} />
        ) : list.isError ? (
          <Text c="red" p="md">
            {errorMessage(list.error, 'No se pudieron cargar las notificaciones.')}
          </Text>
        ) : list.data.items.length === 0 ? (
          <Text c="dimmed" p="md">
            No hay notificaciones con estos filtros.
          </Text>
        ) : (
          // No minimum width: the addresses wrap so that 'Reenviar' stays in view on the 1024 tablet.
          <Table.ScrollContainer minWidth={0}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>Envío</Table.Th>
                  <Table.Th>Aviso</Table.Th>
                  <Table.Th>Para</Table.Th>
                  <Table.Th>Canal</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  {/* A secondary column, left out on the 1024 tablet so 'Reenviar' stays in view. */}
                  <Table.Th visibleFrom="lg">Intentos</Table.Th>
                  <ActionsTh />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((n) => (
                  <Table.Tr key={n.id}>
                    <Table.Td>{formatDateTime(n.createdAt)}</Table.Td>
                    <Table.Td>
                      {n.shipmentId === null ? (
                        '—'
                      ) : (
                        <Anchor component={Link} to={`/shipments/${n.shipmentId}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {n.shipmentCode}
                        </Anchor>
                      )}
                    </Table.Td>
                    <Table.Td title={n.body}>{NOTIFICATION_TOPIC_LABELS[n.topic]}</Table.Td>
                    {/* A long e-mail address breaks; the party's name does not. */}
                    <Table.Td>
                      {PARTY_LABELS[n.party]}: <span className="user-text">{n.address}</span>
                    </Table.Td>
                    <Table.Td>{NOTIFICATION_CHANNEL_LABELS[n.channel]}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLORS[n.status]} tt="none" radius="sm" styles={{ label: { overflow: 'visible' } }}>
                        {STATUS_LABELS[n.status]}
                      </Badge>
                      {n.lastError && n.status !== 'enviado' && (
                        <Text size="xs" c="red.9" maw={260} style={{ overflowWrap: 'anywhere' }}>
                          {n.lastError}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td visibleFrom="lg">{n.attempts}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        disabled={n.status === 'pendiente'}
                        onClick={() =>
                          resend.mutate(n.id, {
                            onSuccess: () => notify.success(NOTIFICATION_MESSAGES.resent),
                            onError: (err) => notify.error(errorMessage(err), 'No se pudo reenviar.'),
                          })
                        }
                      >
                        Reenviar
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Pager
        page={params.page}
        pageSize={params.pageSize}
        total={list.data?.total ?? 0}
        pageSizes={PAGE_SIZES}
        onPage={(p) => setUrl({ page: String(p) })}
        onPageSize={(size) => setUrl({ page: null, pageSize: String(size) })}
      />
    </>
  );
}
