import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  canManageArea,
  centsToString,
  manualPaymentRequestSchema,
  needsVoucher,
  PAYMENT_ADDRESS_MAX,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  parseDiscountCents,
  toCents,
  type ManualPaymentResult,
  type PaymentMethod,
  payingParty,
} from '@tramo/domain';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useDocumentLookup } from '../../customers/index.ts';
import { useRegisterPayment, useRetryPayment, type CollectShipment } from '../api/payments.ts';

/** Spec section 9: the DNI/RUC lookup waits for a 600 ms pause. */
const LOOKUP_DEBOUNCE_MS = 600;
const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_NAMES[m] }));
const DOC_OPTIONS = [
  { value: '1', label: 'DNI' },
  { value: '6', label: 'RUC' },
];
const CURRENCY_OPTIONS = [
  { value: 'PEN', label: 'PEN · Soles' },
  { value: 'USD', label: 'USD · Dólares' },
];

type Field =
  | 'shipmentId'
  | 'amount'
  | 'discount'
  | 'discountReason'
  | 'customerDocType'
  | 'customerDocNumber'
  | 'customerName'
  | 'customerAddress'
  | 'currency'
  | 'methodCode'
  | 'providerTxId';

interface Values {
  shipmentId: string;
  amount: string;
  discount: string;
  discountReason: string;
  customerDocType: '1' | '6';
  customerDocNumber: string;
  customerName: string;
  customerAddress: string;
  currency: string;
  methodCode: PaymentMethod;
  providerTxId: string;
}

function initialValues(shipment: CollectShipment | null): Values {
  // The receipt goes to whoever pays: the sender at origin, the recipient or a third party at destination.
  const party = shipment ? payingParty(shipment) : null;
  return {
    shipmentId: shipment ? String(shipment.id) : '',
    amount: shipment ? shipment.quotedPrice.toFixed(2) : '',
    discount: '',
    discountReason: '',
    customerDocType: party?.docNumber.length === 11 ? '6' : '1',
    customerDocNumber: party?.docNumber ?? '',
    customerName: party?.name ?? '',
    customerAddress: '',
    currency: 'PEN',
    methodCode: 'cash',
    providerTxId: '',
  };
}

/**
 * 'Registrar pago del envío': the payment is created pending, its receipt (boleta for a DNI, factura
 * for a RUC) is issued, then it is confirmed; the receipt opens for printing. A failed receipt leaves
 * the payment pending with the reason and a retry that never charges twice.
 */
