import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import type { InvoiceFormValues } from '@tramo/domain';
import { GUIDE_OPTIONS } from './options.ts';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { fieldError } from '../../../../lib/forms.ts';

/** Dispatch guides the document refers to (type 1 remitente, 2 transportista; series 3–4 characters). */
export function GuidesBlock({ form }: { form: UseFormReturn<InvoiceFormValues> }) {
  const guides = useFieldArray({ control: form.control, name: 'guides' });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb={guides.fields.length ? 'sm' : 0}>
        <Title order={2} size="h4">
          Guías referenciadas
        </Title>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => guides.append({ type: '2', serie: '', numero: '' })}>
          Agregar guía
        </Button>
      </Group>
      {guides.fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          Sin guías.
        </Text>
      ) : (
        <Stack gap="xs">
          {guides.fields.map((field, i) => (
            <Group key={field.id} gap="xs" wrap="nowrap" align="flex-end">
              <Controller
                control={form.control}
                name={`guides.${i}.type`}
                render={({ field: f }) => (
                  <Select
                    size="xs"
                    label={i === 0 ? 'Tipo' : undefined}
                    aria-label={`Tipo de la guía ${i + 1}`}
                    data={GUIDE_OPTIONS}
                    w={260}
                    allowDeselect={false}
                    value={f.value}
                    onChange={(v) => f.onChange(v ?? '2')}
                    onBlur={f.onBlur}
                    error={fieldError(form, `guides.${i}.type`)}
                  />
                )}
              />
              <TextInput
                size="xs"
                label={i === 0 ? 'Serie' : undefined}
                aria-label={`Serie de la guía ${i + 1}`}
                maxLength={4}
                w={90}
                {...form.register(`guides.${i}.serie`, { setValueAs: (v: string) => v.toUpperCase() })}
                error={fieldError(form, `guides.${i}.serie`)}
              />
              <TextInput
                size="xs"
                label={i === 0 ? 'Número' : undefined}
                aria-label={`Número de la guía ${i + 1}`}
                inputMode="numeric"
                maxLength={8}
                w={120}
                {...form.register(`guides.${i}.numero`)}
                error={fieldError(form, `guides.${i}.numero`)}
              />
              <RemoveRowButton label={`Quitar la guía ${i + 1}`} onRemove={() => guides.remove(i)} mb={4} />
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
