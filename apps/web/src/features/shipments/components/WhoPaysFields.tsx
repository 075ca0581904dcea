import { useState } from 'react';
import { Input, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  collectionRulesOf,
  customerName,
  DEFAULT_WHO_PAYS_RULES,
  whoPaysRefusal,
  type Cents,
  type Customer,
  type Payer,
  type PaymentMoment,
} from '@tramo/domain';
import { formatMoney } from '../../../lib/format.ts';
import { CustomerPicker, useDocumentLookup } from '../../customers/index.ts';
import { useCreditStatus, useWhoPaysRules } from '../api/who-pays.ts';

/** The form's who-pays values (issue 33); the domain schema turns '' into the defaults and nulls. */
export interface WhoPaysValues {
  payer: Payer;
  paymentMoment: PaymentMoment;
  payerDocType: '1' | '6';
  payerDocNumber: string;
  payerName: string;
  payerCustomerId: number | null;
}

export const DEFAULT_WHO_PAYS: WhoPaysValues = {
  payer: 'remitente',
  paymentMoment: 'origen',
  payerDocType: '1',
  payerDocNumber: '',
  payerName: '',
  payerCustomerId: null,
};

export type WhoPaysField = 'payer' | 'paymentMoment' | 'payerDocNumber' | 'payerName';

const PAYER_OPTIONS = [
  { value: 'remitente', label: 'Remitente' },
  { value: 'destinatario', label: 'Destinatario' },
  { value: 'tercero', label: 'Tercero' },
];
// 'Crédito' is offered only when the paying customer has an active credit account (issue 35).
const MOMENT_OPTIONS = [
  { value: 'origen', label: 'En origen' },
  { value: 'destino', label: 'En destino' },
];
const CREDIT_OPTION = { value: 'credito', label: 'Crédito' };
const DOC_OPTIONS = [
  { value: '1', label: 'DNI' },
  { value: '6', label: 'RUC' },
];
const LOOKUP_DEBOUNCE_MS = 600;

/** The route and freight the rules judge; null fields while the form is still being filled. */
export interface WhoPaysRoute {
  originBranchId: number | null;
  destinationBranchId: number | null;
  priceCents: Cents | null;
  weightKg: number;
}

/**
 * The rules' refusal of the current choice, in the domain's words, on the field it concerns. The
 * third party's missing document waits for a submit (`errors`): nobody has typed it yet.
 */
function useRuleRefusal(value: WhoPaysValues, route: WhoPaysRoute) {
  const rules = useWhoPaysRules().data ?? DEFAULT_WHO_PAYS_RULES;
  if (value.paymentMoment !== 'destino' || !route.originBranchId || !route.destinationBranchId) return null;
  const routeRule = rules.routes.find((r) => r.originBranchId === route.originBranchId && r.destinationBranchId === route.destinationBranchId);
  const refusal = whoPaysRefusal(
    { ...value, payerDocNumber: 'x', payerName: 'x' },
    {
      rules: collectionRulesOf(rules),
      routeAllowsDestination: routeRule?.destinationAllowed ?? true,
      priceCents: route.priceCents ?? 0,
      weightKg: route.weightKg,
      hasCreditAccount: false,
    },
  );
  return refusal as { field: WhoPaysField; message: string } | null;
}

/**
 * 'Quién paga' and 'Momento de pago' (issue 33): the sender at origin by default; pago en destino
 * is for the recipient or a third party, whose document and name the receipt will carry.
 */
