import { Fragment } from 'react';
import { Button, Group, NumberFormatter, Paper, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { centsToString, emptyInvoiceItem, previewTotals, type InvoiceFormValues } from '@tramo/domain';
import { IGV_OPTIONS, UNIT_OPTIONS } from './options.ts';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { ActionsTh } from '../../../../components/ui/ActionsTh.tsx';
import { useWideTable } from '../../../../components/ui/useWideTable.ts';
import { fieldError } from '../../../../lib/forms.ts';

/**
 * The items table: one row per line, its total computed as the user types (same rule as the API).
 * Below the lg breakpoint (the 1024 tablet) the description takes a row of its own above the
 * figures, so every column and the remove button fit without scrolling sideways.
 */
export function ItemsBlock({ form }: { form: UseFormReturn<InvoiceFormValues> }) {
  const items = useFieldArray({ control: form.control, name: 'items' });
  const watched = useWatch({ control: form.control, name: 'items' });
  const { wide, w } = useWideTable();
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Ítems
        </Title>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => items.append(emptyInvoiceItem())}>
          Agregar ítem
        </Button>
      </Group>
      <div style={{ overflowX: 'auto' }}>
        <Table verticalSpacing={4} horizontalSpacing={6} miw={wide ? 900 : undefined}>
          <Table.Thead>
            <Table.Tr>
              {wide && <Table.Th>Descripción</Table.Th>}
              <Table.Th w={w(150)}>Unidad</Table.Th>
              <Table.Th w={w(90)}>Cantidad</Table.Th>
              <Table.Th w={w(120)}>Valor unitario</Table.Th>
              <Table.Th w={w(130)}>IGV</Table.Th>
              <Table.Th w={w(100)}>Descuento</Table.Th>
              <Table.Th w={100} ta="right">
                Total
              </Table.Th>
              <ActionsTh w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.fields.map((field, i) => {
              const line = watched?.[i];
              const total = line ? previewTotals([line]).totalCents : 0;
              const n = i + 1;
              const error = (name: 'description' | 'unit' | 'quantity' | 'unitValue' | 'igvType' | 'discount') =>
                fieldError(form, `items.${i}.${name}`);
              const description = (
                <TextInput
                  size="xs"
                  aria-label={`Descripción del ítem ${n}`}
                  placeholder={wide ? undefined : 'Descripción'}
                  maxLength={250}
                  {...form.register(`items.${i}.description`)}
                  error={error('description')}
                />
              );
              return (
                <Fragment key={field.id}>
                  {!wide && (
                    <Table.Tr style={{ borderBottom: 0 }}>
                      <Table.Td colSpan={7} pb={0}>
                        {description}
                      </Table.Td>
                    </Table.Tr>
                  )}
                  <Table.Tr>
                    {wide && <Table.Td>{description}</Table.Td>}
                    <Table.Td>
                      <Controller
                        control={form.control}
                        name={`items.${i}.unit`}
                        render={({ field: f }) => (
                          <Select
                            size="xs"
                            aria-label={`Unidad del ítem ${n}`}
                            data={UNIT_OPTIONS}
                            allowDeselect={false}
                            value={f.value}
                            onChange={(v) => f.onChange(v ?? 'ZZ')}
                            onBlur={f.onBlur}
                            error={error('unit')}
                          />
                        )}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        inputMode="decimal"
                        aria-label={`Cantidad del ítem ${n}`}
                        {...form.register(`items.${i}.quantity`)}
                        error={error('quantity')}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        inputMode="decimal"
                        aria-label={`Valor unitario del ítem ${n}`}
                        placeholder="0.00"
                        {...form.register(`items.${i}.unitValue`)}
                        error={error('unitValue')}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Controller
                        control={form.control}
                        name={`items.${i}.igvType`}
                        render={({ field: f }) => (
                          <Select
                            size="xs"
                            aria-label={`IGV del ítem ${n}`}
                            data={IGV_OPTIONS}
                            allowDeselect={false}
                            value={f.value}
                            onChange={(v) => f.onChange(v ?? '10')}
                            onBlur={f.onBlur}
                            error={error('igvType')}
                          />
                        )}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        inputMode="decimal"
                        aria-label={`Descuento del ítem ${n}`}
                        placeholder="0.00"
                        {...form.register(`items.${i}.discount`)}
                        error={error('discount')}
                      />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm" ff="monospace">
                        <NumberFormatter value={centsToString(total)} thousandSeparator="," decimalScale={2} fixedDecimalScale />
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <RemoveRowButton label={`Quitar el ítem ${n}`} onRemove={() => items.remove(i)} disabled={items.fields.length === 1} />
                    </Table.Td>
                  </Table.Tr>
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
      <Text size="xs" c="dimmed" mt={4}>
        Valor unitario sin IGV. El IGV (18 %) se calcula por ítem y se redondea al céntimo.
      </Text>
    </Paper>
  );
}
