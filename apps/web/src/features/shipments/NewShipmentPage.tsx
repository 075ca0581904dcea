import { useState } from 'react';
import { Alert } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { SHIPMENT_MESSAGES } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useShipment } from './api/get-shipment.ts';
import { CreatedShipment } from './components/CreatedShipment.tsx';
import { ShipmentForm } from './components/ShipmentForm.tsx';
import type { Shipment } from './types.ts';

/** /shipments/new, and /shipments/new?edit={id} to edit a shipment still in Creado. */
export default function NewShipmentPage() {
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const editing = useShipment(editId);
  const [created, setCreated] = useState<Shipment | null>(null);
  // A new key remounts a clean form after "Registrar otro".
  const [formKey, setFormKey] = useState(0);

  if (editId) {
    return (
      <>
        <PageHeader title="Editar envío" description={editing.data ? `${editing.data.code} · precio recalculado al guardar` : '\u00a0'} />
        {editing.isPending ? (
          <PageSkeleton rows={8} />
        ) : editing.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(editing.error)}
          </Alert>
        ) : !editing.data.canEdit ? (
          <Alert color="yellow" variant="light" role="alert">
            {editing.data.status === 'Creado' ? SHIPMENT_MESSAGES.forbidden : SHIPMENT_MESSAGES.editOnlyCreated}
          </Alert>
        ) : (
          <ShipmentForm key={editing.data.id} editing={editing.data} />
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader title="Nuevo envío" description="Registra un envío entre sucursales; el precio se cotiza mientras escribes." />
      {created ? (
        <CreatedShipment
          shipment={created}
          onAnother={() => {
            setCreated(null);
            setFormKey((k) => k + 1);
          }}
        />
      ) : (
        <ShipmentForm key={formKey} editing={null} onCreated={setCreated} />
      )}
    </>
  );
}
