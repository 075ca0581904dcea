import { Paper, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import type { InvoiceFormValues } from '@tramo/domain';
import { MODIFIED_TYPE_OPTIONS, REASON_OPTIONS } from './options.ts';

/** The document a credit note modifies, and why (catalogue 09). Its type decides the series. */
export function CreditNoteBlock({ form, onModifiedType }: { form: UseFormReturn<InvoiceFormValues>; onModifiedType(): void }) {
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Documento que se modifica
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <Controller
          control={form.control}
          name="creditNote.modifiedType"
          render={({ field }) => (
            <Select
              label="Tipo del documento"
              placeholder="Elige"
              data={MODIFIED_TYPE_OPTIONS}
              value={field.value || null}
              onChange={(v) => {
                field.onChange(v ?? '');
                onModifiedType();
              }}
            />
          )}
        />
        <TextInput
          label="Serie del documento"
          maxLength={4}
          {...form.register('creditNote.modifiedSeries', { setValueAs: (v: string) => v.toUpperCase() })}
        />
        <TextInput label="Número del documento" inputMode="numeric" maxLength={8} {...form.register('creditNote.modifiedNumber')} />
        <Controller
          control={form.control}
          name="creditNote.reason"
          render={({ field }) => (
            <Select
              label="Motivo"
              placeholder="Elige el motivo"
              data={REASON_OPTIONS}
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
            />
          )}
        />
      </SimpleGrid>
    </Paper>
  );
}
