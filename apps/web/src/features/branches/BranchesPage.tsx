import { useState } from 'react';
import { Button, Drawer } from '@mantine/core';
import type { Branch } from '@tramo/domain';
import { confirmThenMutate } from '../../components/ui/confirm.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { Pager } from '../../components/ui/Pager.tsx';
import { EditDeleteActions, RecordsTable, type RecordColumn } from '../../components/ui/RecordsTable.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { useClientPaging } from '../../components/ui/useClientPaging.ts';
import { useDeleteBranch } from './api/delete-branch.ts';
import { useBranches } from './api/get-branches.ts';
import { BranchForm } from './components/BranchForm.tsx';

const PAGE_SIZES = [10, 25, 50] as const;

const columns: RecordColumn<Branch>[] = [
  { header: 'Nombre', cell: (b) => b.name, td: { fw: 500, className: 'user-text' } },
  { header: 'Ciudad', cell: (b) => b.city ?? '—' },
  { header: 'Dirección', cell: (b) => b.address ?? '—', td: { className: 'user-text' } },
];

export default function BranchesPage() {
  const [q, setQ] = useState('');
  const branches = useBranches(q);
  const remove = useDeleteBranch();
  const paging = useClientPaging(branches.data ?? [], 10);
  const [editing, setEditing] = useState<Branch | 'new' | null>(null);

  const onDelete = (branch: Branch) =>
    confirmThenMutate(
      {
        title: 'Eliminar sucursal',
        message: `¿Eliminar la sucursal ${branch.name}? Esta acción no se puede deshacer.`,
        success: 'Sucursal eliminada.',
      },
      remove.mutate,
      branch.id,
    );

  return (
    <>
      <PageHeader title="Sucursales" description="Agencias de origen y destino de los envíos">
        <SearchInput
          value={q}
          onSearch={(v) => {
            setQ(v);
            paging.reset();
          }}
          placeholder="Buscar por nombre, ciudad o dirección"
          w={300}
        />
        <Button onClick={() => setEditing('new')}>Nueva sucursal</Button>
      </PageHeader>

      <RecordsTable
        columns={columns}
        rows={paging.items}
        rowKey={(b) => b.id}
        loading={branches.isPending}
        error={branches.error}
        actions={(b) => <EditDeleteActions onEdit={() => setEditing(b)} onDelete={() => onDelete(b)} />}
      />
      <Pager {...paging} pageSizes={PAGE_SIZES} />

      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        title={editing === 'new' ? 'Nueva sucursal' : 'Editar sucursal'}
      >
        {editing !== null && <BranchForm branch={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
    </>
  );
}
