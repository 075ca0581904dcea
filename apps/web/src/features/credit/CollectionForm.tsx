import { useState } from 'react';
import { Checkbox, Select, Table, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import {
  COLLECTION_MESSAGES,
  COLLECTION_METHOD_LABELS,
  COLLECTION_METHODS,
  collectionSchema,
  limaDay,
  type CollectionInput,
  type CollectionValues,
  type CreditAccountDetail,
} from '@tramo/domain';
import { DayInput } from '../../components/ui/DateField.tsx';
import { SideForm } from '../../components/ui/SideForm.tsx';
import { newIdempotencyKey } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { applyServerErrors } from '../../lib/forms.ts';
import { notify } from '../../lib/notify.ts';
import { useRegisterCollection } from './api/credit.ts';

const FIELDS = ['receivedOn', 'method', 'amount', 'bank', 'operationNumber', 'note', 'allocations'] as const;

/**
 * A customer's payment: by default applied to the oldest facturas first (the API does it), or to
 * the facturas and amounts typed here. The idempotency key lives as long as the form, so a retry
 * after a timeout records the collection once.
 */
export function CollectionForm({ account, onDone }: { account: CreditAccountDetail; onDone(): void }) {
  const register = useRegisterCollection();
  const [key] = useState(newIdempotencyKey);
  const [alert, setAlert] = useState<string | null>(null);
  const [choose, setChoose] = useState(false);
  const open = account.invoices.filter((i) => i.open > 0);
  const form = useForm<CollectionInput, unknown, CollectionValues>({
    mode: 'onTouched',
    resolver: zodResolver(collectionSchema),
    defaultValues: {
      customerId: account.customerId,
      receivedOn: limaDay(new Date()),
      method: 'transferencia',
      amount: '',
      bank: '',
      operationNumber: '',
      note: '',
      allocations: [],
    },
  });
  const allocations = useFieldArray({ control: form.control, name: 'allocations' });
  const { errors } = form.formState;

  const toggleChoose = (on: boolean) => {
    setChoose(on);
    allocations.replace(on ? open.map((i) => ({ documentId: i.id, amount: '' })) : []);
  };

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    const chosen = values.allocations.filter((a) => a.amount > 0);
    register.mutate(
      { ...values, allocations: chosen, key },
      {
        onSuccess: () => {
          notify.success(COLLECTION_MESSAGES.saved);
          onDone();
        },
        onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
      },
    );
  });

  return (
    <SideForm onSubmit={onSubmit} alert={alert} submitting={register.isPending} submitLabel="Registrar cobro" onCancel={onDone}>
      <Controller
        control={form.control}
        name="receivedOn"
        render={({ field }) => (
          <DayInput
            label="Fecha del cobro"
            withAsterisk
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.receivedOn?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="method"
        render={({ field }) => (
          <Select
            label="Medio"
            withAsterisk
            data={COLLECTION_METHODS.map((m) => ({ value: m, label: COLLECTION_METHOD_LABELS[m] }))}
            {...field}
            error={errors.method?.message}
          />
        )}
      />
      <TextInput label="Importe (S/)" withAsterisk inputMode="decimal" {...form.register('amount')} error={errors.amount?.message} />
      <TextInput label="Banco" {...form.register('bank')} error={errors.bank?.message} />
      <TextInput label="Número de operación" {...form.register('operationNumber')} error={errors.operationNumber?.message} />
      <Textarea label="Nota" autosize minRows={1} {...form.register('note')} error={errors.note?.message} />
      <Checkbox
        label="Elegir las facturas (si no, se aplica a las más antiguas primero)"
        checked={choose}
        disabled={open.length === 0}
        onChange={(e) => toggleChoose(e.currentTarget.checked)}
      />
      {choose && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Factura</Table.Th>
              <Table.Th ta="right">Saldo</Table.Th>
              <Table.Th>Aplicar (S/)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {allocations.fields.map((f, i) => {
              const invoice = open[i]!;
              return (
                <Table.Tr key={f.id}>
                  <Table.Td>{invoice.number}</Table.Td>
                  <Table.Td ta="right">{formatMoney(invoice.open)}</Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Aplicar a ${invoice.number}`}
                      inputMode="decimal"
                      size="xs"
                      {...form.register(`allocations.${i}.amount`)}
                      error={errors.allocations?.[i]?.amount?.message}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {errors.allocations?.message && <div role="alert">{errors.allocations.message}</div>}
    </SideForm>
  );
}
