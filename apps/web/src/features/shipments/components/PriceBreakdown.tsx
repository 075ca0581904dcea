import { Table, Text } from '@mantine/core';
import { formatMoney } from '../../../lib/format.ts';
import type { Shipment } from '../types.ts';

/**
 * The stored breakdown of a shipment's price (issue 34): what it was charged at registration,
 * component by component, whatever the tables say today. Shipments registered before it have none.
 */
export function PriceBreakdown({ shipment }: { shipment: Shipment }) {
  const components = shipment.priceComponents ?? [];
  if (components.length === 0) return null;
  return (
    <>
      <Table verticalSpacing={2} mt="sm" data-testid="stored-breakdown">
        <Table.Tbody>
          {components.map((c, i) => (
            <Table.Tr key={i}>
              <Table.Td>{c.description}</Table.Td>
              <Table.Td ta="right">{formatMoney(c.amount)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td fw={700}>Total</Table.Td>
            <Table.Td ta="right" fw={700}>
              {formatMoney(shipment.quotedPrice)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {shipment.declaredValue != null && (
        <Text size="sm" mt="xs">
          Valor declarado: {formatMoney(shipment.declaredValue)} · {shipment.insured ? 'Asegurado' : 'Sin seguro'}
        </Text>
      )}
    </>
  );
}
