import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { customerName, invoiceFromShipments, limaDay, toCents, type Customer, type InvoiceFormValues } from '@tramo/domain';
import { api, errorMessage } from '../../../lib/api.ts';
import { formatDate, formatMoney } from '../../../lib/format.ts';
import { CustomerPicker } from '../../customers/index.ts';
import { useUnbilledShipments } from '../api/documents.ts';

/**
 * Billing a corporate sender: pick the customer, tick some of their unbilled shipments (not Anulado,
 * on no live document), and the issuing form opens pre-filled with one line per shipment — a factura
 * for a RUC (with the detracción block above S/ 400), a boleta otherwise.
 */
export function BillShipments({
  opened,
  onClose,
  onPrepare,
  customerId = null,
}: {
  opened: boolean;
  onClose(): void;
  onPrepare(values: InvoiceFormValues): void;
  /** Opened for a customer (Cuentas por cobrar's row): it comes chosen. */
  customerId?: number | null;
}) {
  // undefined: the user has not chosen yet, so the customer the modal was opened for applies.
  const [chosenCustomer, setCustomer] = useState<Customer | null | undefined>(undefined);
  const preset = useQuery({
    queryKey: ['customers', 'one', customerId],
    queryFn: ({ signal }) => api.get<Customer>(`/customers/${customerId}`, undefined, signal),
    enabled: customerId !== null && chosenCustomer === undefined,
  });
  const customer = chosenCustomer === undefined ? (customerId !== null ? (preset.data ?? null) : null) : chosenCustomer;
  const [picked, setPicked] = useState<number[]>([]);
  const shipments = useUnbilledShipments(customer?.id ?? null);
  const rows = shipments.data ?? [];
  const chosen = rows.filter((s) => picked.includes(s.id));
  const totalCents = chosen.reduce((acc, s) => acc + toCents(s.price), 0);
  const allPicked = rows.length > 0 && chosen.length === rows.length;

  const close = () => {
    setCustomer(undefined);
    setPicked([]);
    onClose();
  };
  const prepare = () => {
    if (!customer) return;
    onPrepare(invoiceFromShipments({ ...customer, name: customerName(customer) }, chosen, limaDay(new Date())));
    close();
  };

  return (
    <Modal opened={opened} onClose={close} title="Facturar envíos de un cliente" size="xl">
      <Stack gap="sm">
        <CustomerPicker
          key={customer?.id ?? 'none'}
          label="Cliente remitente"
          value={customer}
          onChange={(c) => {
            setCustomer(c);
            setPicked([]);
          }}
        />
        {shipments.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(shipments.error)}
          </Alert>
        )}
        {customer && shipments.isSuccess && rows.length === 0 && <Text c="dimmed">Este cliente no tiene envíos por facturar.</Text>}
        {rows.length > 0 && (
          <div style={{ overflowX: 'auto', maxHeight: '50vh' }}>
            <Table verticalSpacing={4} stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Elegir todos"
                      checked={allPicked}
                      indeterminate={chosen.length > 0 && !allPicked}
                      onChange={() => setPicked(allPicked ? [] : rows.map((s) => s.id))}
                    />
                  </Table.Th>
                  <Table.Th>Código</Table.Th>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>Ruta</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th ta="right">Precio</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Elegir ${s.code}`}
                        checked={picked.includes(s.id)}
                        onChange={(e) => {
                          const on = e.currentTarget.checked;
                          setPicked((prev) => (on ? [...prev, s.id] : prev.filter((id) => id !== s.id)));
                        }}
                      />
                    </Table.Td>
                    <Table.Td ff="monospace">{s.code}</Table.Td>
                    <Table.Td>{formatDate(s.createdAt)}</Table.Td>
                    <Table.Td>
                      {s.originName} → {s.destinationName}
                    </Table.Td>
                    <Table.Td>{s.status}</Table.Td>
                    <Table.Td ta="right">{formatMoney(s.price)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
        <Group justify="space-between">
          <Text size="sm">
            {chosen.length === 1 ? '1 envío elegido' : `${chosen.length} envíos elegidos`} · {formatMoney(totalCents / 100)}
            {customer ? ` · se emitirá ${customer.doc_type === 6 ? 'una factura' : 'una boleta'}` : ''}
          </Text>
          <Stack gap={2} align="flex-end">
            <Button disabled={chosen.length === 0} onClick={prepare} aria-describedby="bill-shipments-missing">
              Preparar comprobante
            </Button>
            {/* The disabled button says why, in MissingHint's words ('Falta: …'). */}
            <Text id="bill-shipments-missing" size="sm" c="dimmed">
              {!customer ? 'Falta: cliente remitente' : chosen.length === 0 ? 'Falta: los envíos a facturar' : ''}
            </Text>
          </Stack>
        </Group>
      </Stack>
    </Modal>
  );
}