export function WhoPaysFields({
  value,
  onChange,
  route,
  errors = {},
  senderCustomerId = null,
}: {
  value: WhoPaysValues;
  onChange(patch: Partial<WhoPaysValues>): void;
  route: WhoPaysRoute;
  errors?: Partial<Record<WhoPaysField, string | undefined>>;
  /** The registered sender, whose account a credit shipment the sender pays goes to. */
  senderCustomerId?: number | null;
}) {
  const refusal = useRuleRefusal(value, route);
  const errorOf = (field: WhoPaysField) => errors[field] ?? (refusal?.field === field ? refusal.message : undefined);
  const third = value.payer === 'tercero';
  const creditCustomerId = third ? value.payerCustomerId : value.payer === 'remitente' ? senderCustomerId : null;
  const credit = useCreditStatus(creditCustomerId).data;
  const offersCredit = Boolean(credit?.active) || value.paymentMoment === 'credito';

  const [picked, setPicked] = useState<Customer | null>(null);
  const pick = (c: Customer | null) => {
    setPicked(c);
    if (!c) return onChange({ payerCustomerId: null });
    onChange({
      payerCustomerId: c.id,
      payerDocType: c.doc_number.length === 11 ? '6' : '1',
      payerDocNumber: c.doc_number,
      payerName: customerName(c),
    });
  };

  // A complete DNI (8) or RUC (11) typed by hand: the lookup fills the name.
  const [doc] = useDebouncedValue(third ? value.payerDocNumber.trim() : '', LOOKUP_DEBOUNCE_MS);
  const request = /^\d{8}$/.test(doc) ? { kind: 'dni' as const, number: doc } : /^\d{11}$/.test(doc) ? { kind: 'ruc' as const, number: doc } : null;
  const lookup = useDocumentLookup(request);
  const [filledFor, setFilledFor] = useState<string | null>(null);
  if (lookup.data && request && lookup.data.docNumber === request.number && filledFor !== request.number) {
    setFilledFor(request.number);
    if (lookup.data.name && !value.payerName.trim()) onChange({ payerName: lookup.data.name });
  }

  const choosePayer = (payer: Payer) =>
    onChange({ payer, ...(payer === 'remitente' && value.paymentMoment === 'destino' ? { paymentMoment: 'origen' } : {}) });
  // At the destination the sender is not there to pay: choosing it hands the freight to the recipient.
  const chooseMoment = (paymentMoment: PaymentMoment) =>
    onChange({ paymentMoment, ...(paymentMoment === 'destino' && value.payer === 'remitente' ? { payer: 'destinatario' } : {}) });

  return (
    <Stack gap="xs" data-testid="who-pays">
      {/* One row each: three choices need their width in a modal or the form's column. */}
      <Input.Wrapper label="Quién paga" error={errorOf('payer')}>
        <div>
          <SegmentedControl aria-label="Quién paga" data={PAYER_OPTIONS} value={value.payer} onChange={(v) => choosePayer(v as Payer)} />
        </div>
      </Input.Wrapper>
      <Input.Wrapper label="Momento de pago" error={errorOf('paymentMoment')}>
        <div>
          <SegmentedControl
            aria-label="Momento de pago"
            data={offersCredit ? [...MOMENT_OPTIONS, CREDIT_OPTION] : MOMENT_OPTIONS}
            value={value.paymentMoment}
            onChange={(v) => chooseMoment(v as PaymentMoment)}
          />
        </div>
      </Input.Wrapper>
      {value.paymentMoment === 'destino' && route.priceCents !== null && route.priceCents > 0 && !refusal && (
        <Text size="sm" c="orange.9" fw={600}>
          Pago en destino: {formatMoney(route.priceCents / 100)} por cobrar al entregar.
        </Text>
      )}
      {value.paymentMoment === 'credito' && credit?.active && (
        <Text size="sm" c={credit.overdue ? 'red.8' : 'dimmed'}>
          {credit.overdue ? 'Cliente con facturas vencidas.' : `Crédito disponible: ${formatMoney(credit.available ?? 0)}`}
        </Text>
      )}
      {third && (
        <>
          <CustomerPicker label="Buscar tercero" placeholder="Nombre o documento del cliente que paga" value={picked} onChange={pick} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <Select
              label="Tipo de documento"
              data={DOC_OPTIONS}
              allowDeselect={false}
              value={value.payerDocType}
              onChange={(v) => onChange({ payerDocType: v === '6' ? '6' : '1' })}
            />
            <TextInput
              label="Documento del tercero"
              withAsterisk
              inputMode="numeric"
              maxLength={11}
              value={value.payerDocNumber}
              description={lookup.isFetching ? 'Consultando…' : undefined}
              error={errorOf('payerDocNumber')}
              onChange={(e) => {
                const docNumber = e.currentTarget.value.replace(/\D/g, '').slice(0, 11);
                setPicked(null);
                onChange({ payerDocNumber: docNumber, payerCustomerId: null, payerDocType: docNumber.length === 11 ? '6' : value.payerDocType });
              }}
            />
            <TextInput
              label="Nombre del tercero"
              withAsterisk
              maxLength={200}
              value={value.payerName}
              error={errorOf('payerName')}
              onChange={(e) => onChange({ payerName: e.currentTarget.value })}
            />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
