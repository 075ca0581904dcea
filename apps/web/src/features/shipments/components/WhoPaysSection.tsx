import { Paper, Title } from '@mantine/core';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { toCents } from '@tramo/domain';
import type { ShipmentFormValues } from './shipment-form.ts';
import { WhoPaysFields, type WhoPaysValues } from './WhoPaysFields.tsx';

const KEYS = ['payer', 'paymentMoment', 'payerDocType', 'payerDocNumber', 'payerName', 'payerCustomerId'] as const;

/** The new-shipment form's 'Quién paga' box: the form's values through WhoPaysFields, judged on its route and total. */
export function WhoPaysSection({
  form,
  total,
  weightKg,
}: {
  form: UseFormReturn<ShipmentFormValues, unknown, unknown>;
  total: number | null;
  weightKg: number;
}) {
  const watched = useWatch({ control: form.control, name: [...KEYS, 'originBranchId', 'destinationBranchId', 'senderCustomerId'] });
  const value = Object.fromEntries(KEYS.map((k, i) => [k, watched[i]])) as unknown as WhoPaysValues;
  const { errors } = form.formState;
  const onChange = (patch: Partial<WhoPaysValues>) => {
    for (const [key, v] of Object.entries(patch)) {
      form.setValue(key as (typeof KEYS)[number], v as never, { shouldValidate: form.formState.isSubmitted });
    }
  };
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="xs">
        Pago del flete
      </Title>
      <WhoPaysFields
        value={value}
        onChange={onChange}
        senderCustomerId={watched[8]}
        route={{
          originBranchId: watched[6],
          destinationBranchId: watched[7],
          priceCents: total === null ? null : toCents(total),
          weightKg,
        }}
        errors={{
          payer: errors.payer?.message,
          paymentMoment: errors.paymentMoment?.message,
          payerDocNumber: errors.payerDocNumber?.message ?? errors.payerDocType?.message,
          payerName: errors.payerName?.message,
        }}
      />
    </Paper>
  );
}
