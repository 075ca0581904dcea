import { useState } from 'react';
import { Badge, Box, Button, Drawer } from '@mantine/core';
import { ROLE_LABELS, type User } from '@tramo/domain';
import { confirmDanger, confirmThenMutate } from '../../components/ui/confirm.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { Pager } from '../../components/ui/Pager.tsx';
import { EditDeleteActions, RecordsTable, type RecordColumn } from '../../components/ui/RecordsTable.tsx';
import { SearchInput } from '../../components/ui/SearchInput.tsx';
import { useClientPaging } from '../../components/ui/useClientPaging.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useDeleteUser } from './api/delete-user.ts';
import { useUsers } from './api/get-users.ts';
import { useResetPassword } from './api/reset-password.ts';
import { useUnlockUser } from './api/unlock-user.ts';
import { TempPasswordModal } from './components/TempPasswordModal.tsx';
import { UserForm } from './components/UserForm.tsx';

const PAGE_SIZES = [10, 25, 50] as const;
const ROLE_COLORS = { admin: 'grape', agent: 'blue', courier: 'orange' } as const;

const columns: RecordColumn<User>[] = [
  {
    header: 'Usuario',
    td: { fw: 600 },
    cell: (u) => (
      <>
        {u.username}{' '}
        {u.mustChangePassword && (
          <Badge size="xs" color="orange" variant="light">
            Cambio pendiente
          </Badge>
        )}
        {u.lockedUntil && (
          <Badge size="xs" color="red" variant="light" title={`Hasta las ${formatDateTime(u.lockedUntil)}`}>
            Bloqueado
          </Badge>
        )}
      </>
    ),
  },
  { header: 'Nombre', cell: (u) => u.name, td: { className: 'user-text' } },
  { header: 'Correo', cell: (u) => u.email ?? '—', wideOnly: true },
  {
    header: 'Rol',
    cell: (u) => (
      <Badge variant="light" color={ROLE_COLORS[u.role]} tt="none" styles={{ label: { overflow: 'visible' } }}>
        {ROLE_LABELS[u.role]}
      </Badge>
    ),
  },
  { header: 'Sucursal', cell: (u) => u.branchName ?? '—' },
];

export default function UsersPage() {
  const me = useCurrentUser();
  const [q, setQ] = useState('');
  const users = useUsers(q);
  const remove = useDeleteUser();
  const reset = useResetPassword();
  const unlock = useUnlockUser();
  const paging = useClientPaging(users.data ?? [], 10);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [shown, setShown] = useState<{ username: string; password: string } | null>(null);

  const onDelete = (user: User) =>
    confirmThenMutate(
      {
        title: 'Eliminar usuario',
        message: `¿Eliminar al usuario ${user.username}? Perderá el acceso de inmediato.`,
        success: 'Usuario eliminado.',
      },
      remove.mutate,
      user.id,
    );

  const onReset = async (user: User) => {
    const ok = await confirmDanger({
      title: 'Restablecer contraseña',
      message: `Se generará una contraseña temporal para ${user.username} y se cerrarán sus sesiones abiertas.`,
      confirmLabel: 'Restablecer',
    });
    if (!ok) return;
    reset.mutate(user.id, {
      onSuccess: ({ tempPassword }) => setShown({ username: user.username, password: tempPassword }),
      onError: (err) => notify.error(err),
    });
  };

  const onUnlock = (user: User) =>
    confirmThenMutate(
      {
        title: 'Desbloquear usuario',
        message: `${user.username} quedó bloqueado por contraseñas incorrectas. ¿Permitirle iniciar sesión de nuevo ahora?`,
        confirmLabel: 'Desbloquear',
        color: 'teal',
        success: 'Usuario desbloqueado.',
      },
      unlock.mutate,
      user.id,
    );

  return (
    <>
      <PageHeader title="Usuarios" description="Personal con acceso a Tramo">
        <SearchInput
          value={q}
          onSearch={(v) => {
            setQ(v);
            paging.reset();
          }}
          placeholder="Buscar por código, nombre o sucursal"
          w={300}
        />
        <Button onClick={() => setEditing('new')}>Nuevo usuario</Button>
      </PageHeader>

      <RecordsTable
        columns={columns}
        rows={paging.items}
        rowKey={(u) => u.id}
        loading={users.isPending}
        error={users.error}
        actionsWidth={300}
        actions={(u) => (
          <EditDeleteActions onEdit={() => setEditing(u)} onDelete={() => onDelete(u)} deleteDisabled={u.id === me.id}>
            {u.lockedUntil && (
              <Button size="compact-sm" variant="subtle" color="red" onClick={() => onUnlock(u)}>
                Desbloquear
              </Button>
            )}
            {/* Your own reset would revoke this session before the temporary password shows; use Cambiar contraseña. */}
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              disabled={u.id === me.id}
              onClick={() => onReset(u)}
              aria-label="Restablecer contraseña"
            >
              Restablecer
              {/* Shortened on the 1024 tablet so Eliminar stays in view. */}
              <Box component="span" visibleFrom="lg">
                &nbsp;contraseña
              </Box>
            </Button>
          </EditDeleteActions>
        )}
      />
      <Pager {...paging} pageSizes={PAGE_SIZES} withPageInput />

      <Drawer
        opened={editing !== null}
        onClose={() => setEditing(null)}
        position="right"
        title={editing === 'new' ? 'Nuevo usuario' : 'Editar usuario'}
      >
        {editing !== null && (
          <UserForm
            user={editing === 'new' ? null : editing}
            onCreated={({ user, tempPassword }) => setShown({ username: user.username, password: tempPassword })}
            onDone={() => setEditing(null)}
          />
        )}
      </Drawer>
      <TempPasswordModal username={shown?.username ?? ''} password={shown?.password ?? null} onClose={() => setShown(null)} />
    </>
  );
}
