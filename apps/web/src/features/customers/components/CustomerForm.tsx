import { useEffect, useState } from 'react';
import { Alert, Group, Loader, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  CUSTOMER_MESSAGES,
  customerSchema,
  DOC_MAX_LENGTH,
  DOC_TYPE_LABELS,
  DOC_TYPES,
  dniError,
  isDocType,
  rucError,
  rucNeedsAttention,
  type Customer,
  type CustomerData,
  type CustomerInput,
} from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { useLookup, type LookupKind } from '../api/lookup-document.ts';
import { useSaveCustomer } from '../api/save-customer.ts';
import { SideForm } from '../../../components/ui/SideForm.tsx';

/** Spec section 9: the DNI/RUC lookup waits for a 600 ms pause in typing. */
const LOOKUP_DEBOUNCE_MS = 600;

const docTypeOptions = DOC_TYPES.map((t) => ({ value: String(t), label: DOC_TYPE_LABELS[t] }));

type FormField = 'firstName' | 'lastName' | 'doc_type' | 'doc_number' | 'address' | 'ubigeo' | 'phone' | 'email';
const FIELDS: readonly FormField[] = ['firstName', 'lastName', 'doc_type', 'doc_number', 'address', 'ubigeo', 'phone', 'email'];

/** Spec section 8: where a server message goes when the answer names no field. */
function fieldFor(message: string): FormField | null {
  if (/DNI debe tener|RUC debe tener|RUC inválido|dígitos|documento es obligatorio/i.test(message)) return 'doc_number';
  if (/tipo de documento/i.test(message)) return 'doc_type';
  if (/nombres/i.test(message)) return 'firstName';
  return null;
}

/** A complete, valid DNI or RUC worth asking about; anything else is not looked up. */
function lookupRequest(docType: unknown, docNumber: string): { kind: LookupKind; number: string } | null {
  if (docType === '1' && docNumber.length === 8 && !dniError(docNumber)) return { kind: 'dni', number: docNumber };
  if (docType === '6' && docNumber.length === 11 && !rucError(docNumber)) return { kind: 'ruc', number: docNumber };
  return null;
}

