import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { PRODUCT_TYPE_LABELS, PRODUCT_TYPES, type Branch, type ProductType } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { useArticleList, useCustomerRoutePrices, usePutCustomerRoutePrices, type CustomerRoutePrices, type RouteRef } from '../api/tariffs.ts';
import { ErrorAlert, firstRoute, RoutePicker, routeName } from './shared.tsx';

type TierRow = { from_kg: string; to_kg: string; factor_per_kg: string };
type ArticleRow = { articleId: string | null; price: string };
const EMPTY_TIER: TierRow = { from_kg: '', to_kg: '', factor_per_kg: '' };

/**
 * A customer's own tiers (per class) and article prices on a route, instead of the route's
 * (customer → article → route). Saving both lists empty removes them: the discount applies again.
 */
export function CustomerRoutePricesEditor({ customerId, branches }: { customerId: number; branches: readonly Branch[] }) {
  const list = useCustomerRoutePrices(customerId);
  const articles = useArticleList();
  const put = usePutCustomerRoutePrices();
  const [route, setRoute] = useState<RouteRef>(() => firstRoute(branches));
  const [productType, setProductType] = useState<ProductType>('liviano');
  const [tiers, setTiers] = useState<Partial<Record<ProductType, TierRow[]>>>({});
  const [prices, setPrices] = useState<ArticleRow[]>([]);
  const rows = tiers[productType] ?? [];
  const setRows = (next: TierRow[]) => setTiers({ ...tiers, [productType]: next });

  const load = (r: CustomerRoutePrices) => {
    setRoute({ originBranchId: r.originBranchId, destinationBranchId: r.destinationBranchId });
    const loaded: Partial<Record<ProductType, TierRow[]>> = {};
    for (const [type, l] of Object.entries(r.tiers))
      loaded[type as ProductType] = l.map((t) => ({ from_kg: String(t.from_kg), to_kg: String(t.to_kg), factor_per_kg: String(t.factor_per_kg) }));
    setTiers(loaded);
    setPrices(r.articles.map((a) => ({ articleId: String(a.articleId), price: a.price.toFixed(2) })));
  };
  const save = () =>
    put.mutate(
      {
        customerId,
        ...route,
        tiers: Object.fromEntries(Object.entries(tiers).filter(([, l]) => l.length)),
        articles: prices.filter((p) => p.articleId).map((p) => ({ articleId: Number(p.articleId), price: p.price })),
      },
      { onSuccess: () => notify.success('Precios del cliente guardados.') },
    );

  return (
    <Stack gap="xs" mt="sm">
      <Title order={3} size="h6">
        Tramos y precios propios por ruta
      </Title>
      {(list.data ?? []).length > 0 && (
        <Table verticalSpacing={2} fz="sm">
          <Table.Tbody>
            {list.data!.map((r) => (
              <Table.Tr key={`${r.originBranchId}-${r.destinationBranchId}`}>
                <Table.Td>{routeName(branches, r)}</Table.Td>
                <Table.Td>
                  {Object.keys(r.tiers)
                    .map((t) => PRODUCT_TYPE_LABELS[t as ProductType] ?? t)
                    .join(', ') || 'Sin tramos'}
                  {r.articles.length ? ` · ${r.articles.length} artículo(s)` : ''}
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-xs" variant="subtle" onClick={() => load(r)}>
                    Editar
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group gap="xs" align="flex-end" wrap="wrap">
        <RoutePicker branches={branches} value={route} onChange={setRoute} />
        <Select
          label="Categoría"
          w={140}
          data={PRODUCT_TYPES.map((t) => ({ value: t, label: PRODUCT_TYPE_LABELS[t] }))}
          value={productType}
          allowDeselect={false}
          onChange={(v) => v && setProductType(v as ProductType)}
        />
      </Group>
      {rows.map((row, i) => (
        <Group key={i} gap="xs" align="flex-end">
          {(['from_kg', 'to_kg', 'factor_per_kg'] as const).map((field) => (
            <TextInput
              key={field}
              aria-label={`${field === 'from_kg' ? 'Desde (kg)' : field === 'to_kg' ? 'Hasta (kg)' : 'Factor por kg'} tramo propio ${i + 1}`}
              placeholder={field === 'from_kg' ? 'Desde kg' : field === 'to_kg' ? 'Hasta kg' : 'S/ por kg'}
              w={100}
              inputMode="decimal"
              value={row[field]}
              onChange={(e) => setRows(rows.map((r, j) => (j === i ? { ...r, [field]: e.currentTarget.value } : r)))}
            />
          ))}
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Quitar tramo propio ${i + 1}`}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
            mb={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group gap="xs">
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setRows([...rows, EMPTY_TIER])}>
          Agregar tramo
        </Button>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() => setPrices([...prices, { articleId: null, price: '' }])}
          disabled={!articles.data?.length}
        >
          Agregar precio de artículo
        </Button>
      </Group>
      {prices.map((p, i) => (
        <Group key={i} gap="xs" align="flex-end">
          <Select
            aria-label={`Artículo propio ${i + 1}`}
            placeholder="Artículo"
            w={200}
            data={(articles.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
            value={p.articleId}
            onChange={(v) => setPrices(prices.map((q, j) => (j === i ? { ...q, articleId: v } : q)))}
          />
          <TextInput
            aria-label={`Precio propio ${i + 1}`}
            placeholder="S/"
            w={100}
            inputMode="decimal"
            value={p.price}
            onChange={(e) => setPrices(prices.map((q, j) => (j === i ? { ...q, price: e.currentTarget.value } : q)))}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Quitar precio propio ${i + 1}`}
            onClick={() => setPrices(prices.filter((_, j) => j !== i))}
            mb={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {(list.data ?? []).length === 0 && (
        <Text size="xs" c="dark.4">
          Sin precios propios: se aplican las tarifas de la ruta (con su descuento, si tiene).
        </Text>
      )}
      <ErrorAlert error={put.error} />
      <Group justify="flex-end">
        <Button onClick={save} loading={put.isPending}>
          Guardar precios propios
        </Button>
      </Group>
    </Stack>
  );
}
