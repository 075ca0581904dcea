import { useState } from 'react';
import { Button, Drawer, Group, Text } from '@mantine/core';
import type { Driver } from '@tramo/domain';
import { confirmThenMutate } from '../../../components/ui/confirm.tsx';
import { Pager } from '../../../components/ui/Pager.tsx';
import { EditDeleteActions, RecordsTable, type RecordColumn } from '../../../components/ui/RecordsTable.tsx';
import { useClientPaging } from '../../../components/ui/useClientPaging.ts';
import { useDeleteDriver } from '../api/delete-driver.ts';
import { useDrivers } from '../api/get-drivers.ts';
import { DriverForm } from './DriverForm.tsx';
import { HolderDocuments } from './HolderDocuments.tsx';

const PAGE_SIZES = [10, 25, 50] as const;

const columns: RecordColumn<Driver>[] = [
  { header: 'Nombre', cell: (d) => d.full_name, td: { fw: 500, className: 'user-text' } },
  { header: 'DNI', cell: (d) => d.dni },
  { header: 'Licencia', cell: (d) => d.license_number },
  { header: 'Teléfono', cell: (d) => d.phone ?? '—' },
  { header: 'Nota', cell: (d) => d.note ?? '—', td: (d) => ({ c: d.note ? undefined : 'dimmed' }) },
];

export function DriversTab() {
  const drivers = useDrivers();
  const remove = useDeleteDriver();
  const paging = useClientPaging(drivers.data ?? [], 10);
  const [editing, setEditing] = useState<Driver | 'new' | null>(null);
  const [documentsOf, setDocumentsOf] = useState<Driver | null>(null);

  const onDelete = (driver: Driver) =>
    confirmThenMutate(
      { title: 'Eliminar conductor', message: `¿Eliminar al conductor ${driver.full_name} (DNI ${driver.dni})?`, success: 'Conductor eliminado.' },
      remove.mutate,
      driver.id,
    );

  return (
    <>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed">
          Conductores que se asignan a los transportes
        </Text>
        <Button onClick={() => setEditing('new')}>Nuevo conductor</Button>
      </Group>
      <RecordsTable
        columns={columns}
        rows={paging.items}
        rowKey={(d) => d.id}
        loading={drivers.isPending}
        error={drivers.error}
        empty="Sin registros."
        actionsWidth={250}
        actions={(d) => (
          <EditDeleteActions onEdit={() => setEditing(d)} onDelete={() => onDelete(d)}>
            <Button size="compact-sm" variant="subtle" aria-label={`Documentos de ${d.full_name}`} onClick={() => setDocumentsOf(d)}>
              Documentos
            </Button>
          </EditDeleteActions>
        )}
      />
      <Pager {...paging} pageSizes={PAGE_SIZES} />
      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        title={editing === 'new' ? 'Nuevo conductor' : 'Editar conductor'}
      >
        {editing !== null && <DriverForm driver={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
      <Drawer
        opened={documentsOf !== null}
        onClose={() => setDocumentsOf(null)}
        position="right"
        size="xl"
        title={documentsOf ? `Documentos de ${documentsOf.full_name}` : ''}
      >
        {documentsOf && <HolderDocuments kind="drivers" id={documentsOf.id} holder={documentsOf.full_name} />}
      </Drawer>
    </>
  );
}