export function CustomerForm({ customer, onDone }: { customer: Customer | null; onDone(): void }) {
  const save = useSaveCustomer();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<CustomerInput, unknown, CustomerData>({
    mode: 'onTouched',
    resolver: zodResolver(customerSchema),
    defaultValues: {
      doc_type: customer ? String(customer.doc_type) : '1',
      doc_number: customer?.doc_number ?? '',
      firstName: customer?.firstName ?? '',
      lastName: customer?.lastName ?? '',
      address: customer?.address ?? '',
      ubigeo: customer?.ubigeo ?? '',
      phone: customer?.phone ?? '',
      email: customer?.email ?? '',
    },
  });
  const { errors } = form.formState;
  const [watchedType, watchedNumber] = useWatch({ control: form.control, name: ['doc_type', 'doc_number'] });
  const docType = String(watchedType ?? '');
  const docNumber = watchedNumber ?? '';
  const typeCode = Number(docType);
  const maxLength = isDocType(typeCode) ? DOC_MAX_LENGTH[typeCode] : 15;

  // Editing opens with the stored document: only a number the user changed is looked up.
  const current = `${docType}:${docNumber}`;
  const [debounced] = useDebouncedValue(current, LOOKUP_DEBOUNCE_MS);
  const [debouncedType = '', debouncedNumber = ''] = debounced.split(':');
  const unchanged = customer !== null && debouncedType === String(customer.doc_type) && debouncedNumber === customer.doc_number;
  // While the user is still typing, the previous number's answer (and its warning) no longer applies.
  const settled = debounced === current;
  const request = unchanged || !settled ? null : lookupRequest(debouncedType, debouncedNumber);
  const lookup = useLookup(request);
  const answer = request && lookup.data?.docNumber === request.number ? lookup.data : null;
  const alreadyCustomer = answer?.source === 'clientes';

  useEffect(() => {
    if (!answer || alreadyCustomer) return;
    const fill = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
    form.setValue('firstName', answer.firstName ?? answer.name, fill);
    form.setValue('lastName', answer.lastName ?? '', fill);
    if (answer.address) form.setValue('address', answer.address, fill);
    if (answer.ubigeo) form.setValue('ubigeo', answer.ubigeo, fill);
  }, [answer, alreadyCustomer, form]);

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(
      { ...values, id: customer?.id },
      {
        onSuccess: () => {
          notify.success(customer ? 'Cliente actualizado.' : 'Cliente creado.');
          onDone();
        },
        onError: (err) => {
          // Spec section 8: a taken document reads the same whatever the server said.
          if (err.message.includes('Documento ya registrado')) {
            form.setError('doc_number', { type: 'server', message: CUSTOMER_MESSAGES.duplicateForm }, { shouldFocus: true });
            return;
          }
          const field = err instanceof ApiError && Object.keys(err.fields).length === 0 ? fieldFor(err.message) : null;
          if (field) {
            form.setError(field, { type: 'server', message: err.message });
            return;
          }
          setAlert(applyServerErrors(err, form.setError, FIELDS));
        },
      },
    );
  });

  const lookupNote = (() => {
    if (!request) return null;
    if (lookup.isFetching) {
      return (
        <Group gap={6}>
          <Loader size={12} />
          <Text size="xs" c="dimmed">
            Consultando {request.kind === 'dni' ? 'RENIEC' : 'SUNAT'}…
          </Text>
        </Group>
      );
    }
    if (alreadyCustomer)
      return (
        <Text size="xs" c="orange.8">
          Este documento ya pertenece a un cliente registrado.
        </Text>
      );
    if (answer)
      return (
        <Text size="xs" c="teal.8">
          Datos completados desde la consulta {request.kind === 'dni' ? 'DNI' : 'RUC'}.
        </Text>
      );
    if (lookup.isError) {
      const msg =
        lookup.error instanceof ApiError && lookup.error.status === 404 ? 'No se encontraron datos; complete a mano.' : lookup.error.message;
      return (
        <Text size="xs" c="dimmed">
          {msg}
        </Text>
      );
    }
    return null;
  })();

  return (
    <SideForm
      onSubmit={onSubmit}
      alert={alert}
      submitting={save.isPending}
      submitLabel={customer ? 'Guardar cambios' : 'Crear cliente'}
      onCancel={onDone}
    >
      <SimpleGrid cols={2} spacing="sm">
        <Controller
          control={form.control}
          name="doc_type"
          render={({ field }) => (
            <Select
              label="Tipo de documento"
              // The drawer opens on the first field, not on its close button (issue 16, item 11).
              data-autofocus
              withAsterisk
              data={docTypeOptions}
              allowDeselect={false}
              value={field.value === undefined || field.value === null ? null : String(field.value)}
              onChange={(v) => field.onChange(v ?? '')}
              onBlur={field.onBlur}
              error={errors.doc_type?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="doc_number"
          render={({ field }) => (
            <TextInput
              label="Número de documento"
              withAsterisk
              autoFocus
              inputMode="numeric"
              autoComplete="off"
              value={field.value ?? ''}
              // Digits only, never longer than the type allows (spec section 5). No maxLength attribute:
              // it would cut a pasted '41 526 374' before the spaces are stripped.
              onChange={(e) => field.onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, maxLength))}
              onBlur={field.onBlur}
              ref={field.ref}
              error={errors.doc_number?.message}
            />
          )}
        />
      </SimpleGrid>
      {lookupNote}
      {answer && answer.docType === 'ruc' && rucNeedsAttention(answer) && (
        <Alert color="yellow" variant="light" title="RUC observado en SUNAT" data-testid="ruc-warning">
          Estado: {answer.estado ?? '—'} · Condición: {answer.condicion ?? '—'}. Puede guardar el cliente, pero verifique antes de emitirle
          comprobantes.
        </Alert>
      )}
      <TextInput
        label={docType === '6' ? 'Nombres / Razón social' : 'Nombres'}
        withAsterisk
        {...form.register('firstName')}
        error={errors.firstName?.message}
      />
      <TextInput label="Apellidos" {...form.register('lastName')} error={errors.lastName?.message} />
      <TextInput label="Dirección" {...form.register('address')} error={errors.address?.message} />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput
          label="Ubigeo"
          inputMode="numeric"
          placeholder="150101"
          // '15 01 01' is the same code; no maxLength, or a paste is cut before the spaces go.
          {...form.register('ubigeo', { setValueAs: (v: string) => v.replace(/\s/g, '') })}
          error={errors.ubigeo?.message}
        />
        <TextInput label="Teléfono" type="tel" {...form.register('phone')} error={errors.phone?.message} />
      </SimpleGrid>
      <TextInput label="Correo" type="email" {...form.register('email')} error={errors.email?.message} />
    </SideForm>
  );
}