export function PaymentModal({
  opened,
  shipment,
  choices,
  onClose,
  onPaid,
}: {
  opened: boolean;
  /** The shipment the modal was opened for ('Cobrar', /pagos?shipmentId=); null → choose one. */
  shipment: CollectShipment | null;
  /** Today's unpaid shipments to choose from. */
  choices: readonly CollectShipment[];
  onClose(): void;
  onPaid(result: ManualPaymentResult): void;
}) {
  const [values, setValues] = useState<Values>(() => initialValues(shipment));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<{ message: string; pendingId: number | null } | null>(null);
  const register = useRegisterPayment();
  const retry = useRetryPayment();

  const chosen = shipment ?? choices.find((s) => String(s.id) === values.shipmentId) ?? null;
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  // Only an admin may discount (the API refuses anyone else); the amount due follows the discount.
  const canDiscount = canManageArea(useCurrentUser(), 'discounts');
  const setDiscount = (discount: string) => {
    const cents = parseDiscountCents(discount.trim());
    const due = chosen && cents !== null ? toCents(chosen.quotedPrice) - cents : null;
    set(due !== null && due > 0 ? { discount, amount: centsToString(due) } : { discount });
  };

  // The lookup fills the name of a complete DNI (8) or RUC (11).
  const [doc] = useDebouncedValue(values.customerDocNumber.trim(), LOOKUP_DEBOUNCE_MS);
  const request = /^\d{8}$/.test(doc) ? { kind: 'dni' as const, number: doc } : /^\d{11}$/.test(doc) ? { kind: 'ruc' as const, number: doc } : null;
  const lookup = useDocumentLookup(request);
  const [filledFor, setFilledFor] = useState<string | null>(null);
  if (lookup.data && request && lookup.data.docNumber === request.number && filledFor !== request.number) {
    setFilledFor(request.number);
    // A RUC's address goes on its factura: the lookup's, when it has one, and the counter may change it.
    set({
      ...(lookup.data.name ? { customerName: lookup.data.name } : {}),
      ...(request.kind === 'ruc' && lookup.data.address ? { customerAddress: lookup.data.address } : {}),
    });
  }
  const factura = values.customerDocType === '6' || values.customerDocNumber.trim().length === 11;

  const finish = (result: ManualPaymentResult) => {
    if (result.ok && result.payment.status === 'paid') {
      onPaid(result);
      return;
    }
    setFailure({ message: result.error ?? PAYMENT_MESSAGES.createFailed, pendingId: result.payment.id });
  };

  /** What 'Registrar pago' sends, from what the modal holds. */
  const paymentInput = () => {
    const docNumber = values.customerDocNumber.trim();
    return {
      shipmentId: values.shipmentId,
      customerId: chosen?.senderCustomerId && chosen.senderDoc === docNumber ? chosen.senderCustomerId : null,
      customerName: values.customerName,
      customerDocType: Number(values.customerDocType),
      customerDocNumber: docNumber,
      customerAddress: factura ? values.customerAddress.trim() || null : null,
      amount: values.amount.trim(),
      discount: values.discount.trim() || undefined,
      discountReason: values.discountReason.trim() || null,
      currency: values.currency,
      methodCode: values.methodCode,
      providerTxId: values.providerTxId.trim() || null,
    };
  };
  /** The schema's first message per field. */
  const fieldErrors = (parsed: ReturnType<typeof manualPaymentRequestSchema.safeParse>) => {
    const found: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error?.issues ?? []) found[issue.path[0] as Field] ??= issue.message;
    return found;
  };
  // Issue 38: a field left with a wrong value says so at once; the others wait for their turn or the submit.
  const checkField = (field: Field) => {
    const message = fieldErrors(manualPaymentRequestSchema.safeParse(paymentInput()))[field];
    setErrors(({ [field]: _, ...rest }) => (message ? { ...rest, [field]: message } : rest));
  };

  const submit = () => {
    setFailure(null);
    const input = paymentInput();
    const parsed = manualPaymentRequestSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed));
      return;
    }
    setErrors({});
    register.mutate(
      { ...input, shipmentId: parsed.data.shipmentId, customerDocType: parsed.data.customerDocType },
      {
        onSuccess: finish,
        onError: (err) => {
          // A refusal that names a field (the factura's address) is shown on it.
          if (err instanceof ApiError && err.fields.customerAddress) setErrors({ customerAddress: err.fields.customerAddress });
          setFailure({ message: errorMessage(err, PAYMENT_MESSAGES.createFailed), pendingId: null });
        },
      },
    );
  };

  const retryPending = (id: number) =>
    retry.mutate(id, {
      onSuccess: finish,
      onError: (err) => setFailure({ message: errorMessage(err, PAYMENT_MESSAGES.createFailed), pendingId: id }),
    });

  const voucher = needsVoucher(values.methodCode);
  return (
    <Modal opened={opened} onClose={onClose} title="Registrar pago del envío" size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {shipment ? (
            <Text size="sm">
              Envío <b>{shipment.code}</b> · {shipment.originBranch.name} → {shipment.destinationBranch.name} · {formatMoney(shipment.quotedPrice)}
            </Text>
          ) : (
            <Select
              label="Envío"
              placeholder={choices.length ? 'Elige el envío a cobrar' : 'No hay envíos por cobrar hoy'}
              searchable
              data={choices.map((s) => ({ value: String(s.id), label: `${s.code} · ${s.senderName} · ${formatMoney(s.quotedPrice)}` }))}
              value={values.shipmentId || null}
              error={errors.shipmentId}
              onBlur={() => checkField('shipmentId')}
              onChange={(v) => {
                const next = choices.find((s) => String(s.id) === v) ?? null;
                setValues((prev) => ({ ...initialValues(next), methodCode: prev.methodCode, providerTxId: prev.providerTxId }));
              }}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Monto"
              inputMode="decimal"
              value={values.amount}
              error={errors.amount}
              onBlur={() => checkField('amount')}
              onChange={(e) => set({ amount: e.currentTarget.value })}
            />
            {canDiscount && (
              <>
                <TextInput
                  label="Descuento"
                  inputMode="decimal"
                  placeholder="0.00"
                  value={values.discount}
                  error={errors.discount}
                  onBlur={() => checkField('discount')}
                  onChange={(e) => setDiscount(e.currentTarget.value)}
                />
                <TextInput
                  label="Motivo del descuento"
                  maxLength={200}
                  value={values.discountReason}
                  error={errors.discountReason}
                  onBlur={() => checkField('discountReason')}
                  onChange={(e) => set({ discountReason: e.currentTarget.value })}
                />
              </>
            )}
            <Select
              label="Moneda"
              data={CURRENCY_OPTIONS}
              allowDeselect={false}
              value={values.currency}
              error={errors.currency}
              onChange={(v) => set({ currency: v ?? 'PEN' })}
            />
            <Select
              label="Tipo de documento"
              data={DOC_OPTIONS}
              allowDeselect={false}
              value={values.customerDocType}
              onChange={(v) => set({ customerDocType: v === '6' ? '6' : '1' })}
            />
            <TextInput
              label="Documento del cliente (DNI o RUC)"
              inputMode="numeric"
              maxLength={11}
              value={values.customerDocNumber}
              error={errors.customerDocNumber}
              onBlur={() => checkField('customerDocNumber')}
              description={
                lookup.isFetching
                  ? 'Consultando…'
                  : values.customerDocNumber.trim().length === 11
                    ? 'Se emitirá una factura'
                    : 'Se emitirá una boleta'
              }
              onChange={(e) => set({ customerDocNumber: e.currentTarget.value })}
            />
            <TextInput
              label="Nombre del cliente"
              maxLength={200}
              value={values.customerName}
              error={errors.customerName}
              onBlur={() => checkField('customerName')}
              onChange={(e) => set({ customerName: e.currentTarget.value })}
            />
            {factura && (
              <TextInput
                label="Dirección"
                maxLength={PAYMENT_ADDRESS_MAX}
                value={values.customerAddress}
                error={errors.customerAddress}
                onChange={(e) => {
                  set({ customerAddress: e.currentTarget.value });
                  // The server's refusal of a missing address no longer holds once one is typed.
                  setErrors(({ customerAddress: _, ...rest }) => rest);
                }}
              />
            )}
            <Select
              label="Método de pago"
              data={METHOD_OPTIONS}
              allowDeselect={false}
              value={values.methodCode}
              error={errors.methodCode}
              onChange={(v) => set({ methodCode: (v ?? 'cash') as PaymentMethod })}
            />
            {voucher && (
              <TextInput
                label="ID del voucher u operación"
                maxLength={100}
                value={values.providerTxId}
                error={errors.providerTxId}
                onBlur={() => checkField('providerTxId')}
                onChange={(e) => set({ providerTxId: e.currentTarget.value })}
              />
            )}
          </SimpleGrid>
          {failure && (
            <Alert color="red" variant="light" role="alert">
              <Stack gap="xs">
                <Text size="sm">{failure.message}</Text>
                {failure.pendingId !== null && (
                  <Group>
                    <Text size="xs">El pago quedó pendiente: reintentar no cobra dos veces.</Text>
                    <Button size="xs" variant="light" loading={retry.isPending} onClick={() => retryPending(failure.pendingId!)}>
                      Reintentar
                    </Button>
                  </Group>
                )}
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={register.isPending} disabled={failure?.pendingId != null}>
              Registrar pago
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
