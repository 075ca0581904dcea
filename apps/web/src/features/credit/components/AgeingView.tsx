import { useState } from 'react';
import { Alert, Anchor, Badge, Checkbox, Table, Text, Title } from '@mantine/core';
import { AGEING_BUCKET_LABELS, AGEING_BUCKETS, type CreditAgeingAnswer } from '@tramo/domain';
import { PageSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatMoney } from '../../../lib/format.ts';
import { useCreditAgeing } from '../api/credit.ts';
import { WHOLE_CHIP } from '../chips.ts';

type Amounts = CreditAgeingAnswer['totals'];

/** The bucket cells of a row: overdue money in red, what is not yet due plain. */
function BucketCells({ amounts, emphasize }: { amounts: Amounts; emphasize: boolean }) {
  return (
    <>
      {AGEING_BUCKETS.map((b) => (
        <Table.Td key={b} ta="right" c={emphasize && amounts[b] > 0 && b !== 'porVencer' ? 'red' : undefined}>
          {formatMoney(amounts[b])}
        </Table.Td>
      ))}
      <Table.Td ta="right">{formatMoney(amounts.total)}</Table.Td>
    </>
  );
}

function BucketHeads({ first }: { first: string }) {
  return (
    <Table.Tr>
      <Table.Th>{first}</Table.Th>
      {AGEING_BUCKETS.map((b) => (
        // 'Más de 90 días' on one line: a bucket's label is read as one word.
        <Table.Th key={b} ta="right" style={{ whiteSpace: 'nowrap' }}>
          {AGEING_BUCKET_LABELS[b]}
        </Table.Th>
      ))}
      <Table.Th ta="right">Facturas</Table.Th>
    </Table.Tr>
  );
}

/**
 * Antigüedad de saldos of the credit accounts (issue 35): each customer's open facturas by how
 * long they are overdue, the totals, and the same totals per branch that issued them. 'Sobre su
 * límite' keeps only the customers whose balance passed their limit. `onOpen` makes a name open
 * the account ('Crédito'); without it names are text.
 */
export function AgeingView({ onOpen }: { onOpen?(customerId: number): void }) {
  const [overLimit, setOverLimit] = useState(false);
  const ageing = useCreditAgeing(overLimit);
  return (
    <>
      <Checkbox label="Sobre su límite" checked={overLimit} onChange={(e) => setOverLimit(e.currentTarget.checked)} mb="sm" />
      {ageing.isPending ? (
        <PageSkeleton />
      ) : ageing.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(ageing.error, 'No se pudo cargar la antigüedad de saldos.')}
        </Alert>
      ) : ageing.data.items.length === 0 ? (
        <Text c="dimmed">{overLimit ? 'Ningún cliente está sobre su límite.' : 'Ningún cliente tiene cuenta de crédito.'}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped style={{ opacity: ageing.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <BucketHeads first="Cliente" />
              </Table.Thead>
              <Table.Tbody>
                {ageing.data.items.map((i) => (
                  <Table.Tr key={i.customerId}>
                    <Table.Td>
                      {onOpen ? (
                        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => onOpen(i.customerId)} className="user-text">
                          {i.customerName}
                        </Anchor>
                      ) : (
                        <Text size="sm" className="user-text">
                          {i.customerName}
                        </Text>
                      )}
                      <Text size="xs" c="dimmed">
                        Saldo {formatMoney(i.balance)} de {formatMoney(i.limit)}
                      </Text>
                      {i.overLimit && (
                        <Badge variant="light" color="red" tt="none" styles={WHOLE_CHIP}>
                          Sobre su límite
                        </Badge>
                      )}
                    </Table.Td>
                    <BucketCells amounts={i} emphasize />
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr fw={700}>
                  <Table.Td>Total</Table.Td>
                  <BucketCells amounts={ageing.data.totals} emphasize={false} />
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
          {ageing.data.branches.length > 0 && (
            <>
              <Title order={3} size="h5" mt="md" mb="xs">
                Totales por sucursal
              </Title>
              <Table.ScrollContainer minWidth={720}>
                <Table striped aria-label="Totales por sucursal">
                  <Table.Thead>
                    <BucketHeads first="Sucursal que facturó" />
                  </Table.Thead>
                  <Table.Tbody>
                    {ageing.data.branches.map((b) => (
                      <Table.Tr key={b.branchId ?? 0}>
                        <Table.Td>{b.branchName}</Table.Td>
                        <BucketCells amounts={b} emphasize />
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </>
          )}
        </>
      )}
    </>
  );
}
