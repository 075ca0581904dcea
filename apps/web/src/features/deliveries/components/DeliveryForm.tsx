import { useMemo, useState } from 'react';
import { Alert, Button, Group, PasswordInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import {
  agentDeliveredByName,
  agentOptions,
  canConfirmDelivery,
  DELIVERY_MESSAGES,
  PROOF_MESSAGES,
  deliverySchema,
  deliveryWarning,
  type Delivery,
  type DeliveryAgent,
  type DeliveryInput,
} from '@tramo/domain';
import { PageSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import type { Shipment } from '@tramo/domain';
import { useDeliverShipment } from '../api/deliver-shipment.ts';
import { useDeliveryAgents } from '../api/get-agents.ts';
import { useDeliverySettings } from '../api/proof.ts';
import { PhotoInput, SignatureInput } from './ProofInputs.tsx';
import { placeDeliveryError } from './delivery-errors.ts';

/** 'Confirmar entrega' once the list of who may hand over is known (or failed: then a name is typed). */
export function DeliveryForm({ shipment }: { shipment: Shipment }) {
  const agents = useDeliveryAgents();
  const settings = useDeliverySettings();
  if (agents.isPending || settings.isPending) return <PageSkeleton rows={5} />;
  // Unknown rule (the settings failed to load): the form asks for nothing more, the server decides.
  const proofRequired = settings.data?.proofRequired ?? false;
  return <DeliveryFields shipment={shipment} agents={agents.isError ? null : agents.data} proofRequired={proofRequired} />;
}

/** The receiver's secret code, who receives, who hands over, notes. */
function DeliveryFields({ shipment, agents, proofRequired }: { shipment: Shipment; agents: DeliveryAgent[] | null; proofRequired: boolean }) {
  const me = useCurrentUser();
  const deliver = useDeliverShipment();
  const options = useMemo(() => agentOptions(agents ?? []), [agents]);
  // The person at the counter usually hands the parcel over: preselected when they are in the list.
  const counter = agents?.find((a) => a.id === me.id);
  const [agentId, setAgentId] = useState<string | null>(counter ? String(counter.id) : null);

  const form = useForm<DeliveryInput, unknown, Delivery>({
    mode: 'onTouched',
    resolver: zodResolver(deliverySchema),
    // Spec section 4: the receiver prefills from the shipment's recipient.
    defaultValues: {
      secretCode: '',
      receiverName: shipment.recipientName,
      receiverDoc: shipment.recipientDoc,
      deliveredByName: counter ? agentDeliveredByName(counter) : '',
      notes: '',
      photo: null,
      signature: null,
    },
  });
  const photo = useWatch({ control: form.control, name: 'photo' }) ?? null;
  const signature = useWatch({ control: form.control, name: 'signature' }) ?? null;
  const { errors } = form.formState;

  const pickAgent = (id: string | null) => {
    setAgentId(id);
    const agent = agents?.find((a) => String(a.id) === id);
    form.setValue('deliveredByName', agent ? agentDeliveredByName(agent) : '', { shouldValidate: form.formState.isSubmitted });
  };

  const warning = deliveryWarning(shipment.status);
  const allowed = canConfirmDelivery(me, shipment.destinationBranchId);
  const delivered = shipment.status === 'Entregado' || !!shipment.deliveredInfo;

  const onSubmit = form.handleSubmit((values) => {
    // The company's rule (issue 18), said on the fields before the server says it.
    if (proofRequired && (!values.photo || !values.signature)) {
      if (!values.photo) form.setError('photo', { type: 'required', message: PROOF_MESSAGES.photoRequired });
      if (!values.signature) form.setError('signature', { type: 'required', message: PROOF_MESSAGES.signatureRequired });
      return;
    }
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
        {agents === null ? (
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
            placeholder="Selecciona quién entrega"
            data={options}
            value={agentId}
            onChange={pickAgent}
            // Not a registered input (the name comes from the pick): leaving it empty still says 'Quién entrega'.
            onBlur={() => void form.trigger('deliveredByName')}
            searchable
            nothingFoundMessage="Sin resultados."
            error={errors.deliveredByName?.message}
          />
        )}
        <Textarea label="Notas" autosize minRows={2} maxRows={4} {...form.register('notes')} error={errors.notes?.message} />
        <PhotoInput
          value={photo}
          onChange={(v) => form.setValue('photo', v, { shouldValidate: form.formState.isSubmitted })}
          required={proofRequired}
          error={errors.photo?.message}
        />
        <SignatureInput
          value={signature}
          onChange={(v) => form.setValue('signature', v, { shouldValidate: form.formState.isSubmitted })}
          required={proofRequired}
          error={errors.signature?.message}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={deliver.isPending} disabled={deliver.isPending || delivered || !allowed}>
            Confirmar entrega
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
