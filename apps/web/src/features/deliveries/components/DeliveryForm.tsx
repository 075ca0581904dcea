import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, PasswordInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  agentDeliveredByName,
  agentOptions,
  canConfirmDelivery,
  DELIVERY_MESSAGES,
  deliverySchema,
  deliveryWarning,
  type Delivery,
  type DeliveryInput,
} from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import type { Shipment } from '../../shipments/index.ts';
import { useDeliverShipment } from '../api/deliver-shipment.ts';
import { useDeliveryAgents } from '../api/get-agents.ts';
import { placeDeliveryError } from './delivery-errors.ts';

/** 'Confirmar entrega': the receiver's secret code, who receives, who hands over, notes. */
export function DeliveryForm({ shipment }: { shipment: Shipment }) {
  const me = useCurrentUser();
  const agents = useDeliveryAgents();
  const deliver = useDeliverShipment();
  const options = useMemo(() => agentOptions(agents.data ?? []), [agents.data]);
  const [agentId, setAgentId] = useState<string | null>(null);

  const form = useForm<DeliveryInput, unknown, Delivery>({
    resolver: zodResolver(deliverySchema),
    // Spec section 4: the receiver prefills from the shipment's recipient.
    defaultValues: { secretCode: '', receiverName: shipment.recipientName, receiverDoc: shipment.recipientDoc, deliveredByName: '', notes: '' },
  });
  const { errors } = form.formState;

  const pickAgent = (id: string | null) => {
    setAgentId(id);
    const agent = agents.data?.find((a) => String(a.id) === id);
    form.setValue('deliveredByName', agent ? agentDeliveredByName(agent) : '', { shouldValidate: form.formState.isSubmitted });
  };

  // The person at the counter usually hands the parcel over: preselect them when they are in the list.
  useEffect(() => {
    if (agentId === null && agents.data?.some((a) => a.id === me.id)) pickAgent(String(me.id));
  }, [agents.data]);

  const warning = deliveryWarning(shipment.status);
  const allowed = canConfirmDelivery(me, shipment.destinationBranchId);
  const delivered = shipment.status === 'Entregado' || !!shipment.deliveredInfo;

  const onSubmit = form.handleSubmit((values) => {
    deliver.mutate(
      { ...values, id: shipment.id },
      {
        onSuccess: () => notify.success(DELIVERY_MESSAGES.delivered),
        onError: (err) => {
          const placed = placeDeliveryError(err);
          form.setError(placed.field, { type: 'server', message: placed.message }, { shouldFocus: true });
          notify.error(placed.message, DELIVERY_MESSAGES.failed);
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Confirmar entrega">
      <Stack gap="sm">
        {warning && (
          <Alert color="orange" variant="light" role="alert">
            {warning}
          </Alert>
        )}
        {!allowed && (
          <Alert color="gray" variant="light">
            Solo la sucursal de destino ({shipment.destinationBranch.name}) o un administrador pueden confirmar esta entrega.
          </Alert>
        )}
        <PasswordInput
          label="Clave secreta"
          description="La que dicta quien recibe"
          withAsterisk
          autoComplete="off"
          autoFocus
          {...form.register('secretCode')}
          error={errors.secretCode?.message}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Nombre de quien recibe" withAsterisk {...form.register('receiverName')} error={errors.receiverName?.message} />
          <TextInput label="Documento de quien recibe" withAsterisk {...form.register('receiverDoc')} error={errors.receiverDoc?.message} />
        </SimpleGrid>
        {agents.isError ? (
          <TextInput
            label="Entregado por"
            withAsterisk
            description={DELIVERY_MESSAGES.agentsFailed}
            {...form.register('deliveredByName')}
            error={errors.deliveredByName?.message}
          />
        ) : (
          <Select
            label="Entregado por"
            withAsterisk
            placeholder={agents.isPending ? 'Cargando…' : 'Selecciona quién entrega'}
            data={options}
            value={agentId}
            onChange={pickAgent}
            searchable
            nothingFoundMessage="Sin resultados."
            error={errors.deliveredByName?.message}
          />
        )}
        <Textarea label="Notas" autosize minRows={2} maxRows={4} {...form.register('notes')} error={errors.notes?.message} />
        <Group justify="flex-end">
          <Button type="submit" loading={deliver.isPending} disabled={deliver.isPending || delivered || !allowed}>
            Confirmar entrega
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
