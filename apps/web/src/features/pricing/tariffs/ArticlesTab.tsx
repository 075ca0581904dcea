import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { Branch } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { useArticleList, useArticlePrices, useCreateArticle, usePutArticlePrice, type RouteRef } from '../api/tariffs.ts';
import { ErrorAlert, firstRoute, money, RoutePicker, routeName } from './shared.tsx';

/** 'Artículos': the catalogue (name, unit, SUNAT unit code) and each article's price per route. */
export function ArticlesTab({ branches }: { branches: readonly Branch[] }) {
  const articles = useArticleList();
  const create = useCreateArticle();
  const [draft, setDraft] = useState({ name: '', unit: '', unitCode: 'NIU' });
  const [selected, setSelected] = useState<number | null>(null);
  const current = articles.data?.find((a) => a.id === selected) ?? null;

  const add = () =>
    create.mutate(draft, {
      onSuccess: (a) => {
        notify.success('Artículo creado.');
        setDraft({ name: '', unit: '', unitCode: 'NIU' });
        setSelected(a.id);
      },
    });

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      <Paper withBorder p="sm">
        <Title order={2} size="h5" mb="xs">
          Catálogo de artículos
        </Title>
        <Table striped highlightOnHover verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nombre</Table.Th>
              <Table.Th>Unidad</Table.Th>
              <Table.Th>Código SUNAT</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(articles.data ?? []).map((a) => (
              <Table.Tr key={a.id} bg={a.id === selected ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>
                  <Button variant="subtle" size="compact-sm" onClick={() => setSelected(a.id)}>
                    {a.name}
                  </Button>
                </Table.Td>
                <Table.Td>{a.unit}</Table.Td>
                <Table.Td>{a.unitCode}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {articles.data?.length === 0 && (
          <Text size="sm" c="dark.4">
            Sin artículos.
          </Text>
        )}
        <Title order={3} size="h6" mt="sm" mb={4}>
          Nuevo artículo
        </Title>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput label="Nombre" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} w={180} />
          <TextInput label="Unidad" value={draft.unit} onChange={(e) => setDraft({ ...draft, unit: e.currentTarget.value })} w={110} />
          <TextInput label="Código SUNAT" value={draft.unitCode} onChange={(e) => setDraft({ ...draft, unitCode: e.currentTarget.value })} w={110} />
          <Button onClick={add} loading={create.isPending}>
            Crear artículo
          </Button>
        </Group>
        <ErrorAlert error={create.error} />
      </Paper>
      <Paper withBorder p="sm">
        {current ? (
          <ArticlePrices branches={branches} articleId={current.id} name={current.name} />
        ) : (
          <Text size="sm" c="dark.4">
            Elige un artículo para ver y fijar su precio por ruta.
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}

function ArticlePrices({ branches, articleId, name }: { branches: readonly Branch[]; articleId: number; name: string }) {
  const prices = useArticlePrices(articleId);
  const put = usePutArticlePrice();
  const [route, setRoute] = useState<RouteRef>(() => firstRoute(branches));
  const [price, setPrice] = useState('');
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        Precios de {name} por ruta
      </Title>
      <Table verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Ruta</Table.Th>
            <Table.Th ta="right">Precio por unidad</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(prices.data ?? []).map((p) => (
            <Table.Tr key={`${p.originBranchId}-${p.destinationBranchId}`}>
              <Table.Td>{routeName(branches, p)}</Table.Td>
              <Table.Td ta="right">{money(p.price)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {prices.data?.length === 0 && (
        <Text size="sm" c="dark.4">
          Sin precios: la ruta inversa tampoco lo cotiza.
        </Text>
      )}
      <Group align="flex-end" gap="xs" wrap="wrap">
        <RoutePicker branches={branches} value={route} onChange={setRoute} />
        <TextInput label="Precio (S/)" value={price} onChange={(e) => setPrice(e.currentTarget.value)} w={110} inputMode="decimal" />
        <Button
          loading={put.isPending}
          onClick={() => put.mutate({ articleId, ...route, price }, { onSuccess: () => notify.success('Precio guardado.') })}
        >
          Fijar precio
        </Button>
      </Group>
      <ErrorAlert error={put.error} />
    </Stack>
  );
}
