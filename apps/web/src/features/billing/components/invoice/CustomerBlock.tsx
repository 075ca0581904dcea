import { useEffect, useState } from 'react';
import { Button, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { BILLING_DOC_TYPE_SHORT, customerFields, customerName, isBillingDocType, type InvoiceFormValues } from '@tramo/domain';
import { CustomerPicker, useDocumentLookup } from '../../../customers/index.ts';
import { DOC_TYPE_OPTIONS } from './options.ts';
import { fieldError, recheckShown } from '../../../../lib/forms.ts';

const CUSTOMER_FIELDS = ['docType', 'docNumber', 'name', 'address', 'email'] as const;
type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** Spec section 9: the DNI/RUC lookup waits for a 600 ms pause in typing. */
const LOOKUP_DEBOUNCE_MS = 600;

/** Spec section 2: 8 digits are a DNI, 11 a RUC; anything else is not looked up ('no soportado'). */
function lookupOf(number: string): { kind: 'dni' | 'ruc'; number: string } | 'unsupported' | null {
  const n = number.trim();
  if (n === '') return null;
  if (/^\d{8}$/.test(n)) return { kind: 'dni', number: n };
  if (/^\d{11}$/.test(n)) return { kind: 'ruc', number: n };
  return 'unsupported';
}

/** The customer: a registered one (searched by name or document), or typed in with the DNI/RUC lookup. */
export function CustomerBlock({ form }: { form: UseFormReturn<InvoiceFormValues> }) {
  const [customerId, customer] = useWatch({ control: form.control, name: ['customerId', 'customer'] });
  const [mode, setMode] = useState<'registered' | 'typed'>('registered');

  const [debounced] = useDebouncedValue(customer.docNumber, LOOKUP_DEBOUNCE_MS);
  const target = customerId ? null : lookupOf(debounced);
  const request = target && target !== 'unsupported' ? target : null;
  const lookup = useDocumentLookup(request);
  const answer = request && lookup.data?.docNumber === request.number ? lookup.data : null;

  useEffect(() => {
    if (!answer) return;
    form.setValue('customer.docType', answer.docType === 'ruc' ? '6' : '1');
    form.setValue('customer.name', answer.name);
    if (answer.address) form.setValue('customer.address', answer.address);
    recheckShown(form, 'customer');
  }, [answer, form]);

  const clear = () => {
    form.setValue('customerId', null);
    form.setValue('customer', { docType: '1', docNumber: '', name: '', address: '', email: '' });
    recheckShown(form, 'customer');
  };

  const docType = Number(customer.docType);
  const error = (name: CustomerField) => fieldError(form, `customer.${name}`);
  // Without its inputs on screen (a registered customer, or none picked yet) the customer's problems say themselves here.
  const customerProblem = CUSTOMER_FIELDS.map(error).find(Boolean);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Cliente
        </Title>
        {!customerId && (
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as 'registered' | 'typed')}
            data={[
              { value: 'registered', label: 'Cliente registrado' },
              { value: 'typed', label: 'Ingresar datos' },
            ]}
          />
        )}
      </Group>
      {customerId ? (
        <Group justify="space-between" align="flex-start">
          <Stack gap={0}>
            <Text fw={600}>{customer.name}</Text>
            <Text size="sm" c="dimmed">
              {isBillingDocType(docType) ? BILLING_DOC_TYPE_SHORT[docType] : ''} {customer.docNumber}
              {customer.address ? ` · ${customer.address}` : ''}
            </Text>
            {customerProblem && (
              <Text size="sm" c="red.8" role="alert">
                {customerProblem}
              </Text>
            )}
          </Stack>
          <Button size="xs" variant="default" onClick={clear}>
            Cambiar cliente
          </Button>
        </Group>
      ) : mode === 'registered' ? (
        <CustomerPicker
          label="Buscar cliente"
          value={null}
          error={customerProblem}
          onChange={(c) => {
            if (!c) return;
            const fields = customerFields({ ...c, name: customerName(c) });
            form.setValue('customerId', fields.customerId);
            form.setValue('customer', fields.customer);
            recheckShown(form, 'customer');
          }}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          <Controller
            control={form.control}
            name="customer.docType"
            render={({ field }) => (
              <Select
                label="Tipo de documento"
                data={DOC_TYPE_OPTIONS}
                allowDeselect={false}
                value={field.value}
                onChange={(v) => field.onChange(v ?? '1')}
                onBlur={field.onBlur}
                error={error('docType')}
              />
            )}
          />
          <TextInput
            label="Número de documento"
            maxLength={15}
            autoComplete="off"
            {...form.register('customer.docNumber')}
            error={error('docNumber')}
            rightSection={lookup.isFetching ? <Loader size={14} /> : null}
            description={
              target === 'unsupported'
                ? 'Consulta no soportada: solo DNI de 8 dígitos o RUC de 11.'
                : answer
                  ? `Encontrado en ${answer.docType === 'ruc' ? 'SUNAT' : 'RENIEC'}`
                  : lookup.isError && request
                    ? 'No se encontró el documento; ingresa el nombre.'
                    : undefined
            }
          />
          <TextInput label="Nombre o razón social" maxLength={200} {...form.register('customer.name')} error={error('name')} />
          <TextInput label="Dirección" maxLength={200} {...form.register('customer.address')} error={error('address')} />
          <TextInput label="Correo" type="email" maxLength={200} {...form.register('customer.email')} error={error('email')} />
        </SimpleGrid>
      )}
    </Paper>
  );
}
