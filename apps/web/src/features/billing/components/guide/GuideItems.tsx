import { Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { GUIDE_UNIT_LABELS, GUIDE_UNITS, guideItemWeightKg, isGuideUnit } from '@tramo/domain';
import { emptyGuideItem, type GuideValues } from './guide-values.ts';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { ActionsTh } from '../../../../components/ui/ActionsTh.tsx';
import { useWideTable } from '../../../../components/ui/useWideTable.ts';
import { fieldError } from '../../../../lib/forms.ts';

const UNIT_OPTIONS = GUIDE_UNITS.map((u) => ({ value: u, label: `${u} · ${GUIDE_UNIT_LABELS[u]}` }));

/** The goods (description, quantity, unit, weight) and the documents the guide relates to. */
export function GuideItems({ form }: { form: UseFormReturn<GuideValues> }) {
  const items = useFieldArray({ control: form.control, name: 'items' });
  const related = useFieldArray({ control: form.control, name: 'documentos_relacionados' });
  const { wide, w } = useWideTable();
  const watched = useWatch({ control: form.control, name: 'items' }) ?? [];
  const weights = watched.map((i) =>
    isGuideUnit(i.unidad_de_medida) ? guideItemWeightKg({ quantity: i.cantidad, unit: i.unidad_de_medida, weightKg: i.peso || null }) : null,
  );
  const computed = weights.every((w) => w !== null) && weights.length > 0 ? weights.reduce((a, b) => a!.plus(b!)) : null;

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Bienes trasladados
          </Title>
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => items.append(emptyGuideItem())}>
            Agregar ítem
          </Button>
        </Group>
        <div style={{ overflowX: 'auto' }}>
          {/* Fixed widths on the counter PC; on the 1024 tablet the columns share what there is. */}
          <Table verticalSpacing={4} horizontalSpacing={6} miw={wide ? 800 : undefined}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={w(130)}>Código</Table.Th>
                <Table.Th>Descripción</Table.Th>
                <Table.Th w={w(90)}>Cantidad</Table.Th>
                <Table.Th w={w(170)}>Unidad</Table.Th>
                <Table.Th w={w(110)}>Peso (kg)</Table.Th>
                <ActionsTh w={40} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.fields.map((f, i) => {
                const n = i + 1;
                return (
                  <Table.Tr key={f.id}>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`Código del ítem ${n}`}
                        maxLength={30}
                        {...form.register(`items.${i}.codigo`)}
                        error={fieldError(form, `items.${i}.codigo`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`Descripción del ítem ${n}`}
                        maxLength={250}
                        {...form.register(`items.${i}.descripcion`)}
                        error={fieldError(form, `items.${i}.descripcion`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`Cantidad del ítem ${n}`}
                        inputMode="decimal"
                        {...form.register(`items.${i}.cantidad`)}
                        error={fieldError(form, `items.${i}.cantidad`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Controller
                        control={form.control}
                        name={`items.${i}.unidad_de_medida`}
                        render={({ field }) => (
                          <Select
                            size="xs"
                            aria-label={`Unidad del ítem ${n}`}
                            data={UNIT_OPTIONS}
                            allowDeselect={false}
                            value={field.value}
                            onChange={(v) => field.onChange(v ?? 'NIU')}
                            onBlur={field.onBlur}
                            error={fieldError(form, `items.${i}.unidad_de_medida`)}
                          />
                        )}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`Peso del ítem ${n}`}
                        inputMode="decimal"
                        {...form.register(`items.${i}.peso`)}
                        error={fieldError(form, `items.${i}.peso`)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <RemoveRowButton label={`Quitar el ítem ${n}`} onRemove={() => items.remove(i)} disabled={items.fields.length === 1} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </div>
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Peso bruto total (kg)"
            inputMode="decimal"
            w={200}
            placeholder={computed ? computed.toFixed(3) : ''}
            description={computed ? `En blanco: ${computed.toFixed(3)} kg, la suma de los ítems` : 'En blanco se calcula de los ítems'}
            {...form.register('peso_bruto_total')}
            error={fieldError(form, 'peso_bruto_total')}
          />
        </Group>
        <Group justify="space-between">
          <Title order={3} size="h5">
            Documentos relacionados
          </Title>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            onClick={() => related.append({ tipo: '01', serie: '', numero: '' })}
          >
            Agregar documento
          </Button>
        </Group>
        {related.fields.length === 0 && (
          <Text size="sm" c="dimmed">
            Sin documentos relacionados.
          </Text>
        )}
        {related.fields.map((f, i) => (
          <Group key={f.id} gap="xs" align="flex-end">
            <TextInput
              size="xs"
              w={80}
              label={i === 0 ? 'Tipo' : undefined}
              aria-label={`Tipo del documento relacionado ${i + 1}`}
              maxLength={2}
              {...form.register(`documentos_relacionados.${i}.tipo`)}
              error={fieldError(form, `documentos_relacionados.${i}.tipo`)}
            />
            <TextInput
              size="xs"
              w={90}
              label={i === 0 ? 'Serie' : undefined}
              aria-label={`Serie del documento relacionado ${i + 1}`}
              maxLength={4}
              {...form.register(`documentos_relacionados.${i}.serie`)}
              error={fieldError(form, `documentos_relacionados.${i}.serie`)}
            />
            <TextInput
              size="xs"
              w={120}
              label={i === 0 ? 'Número' : undefined}
              aria-label={`Número del documento relacionado ${i + 1}`}
              maxLength={8}
              {...form.register(`documentos_relacionados.${i}.numero`)}
              error={fieldError(form, `documentos_relacionados.${i}.numero`)}
            />
            <RemoveRowButton label={`Quitar el documento relacionado ${i + 1}`} onRemove={() => related.remove(i)} mb={4} />
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
