import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { customerName, type Branch, type Customer } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { CustomerPicker } from '../../customers/index.ts';
import { useCustomerTariff, usePutCustomerTariff } from '../api/tariffs.ts';
import { CustomerRoutePricesEditor } from './CustomerRoutePrices.tsx';
import { ErrorAlert } from './shared.tsx';

/** 'Tarifas de cliente': a sender's negotiated discount on the route tariffs (customer → article → route). */
export function CustomersTab({ branches }: { branches: readonly Branch[] }) {
  const [customer, setCustomer] = useState<Customer | null>(null);
  return (
    <Paper withBorder p="sm" maw={640}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          Tarifas de cliente
        </Title>
        <Text size="sm" c="dark.4">
          Un descuento sobre el flete de las tarifas de ruta, o tramos y precios de artículos propios en una ruta (tienen prioridad sobre el descuento
          en esa ruta).
        </Text>
        <CustomerPicker label="Cliente" value={customer} onChange={setCustomer} />
        {customer && <CustomerDiscount key={customer.id} customer={customer} />}
        {customer && <CustomerRoutePricesEditor key={`p${customer.id}`} customerId={customer.id} branches={branches} />}
      </Stack>
    </Paper>
  );
}

function CustomerDiscount({ customer }: { customer: Customer }) {
  const tariff = useCustomerTariff(customer.id);
  const put = usePutCustomerTariff();
  const [discount, setDiscount] = useState<string | null>(null);
  const shown = discount ?? (tariff.data ? String(tariff.data.discount) : '');
  return (
    <>
      <Text size="sm">
        {customerName(customer)}: {tariff.data ? `descuento actual ${tariff.data.discount} %` : '…'}
      </Text>
      <Group align="flex-end" gap="xs">
        <TextInput label="Descuento (%)" value={shown} onChange={(e) => setDiscount(e.currentTarget.value)} w={130} inputMode="decimal" />
        <Button
          loading={put.isPending}
          onClick={() =>
            put.mutate({ customerId: customer.id, discount: shown }, { onSuccess: () => notify.success('Tarifa del cliente guardada.') })
          }
        >
          Guardar descuento
        </Button>
      </Group>
      <ErrorAlert error={put.error} />
    </>
  );
}
