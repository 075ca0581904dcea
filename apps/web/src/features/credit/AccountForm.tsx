import { useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import {
  CREDIT_ACCOUNT_STATUS_LABELS,
  CREDIT_ACCOUNT_STATUSES,
  CREDIT_MESSAGES,
  CREDIT_PERIOD_LABELS,
  CREDIT_PERIODS,
  creditAccountSchema,
  type CreditAccountAnswer,
  type CreditAccountInput,
  type CreditAccountValues,
} from '@tramo/domain';
import { SideForm } from '../../components/ui/SideForm.tsx';
import { applyServerErrors } from '../../lib/forms.ts';
import { notify } from '../../lib/notify.ts';
import { useRucCustomers, useSaveAccount } from './api/credit.ts';

const FIELDS = ['limit', 'termsDays', 'period', 'status', 'contactName', 'contactEmail', 'contactPhone'] as const;
const options = <K extends string>(keys: readonly K[], labels: Record<K, string>) => keys.map((k) => ({ value: k, label: labels[k] }));

/** Opens or changes a RUC customer's credit account: limit, terms, invoicing period, contact, status. */
export function AccountForm({ account, onDone }: { account: CreditAccountAnswer | null; onDone(): void }) {
  const save = useSaveAccount();
  const [alert, setAlert] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [customerId, setCustomerId] = useState<number | null>(account?.customerId ?? null);
  const [customerError, setCustomerError] = useState<string | null>(null);
  const customers = useRucCustomers(search);
  const form = useForm<CreditAccountInput, unknown, CreditAccountValues>({
    mode: 'onTouched',
    resolver: zodResolver(creditAccountSchema),
    defaultValues: {
      limit: account ? String(account.limit) : '',
      termsDays: account?.termsDays ?? 30,
      period: account?.period ?? 'mensual',
      status: account?.status ?? 'activa',
      contactName: account?.contactName ?? '',
      contactEmail: account?.contactEmail ?? '',
      contactPhone: account?.contactPhone ?? '',
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    if (customerId === null) {
      setCustomerError('Elige un cliente con RUC.');
      return;
    }
    save.mutate(
      { ...values, customerId },
      {
        onSuccess: () => {
          notify.success(CREDIT_MESSAGES.saved);
          onDone();
        },
        onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
      },
    );
  });

  return (
    <SideForm onSubmit={onSubmit} alert={alert} submitting={save.isPending} submitLabel="Guardar" onCancel={onDone}>
      {account ? (
        <TextInput label="Cliente" value={`${account.customerName} · RUC ${account.docNumber}`} readOnly />
      ) : (
        <Select
          label="Cliente"
          withAsterisk
          searchable
          placeholder="Razón social o RUC"
          searchValue={search}
          onSearchChange={setSearch}
          data={(customers.data ?? []).map((c) => ({
            value: String(c.id),
            label: `${[c.firstName, c.lastName].filter(Boolean).join(' ')} · RUC ${c.doc_number}`,
          }))}
          value={customerId === null ? null : String(customerId)}
          onChange={(v) => {
            setCustomerId(v ? Number(v) : null);
            setCustomerError(null);
          }}
          nothingFoundMessage="Ningún cliente con RUC coincide"
          error={customerError}
        />
      )}
      <TextInput label="Límite de crédito (S/)" withAsterisk inputMode="decimal" {...form.register('limit')} error={errors.limit?.message} />
      <TextInput label="Plazo (días)" withAsterisk inputMode="numeric" {...form.register('termsDays')} error={errors.termsDays?.message} />
      <Controller
        control={form.control}
        name="period"
        render={({ field }) => (
          <Select
            label="Periodo de facturación"
            withAsterisk
            data={options(CREDIT_PERIODS, CREDIT_PERIOD_LABELS)}
            {...field}
            error={errors.period?.message}
          />
        )}
      />
      <Controller
        control={form.control}
        name="status"
        render={({ field }) => (
          <Select
            label="Estado"
            data={options(CREDIT_ACCOUNT_STATUSES, CREDIT_ACCOUNT_STATUS_LABELS)}
            {...field}
            value={field.value ?? 'activa'}
            error={errors.status?.message}
          />
        )}
      />
      <TextInput label="Contacto para estados de cuenta" withAsterisk {...form.register('contactName')} error={errors.contactName?.message} />
      <TextInput label="Correo del contacto" type="email" {...form.register('contactEmail')} error={errors.contactEmail?.message} />
      <TextInput
        label="Teléfono del contacto"
        inputMode="tel"
        maxLength={9}
        {...form.register('contactPhone')}
        error={errors.contactPhone?.message}
      />
    </SideForm>
  );
}
