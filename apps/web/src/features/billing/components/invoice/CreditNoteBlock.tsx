import { useState } from 'react';
import { Paper, Select, SimpleGrid, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { formatDocumentNumber, type CreditableDocument, type InvoiceFormValues } from '@tramo/domain';
import { formatMoney } from '../../../../lib/format.ts';
import { useCreditableDocuments } from '../../api/documents.ts';
import { REASON_OPTIONS } from './options.ts';
import { fieldError, recheckShown } from '../../../../lib/forms.ts';

const keyOf = (type: string, series: string, number: string | number) => `${type}|${series}|${number}`;
const TYPE_LABEL: Record<string, string> = { '01': 'Factura', '03': 'Boleta' };

/**
 * The document a credit note modifies, picked from the register (SUNAT 2119-2121: only accepted
 * facturas and boletas, the customer's when one is chosen, each with what is left to credit), and
 * why (catalogue 09). Picking it fills the customer and proposes the series of its type.
 */
export function CreditNoteBlock({ form, onModifiedType }: { form: UseFormReturn<InvoiceFormValues>; onModifiedType(): void }) {
  const [note, customer, customerId] = useWatch({ control: form.control, name: ['creditNote', 'customer', 'customerId'] });
  const [search, setSearch] = useState('');
  // What the user typed; the picked option's label also fills the input, and that is not a search.
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 300);
  // A registered customer's documents only; without one, the search looks in the whole register.
  const docNumber = customerId ? customer.docNumber : '';
  const documents = useCreditableDocuments(docNumber, debounced);
  const rows = documents.data ?? [];
  const current = note.modifiedSeries && note.modifiedNumber ? keyOf(note.modifiedType, note.modifiedSeries, note.modifiedNumber) : null;
  const options = rows.map((d) => ({
    value: keyOf(d.type, d.series, d.number),
    label: `${formatDocumentNumber(d.series, d.number)} · ${TYPE_LABEL[d.type]} · ${d.customerName} · queda ${formatMoney(d.creditable)}`,
  }));
  // The document the form came with (from its drawer) stays shown while the list loads or is filtered.
  if (current && !options.some((o) => o.value === current)) {
    options.unshift({
      value: current,
      label: `${formatDocumentNumber(note.modifiedSeries, Math.max(1, Number(note.modifiedNumber) || 1))} · ${TYPE_LABEL[note.modifiedType] ?? ''}`,
    });
  }
  const picked: CreditableDocument | undefined = rows.find((d) => keyOf(d.type, d.series, d.number) === current);

  const pick = (value: string | null) => {
    const doc = rows.find((d) => keyOf(d.type, d.series, d.number) === value);
    if (!doc) {
      form.setValue('creditNote', { ...form.getValues('creditNote'), modifiedType: '', modifiedSeries: '', modifiedNumber: '' });
      onModifiedType();
      return;
    }
    form.setValue('creditNote', {
      ...form.getValues('creditNote'),
      modifiedType: doc.type,
      modifiedSeries: doc.series,
      modifiedNumber: String(doc.number),
    });
    if (!form.getValues('customerId') || form.getValues('customer.docNumber') !== doc.customerDocNumber) {
      form.setValue('customerId', doc.customerId);
      form.setValue('customer', {
        docType: doc.customerDocType,
        docNumber: doc.customerDocNumber,
        name: doc.customerName,
        address: form.getValues('customer.address'),
        email: form.getValues('customer.email'),
      });
    }
    onModifiedType();
    recheckShown(form, 'creditNote');
    recheckShown(form, 'customer');
  };

  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Documento que se modifica
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
        <Select
          label="Documento que se modifica"
          placeholder="Busca por número (FFF1-12) o cliente"
          searchable
          clearable
          data={options}
          value={current}
          onChange={pick}
          searchValue={search}
          onSearchChange={(typed) => {
            setSearch(typed);
            setQuery(options.some((o) => o.label === typed) ? '' : typed);
          }}
          filter={({ options: all }) => all}
          nothingFoundMessage={documents.isFetching ? 'Buscando…' : 'Ningún comprobante aceptado coincide'}
          description={
            picked
              ? `Total ${formatMoney(picked.total)} · queda por acreditar ${formatMoney(picked.creditable)}${picked.paymentForm === 'credito' ? ' · al crédito' : ''}`
              : 'Solo comprobantes aceptados por SUNAT (ni anulados ni rechazados)'
          }
          error={
            fieldError(form, 'creditNote.modifiedType') ??
            fieldError(form, 'creditNote.modifiedSeries') ??
            fieldError(form, 'creditNote.modifiedNumber')
          }
          style={{ gridColumn: 'span 2' }}
          comboboxProps={{ width: 'target' }}
        />
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
              onBlur={field.onBlur}
              error={fieldError(form, 'creditNote.reason')}
            />
          )}
        />
      </SimpleGrid>
      {note.reason === '13' && (
        <Text size="sm" c="dimmed" mt="xs">
          Motivo 13: la nota va con importe 0 (ítems con valor 0) y lleva las nuevas cuotas de la factura al crédito, que deben sumar lo que queda por
          pagar.
        </Text>
      )}
    </Paper>
  );
}
