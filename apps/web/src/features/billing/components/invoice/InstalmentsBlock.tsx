import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { pendingAmountCents, previewTotals, typedCents, type InvoiceFormValues } from '@tramo/domain';
import { DayInput } from '../../../../components/ui/DateField.tsx';
import { formatMoney } from '../../../../lib/format.ts';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { fieldError } from '../../../../lib/forms.ts';

/** A credit sale's instalments: due date and amount; they must add up to the amount pending (±0.01). */
export function InstalmentsBlock({ form }: { form: UseFormReturn<InvoiceFormValues> }) {
  const rows = useFieldArray({ control: form.control, name: 'instalments' });
  const [items, instalments, detraction] = useWatch({ control: form.control, name: ['items', 'instalments', 'detraction'] });
  const total = previewTotals(items ?? []).totalCents;
  const pending = pendingAmountCents(total, detraction?.enabled ? (typedCents(detraction.amount) ?? 0) : 0);
  const sum = (instalments ?? []).reduce((acc, c) => acc + (typedCents(c.amount) ?? 0), 0);

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Cuotas
        </Title>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => rows.append({ dueDate: '', amount: '' })}>
          Agregar cuota
        </Button>
      </Group>
      <Stack gap="xs">
        {rows.fields.map((field, i) => (
          <Group key={field.id} gap="xs" wrap="nowrap" align="flex-end">
            <Text size="sm" w={70} pb={6}>
              Cuota {i + 1}
            </Text>
            <Controller
              control={form.control}
              name={`instalments.${i}.dueDate`}
              render={({ field: f }) => (
                <DayInput
                  size="xs"
                  w={150}
                  aria-label={`Fecha de pago de la cuota ${i + 1}`}
                  value={f.value}
                  onChange={f.onChange}
                  onBlur={f.onBlur}
                  error={fieldError(form, `instalments.${i}.dueDate`)}
                />
              )}
            />
            <TextInput
              size="xs"
              w={130}
              inputMode="decimal"
              placeholder="0.00"
              aria-label={`Importe de la cuota ${i + 1}`}
              {...form.register(`instalments.${i}.amount`)}
              error={fieldError(form, `instalments.${i}.amount`)}
            />
            <RemoveRowButton label={`Quitar la cuota ${i + 1}`} onRemove={() => rows.remove(i)} mb={4} />
          </Group>
        ))}
        <Text size="sm" c={sum === pending ? 'dimmed' : 'orange.8'}>
          Suma de cuotas {formatMoney(sum / 100)} de {formatMoney(pending / 100)} pendientes de pago
          {detraction?.enabled ? ' (total menos la detracción)' : ''}.
        </Text>
      </Stack>
    </Paper>
  );
}
