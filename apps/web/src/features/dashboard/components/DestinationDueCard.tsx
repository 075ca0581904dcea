import { Button, Group, Paper, Skeleton, Text } from '@mantine/core';
import { Link } from 'react-router';
import { WHO_PAYS_MONEY_MESSAGES } from '@tramo/domain';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { useDestinationDue } from '../api/get-destination-due.ts';

/**
 * 'Por cobrar en destino' (issue 33): the pago en destino shipments the agent's branch collects
 * (waiting there or on their way), their freight, and a way to /pagos, where they are collected.
 */
export function DestinationDueCard() {
  const due = useDestinationDue();
  const d = due.data;
  return (
    <Paper withBorder p="sm" aria-label={`Contador ${WHO_PAYS_MONEY_MESSAGES.destinationDue}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {WHO_PAYS_MONEY_MESSAGES.destinationDue}
        {d?.branchName ? ` · ${d.branchName}` : ''}
      </Text>
      {d === undefined ? (
        <Skeleton height={30} mt={4} width={120} />
      ) : (
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" align="baseline" wrap="nowrap">
            <Text fz={26} fw={700} c={d.count > 0 ? 'grape.8' : 'dark'} data-testid="counter-destination-due">
              {formatNumber(d.count)}
            </Text>
            <Text size="sm" ff="monospace" fw={600}>
              {formatMoney(d.amount)}
            </Text>
          </Group>
          {d.count > 0 && (
            <Button component={Link} to="/pagos" variant="light" color="grape" size="xs" style={{ flexShrink: 0 }}>
              Cobrar
            </Button>
          )}
        </Group>
      )}
      {d !== undefined && d.count > 0 && (
        <Text size="xs" mt={4} c="dark.4">
          {d.waitingCount === d.count
            ? 'Ya en agencia.'
            : `${formatNumber(d.waitingCount)} en agencia, ${formatNumber(d.count - d.waitingCount)} en camino.`}
        </Text>
      )}
    </Paper>
  );
}
