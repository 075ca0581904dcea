import { useState } from 'react';
import { Alert, Badge, Button, Drawer, Group, Modal, Table, Tabs, Text } from '@mantine/core';
import { CREDIT_ACCOUNT_STATUS_LABELS, CREDIT_PERIOD_LABELS, type CreditAccountAnswer } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { AccountDetail } from './AccountDetail.tsx';
import { AccountForm } from './AccountForm.tsx';
import { PeriodBatchForm } from './PeriodBatchForm.tsx';
import { useCreditAccounts } from './api/credit.ts';
import { AgeingView } from './components/AgeingView.tsx';
import { WHOLE_CHIP } from './chips.ts';

/** 'Crédito' (issue 35): corporate customers' accounts, their facturas and cobranza, and the ageing of what they owe. */
export default function CreditoPage() {
  const [opened, setOpened] = useState<number | null>(null);
  const [editing, setEditing] = useState<CreditAccountAnswer | 'new' | null>(null);
  const [batch, setBatch] = useState(false);
  return (
    <>
      <PageHeader title="Crédito" description="Clientes con línea de crédito: facturas, cobranza, detracciones y estados de cuenta">
        <Group gap="xs">
          <Button variant="default" onClick={() => setBatch(true)}>
            Facturar periodos vencidos
          </Button>
          <Button onClick={() => setEditing('new')}>Abrir cuenta</Button>
        </Group>
      </PageHeader>
      <Tabs defaultValue="cuentas" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="cuentas">Cuentas</Tabs.Tab>
          <Tabs.Tab value="antiguedad">Antigüedad de saldos</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="cuentas">
          <AccountsTable onOpen={setOpened} onEdit={setEditing} />
        </Tabs.Panel>
        <Tabs.Panel value="antiguedad">
          <AgeingView onOpen={setOpened} />
        </Tabs.Panel>
      </Tabs>
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="md"
        title={editing === 'new' ? 'Abrir cuenta de crédito' : 'Cuenta de crédito'}
      >
        {editing !== null && <AccountForm account={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
      <Modal opened={batch} onClose={() => setBatch(false)} title="Facturar periodos vencidos" size="min(900px, 100%)">
        {batch && <PeriodBatchForm onDone={() => setBatch(false)} />}
      </Modal>
      <Drawer opened={opened !== null} onClose={() => setOpened(null)} position="right" size="min(1100px, 100%)" title="Cuenta de crédito">
        {opened !== null && <AccountDetail customerId={opened} />}
      </Drawer>
    </>
  );
}

function AccountsTable({ onOpen, onEdit }: { onOpen(id: number): void; onEdit(a: CreditAccountAnswer): void }) {
  const accounts = useCreditAccounts();
  if (accounts.isPending) return <PageSkeleton />;
  if (accounts.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {errorMessage(accounts.error, 'No se pudo cargar las cuentas.')}
      </Alert>
    );
  if (accounts.data.length === 0)
    return <Text c="dimmed">Ningún cliente tiene cuenta de crédito. 'Abrir cuenta' le da una a un cliente con RUC.</Text>;
  return (
    // Fits a 1024 tablet (issue 38): the RUC and the terms under the name, the chips and the actions wrap.
    <Table.ScrollContainer minWidth={680}>
      <Table striped highlightOnHover fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Cliente</Table.Th>
            <Table.Th ta="right">Límite</Table.Th>
            <Table.Th ta="right">Saldo</Table.Th>
            <Table.Th ta="right">Disponible</Table.Th>
            <Table.Th>Estado</Table.Th>
            <Table.Th>Acciones</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {accounts.data.map((a) => (
            <Table.Tr key={a.customerId}>
              <Table.Td>
                <Text size="sm" className="user-text">
                  {a.customerName}
                </Text>
                <Text size="xs" c="dimmed">
                  RUC {a.docNumber} · {a.termsDays} días · {CREDIT_PERIOD_LABELS[a.period]}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(a.limit)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(a.balance)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(a.available)}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Badge variant="light" color={a.status === 'activa' ? 'teal' : 'gray'} tt="none" styles={WHOLE_CHIP}>
                    {CREDIT_ACCOUNT_STATUS_LABELS[a.status]}
                  </Badge>
                  {a.overdue && (
                    <Badge variant="light" color="red" tt="none" styles={WHOLE_CHIP}>
                      Facturas vencidas
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <Button size="compact-sm" variant="light" onClick={() => onOpen(a.customerId)}>
                    Ver cuenta
                  </Button>
                  <Button size="compact-sm" variant="default" onClick={() => onEdit(a)}>
                    Editar
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
