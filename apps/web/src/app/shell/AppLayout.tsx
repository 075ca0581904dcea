import { memo, Suspense, useMemo } from 'react';
import { AppShell, Badge, Burger, Button, Group, NavLink, ScrollArea, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { canManageArea, menuFor, ROLE_LABELS, type MenuEntry } from '@tramo/domain';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { SHORTCUTS, shortcutLabel, useShortcut, withShortcut } from '../../lib/shortcuts.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useRefreshSessionUser } from '../../features/auth/api/me.ts';

// Made once: a time-zoned formatter is slow to make, and the shell renders often (issue 37).
const limaHour = new Intl.DateTimeFormat('es-PE', { hour: 'numeric', hour12: false, timeZone: 'America/Lima' });

function greeting(now = new Date()): string {
  const hour = Number(limaHour.format(now));
  if (hour < 12) return 'Buenos días';
  if (hour < 19) return 'Buenas tardes';
  return 'Buenas noches';
}

/**
 * The entry to light up: the root link only on / exactly; otherwise the longest entry that is the
 * path or a parent of it (/shipments/12 → Envíos, /shipments/new → Nuevo envío).
 */
function activeEntry<T extends { path: string }>(pathname: string, entries: T[]): T | undefined {
  return entries
    .filter((e) => (e.path === '/' ? pathname === '/' : pathname === e.path || pathname.startsWith(`${e.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

const NEW_SHIPMENT_PATH = '/shipments/new';

/**
 * The menu's links, memoized: the shell renders again far more often than they change (the user's
 * details refreshed, the page loaded behind it), and its twenty-odd links cost a tenth of a second
 * each time on a slow device (issue 37).
 */
const MainMenu = memo(function MainMenu({ entries, activePath, onNavigate }: { entries: MenuEntry[]; activePath?: string; onNavigate(): void }) {
  return entries.map((entry) => {
    const link = (
      <NavLink
        key={entry.path}
        component={RouterNavLink}
        to={entry.path}
        // Highlighting is ours (activeEntry); the router's own prefix match would light two entries.
        end
        label={entry.label}
        onClick={onNavigate}
        active={entry.path === activePath}
        aria-keyshortcuts={entry.path === NEW_SHIPMENT_PATH ? shortcutLabel(SHORTCUTS.newShipment) : undefined}
      />
    );
    return entry.path === NEW_SHIPMENT_PATH ? (
      <Tooltip key={entry.path} label={withShortcut(entry.label, SHORTCUTS.newShipment)} position="right">
        {link}
      </Tooltip>
    ) : (
      link
    );
  });
});

export function AppLayout() {
  const user = useCurrentUser();
  const logout = useLogout();
  useRefreshSessionUser();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure();
  const entries = useMemo(() => menuFor(user.role), [user.role]);
  const active = activeEntry(location.pathname, entries);
  const navigate = useNavigate();
  // Alt+N: a new shipment from anywhere in the staff app. On the form itself it does nothing (a half-typed
  // shipment is not thrown away); its success card takes Alt+N as 'Registrar otro'.
  const mayRegister = canManageArea(user, 'newShipment');
  const onNewShipmentForm = location.pathname === NEW_SHIPMENT_PATH && !location.search.includes('edit=');
  useShortcut(SHORTCUTS.newShipment, mayRegister && !onNewShipmentForm && (() => void navigate(NEW_SHIPMENT_PATH)));

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menú" />
            <Title order={3} c="teal.8" style={{ letterSpacing: 0.5 }}>
              Tramo
            </Title>
          </Group>
          <Group gap="md" wrap="nowrap">
            <Text size="sm" visibleFrom="xs">
              {greeting()}, <b>{user.name}</b>
            </Text>
            <Badge variant="light" color="gray" size="lg" tt="none">
              Agencia: {user.branchName ?? '—'}
            </Badge>
            <Badge variant="dot" tt="none" visibleFrom="md">
              {ROLE_LABELS[user.role]}
            </Badge>
            <Button component={RouterNavLink} to="/change-password" variant="subtle" color="gray" visibleFrom="md">
              Cambiar contraseña
            </Button>
            <Button variant="subtle" color="gray" onClick={logout}>
              Cerrar sesión
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Menú principal">
        <ScrollArea>
          <MainMenu entries={entries} activePath={active?.path} onNavigate={close} />
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main>
        <Suspense fallback={<PageSkeleton />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
