import { useState } from 'react';
import { Badge, Button, Drawer, Group, Text } from '@mantine/core';
import { customerName, DOC_TYPE_SHORT, type Customer } from '@tramo/domain';
import { confirmThenMutate } from '../../components/ui/confirm.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { Pager } from '../../components/ui/Pager.tsx';
import { EditDeleteActions, RecordsTable, type RecordColumn } from '../../components/ui/RecordsTable.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { useClientPaging } from '../../components/ui/useClientPaging.ts';
import { useDeleteCustomer } from './api/delete-customer.ts';
import { useCustomers } from './api/get-customers.ts';
import { CustomerForm } from './components/CustomerForm.tsx';

/** Spec section 9: customers page 10, 25 or 50 rows on the client (default 10). */
const PAGE_SIZES = [10, 25, 50] as const;

const columns: RecordColumn<Customer>[] = [
  { header: 'Nombre / Razón social', cell: customerName, td: { fw: 500, className: 'user-text' } },
  {
    header: 'Documento',
    width: 170,
    cell: (c) => (
      <Group gap={6} wrap="nowrap">
        <Badge variant="light" color="gray" size="sm" w={44} px={0}>
          {DOC_TYPE_SHORT[c.doc_type]}
        </Badge>
        <Text size="sm" ff="monospace">
          {c.doc_number}
        </Text>
      </Group>
    ),
  },
  { header: 'Teléfono', width: 120, cell: (c) => c.phone ?? '—' },
  { header: 'Correo', cell: (c) => c.email ?? '—', wideOnly: true },
  {
    header: 'Dirección',
    cell: (c) => (
      <Text size="sm" lineClamp={1} title={c.address ?? undefined} className="user-text">
        {c.address ?? '—'}
      </Text>
    ),
  },
];

export default function CustomersPage() {
  const [q, setQ] = useState('');
  const customers = useCustomers(q);
  const remove = useDeleteCustomer();
  const rows = customers.data?.items ?? [];
  const paging = useClientPaging(rows, 10);
  const [editing, setEditing] = useState<Customer | 'new' | null>(null);
  const truncated = customers.data && customers.data.total > rows.length;

  const onDelete = (customer: Customer) =>
    confirmThenMutate(
      {
        title: 'Eliminar cliente',
        message: `¿Eliminar al cliente ${customerName(customer)}? Esta acción no se puede deshacer.`,
        success: 'Cliente eliminado.',
      },
      remove.mutate,
      customer.id,
    );

  return (
    <>
      <PageHeader title="Clientes" description="Remitentes y destinatarios con su documento de identidad">
        <SearchInput
          value={q}
          onSearch={(v) => {
            setQ(v);
            paging.reset();
          }}
          placeholder="Nombre, documento, teléfono o correo"
          w={340}
        />
        <Button onClick={() => setEditing('new')}>Nuevo cliente</Button>
      </PageHeader>

      {truncated && (
        <Text size="sm" c="dimmed" mb="xs">
          Se muestran los primeros {rows.length.toLocaleString('es-PE')} de {customers.data!.total.toLocaleString('es-PE')} clientes; afine la
          búsqueda.
        </Text>
      )}
      <RecordsTable
        columns={columns}
        rows={paging.items}
        rowKey={(c) => c.id}
        loading={customers.isPending}
        error={customers.error}
        actionsWidth={150}
        actions={(c) => <EditDeleteActions onEdit={() => setEditing(c)} onDelete={() => onDelete(c)} />}
      />
      <Pager {...paging} pageSizes={PAGE_SIZES} />

      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        size="md"
        title={editing === 'new' ? 'Nuevo cliente' : 'Editar cliente'}
      >
        {editing !== null && <CustomerForm customer={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
    </>
  );
}
