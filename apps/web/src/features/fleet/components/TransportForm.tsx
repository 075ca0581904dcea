import { useEffect, useMemo, useState } from 'react';
import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import {
  routeText,
  TRANSPORT_STATUS_LABELS,
  TRANSPORT_STATUSES,
  transportSchema,
  VEHICLE_TYPE_LABELS,
  VEHICLE_TYPES,
  type VehicleType,
  type Transport,
  type TransportData,
  type TransportStatus,
} from '@tramo/domain';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { BranchSelect, useBranches } from '../../branches/index.ts';
import { useDrivers } from '../api/get-drivers.ts';
import { useTransports } from '../api/get-transports.ts';
import { useSaveTransport } from '../api/save-transport.ts';
import { SideForm } from '../../../components/ui/SideForm.tsx';

/** What the inputs hold: Selects give id strings, NumberInputs a number or ''; the schema turns them into the wire shape. */
interface FormValues {
  plate_primary: string;
  plate_secondary: string;
  make: string;
  model: string;
  capacity_kg: number | string;
  net_weight_kg: number | string;
  status: TransportStatus;
  origin_branch_id: string | null;
  destination_branch_id: string | null;
  route: string;
  driver_id_1: string | null;
  driver_id_2: string | null;
  vehicle_type: VehicleType;
  tuc_number: string;
  configuration: string;
  payload_kg: number | string;
  axles: number | string;
  trailer_id: string | null;
}

const FIELDS = [
  'plate_primary',
  'plate_secondary',
  'make',
  'model',
  'capacity_kg',
  'net_weight_kg',
  'status',
  'origin_branch_id',
  'destination_branch_id',
  'driver_id_1',
  'driver_id_2',
  'vehicle_type',
  'tuc_number',
  'configuration',
  'payload_kg',
  'axles',
  'trailer_id',
] as const;

const vehicleTypeOptions = VEHICLE_TYPES.map((v) => ({ value: v, label: VEHICLE_TYPE_LABELS[v] }));
const statusOptions = TRANSPORT_STATUSES.map((s) => ({ value: s, label: TRANSPORT_STATUS_LABELS[s] }));
const idString = (id: number | null | undefined) => (id === null || id === undefined ? null : String(id));

export function TransportForm({ transport, onDone }: { transport: Transport | null; onDone(): void }) {
  const save = useSaveTransport();
  const branches = useBranches();
  // Spec section 8: a failed driver list is silently ignored here; the selects just offer nobody.
  const drivers = useDrivers();
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, TransportData>({
    mode: 'onTouched',
    // The schema's preprocessing accepts exactly these input shapes (id strings, '' for empty numbers).
    resolver: zodResolver(transportSchema) as unknown as Resolver<FormValues, unknown, TransportData>,
    defaultValues: {
      plate_primary: transport?.plate_primary ?? '',
      plate_secondary: transport?.plate_secondary ?? '',
      make: transport?.make ?? '',
      model: transport?.model ?? '',
      capacity_kg: transport?.capacity_kg ?? '',
      net_weight_kg: transport?.net_weight_kg ?? '',
      status: transport?.status ?? 'disponible',
      origin_branch_id: idString(transport?.origin_branch_id),
      destination_branch_id: idString(transport?.destination_branch_id),
      route: transport?.route ?? '',
      driver_id_1: idString(transport?.driver_id_1),
      driver_id_2: idString(transport?.driver_id_2),
      vehicle_type: transport?.vehicle_type ?? 'camion',
      tuc_number: transport?.tuc_number ?? '',
      configuration: transport?.configuration ?? '',
      payload_kg: transport?.payload_kg ?? '',
      axles: transport?.axles ?? '',
      trailer_id: idString(transport?.trailer_id),
    },
  });
  const { errors } = form.formState;
  const branchList = useMemo(() => branches.data ?? [], [branches.data]);
  const [origin, destination, driver1, route] = useWatch({
    control: form.control,
    name: ['origin_branch_id', 'destination_branch_id', 'driver_id_1', 'route'],
  });

  // Spec section 5: a new transport starts on the first branches, destination never equal to origin.
  useEffect(() => {
    if (transport || branchList.length === 0 || form.getValues('origin_branch_id')) return;
    const first = String(branchList[0]!.id);
    form.setValue('origin_branch_id', first);
    const other = branchList.find((b) => String(b.id) !== first);
    form.setValue('destination_branch_id', other ? String(other.id) : null);
  }, [branchList, transport, form]);

  const nameOf = (id: string | null) => branchList.find((b) => String(b.id) === id)?.name ?? null;
  // The route is read from the branches whenever both are known; a stored one shows until then.
  const derivedRoute = routeText(nameOf(origin), nameOf(destination));

  // The semirremolques of the fleet (the list the Transportistas page already holds, up to its page maximum).
  const fleet = useTransports({ limit: 200 });
  const trailerOptions = (fleet.data?.items ?? [])
    .filter((t) => t.vehicle_type === 'semirremolque' && t.id !== transport?.id)
    .map((t) => ({ value: String(t.id), label: t.plate_primary }));
  const vehicleType = useWatch({ control: form.control, name: 'vehicle_type' });

  const driverOptions = (drivers.data ?? []).map((d) => ({ value: String(d.id), label: `${d.full_name} (DNI ${d.dni})` }));

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(
      { ...values, route: derivedRoute ?? values.route, id: transport?.id },
      {
        onSuccess: (saved) => {
          notify.success(transport ? `Transporte ${saved.plate_primary} actualizado.` : `Transporte ${saved.plate_primary} creado.`);
          onDone();
        },
        onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
      },
    );
  });

  return (
    <SideForm
      onSubmit={onSubmit}
      alert={alert}
      submitting={save.isPending}
      submitLabel={transport ? 'Guardar cambios' : 'Crear transporte'}
      onCancel={onDone}
    >
      <SimpleGrid cols={2} spacing="sm">
        <TextInput
          label="Placa principal"
          withAsterisk
          autoFocus
          placeholder="ABC-123"
          {...form.register('plate_primary')}
          error={errors.plate_primary?.message}
        />
        <TextInput label="Placa secundaria" placeholder="Remolque" {...form.register('plate_secondary')} error={errors.plate_secondary?.message} />
        <TextInput label="Marca" placeholder="Volvo" {...form.register('make')} error={errors.make?.message} />
        <TextInput label="Modelo" placeholder="FH 460" {...form.register('model')} error={errors.model?.message} />
        <Controller
          control={form.control}
          name="capacity_kg"
          render={({ field }) => (
            <NumberInput
              label="Capacidad (kg)"
              min={0}
              clampBehavior="none"
              decimalScale={2}
              thousandSeparator=","
              {...field}
              error={errors.capacity_kg?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="net_weight_kg"
          render={({ field }) => (
            <NumberInput
              label="Peso neto (kg)"
              min={0}
              clampBehavior="none"
              decimalScale={2}
              thousandSeparator=","
              {...field}
              error={errors.net_weight_kg?.message}
            />
          )}
        />
      </SimpleGrid>
      <SimpleGrid cols={2} spacing="sm">
        <Controller
          control={form.control}
          name="vehicle_type"
          render={({ field }) => (
            <Select label="Tipo de vehículo" data={vehicleTypeOptions} allowDeselect={false} {...field} error={errors.vehicle_type?.message} />
          )}
        />
        <TextInput label="TUC / CHV" placeholder="15M21000111E" {...form.register('tuc_number')} error={errors.tuc_number?.message} />
        <TextInput label="Configuración" placeholder="T3S3" {...form.register('configuration')} error={errors.configuration?.message} />
        <Controller
          control={form.control}
          name="axles"
          render={({ field }) => (
            <NumberInput label="Ejes" min={1} max={20} allowDecimal={false} clampBehavior="none" {...field} error={errors.axles?.message} />
          )}
        />
        <Controller
          control={form.control}
          name="payload_kg"
          render={({ field }) => (
            <NumberInput
              label="Carga útil (kg)"
              min={0}
              clampBehavior="none"
              decimalScale={2}
              thousandSeparator=","
              {...field}
              error={errors.payload_kg?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="trailer_id"
          render={({ field }) => (
            <Select
              label="Semirremolque"
              placeholder={vehicleType === 'semirremolque' ? 'No aplica' : 'Sin semirremolque'}
              disabled={vehicleType === 'semirremolque'}
              data={trailerOptions}
              searchable
              clearable
              {...field}
              error={errors.trailer_id?.message}
            />
          )}
        />
      </SimpleGrid>
      <Controller
        control={form.control}
        name="status"
        render={({ field }) => <Select label="Estado" data={statusOptions} {...field} error={errors.status?.message} />}
      />
      <SimpleGrid cols={2} spacing="sm">
        <Controller
          control={form.control}
          name="origin_branch_id"
          render={({ field }) => (
            <BranchSelect
              label="Origen"
              {...field}
              onChange={(value) => {
                field.onChange(value);
                if (value && value === form.getValues('destination_branch_id')) {
                  const other = branchList.find((b) => String(b.id) !== value);
                  form.setValue('destination_branch_id', other ? String(other.id) : null);
                }
              }}
              error={errors.origin_branch_id?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="destination_branch_id"
          render={({ field }) => <BranchSelect label="Destino" exclude={origin} {...field} error={errors.destination_branch_id?.message} />}
        />
      </SimpleGrid>
      <TextInput label="Ruta" readOnly variant="filled" value={derivedRoute ?? route} description="Se arma con el origen y el destino" />
      <SimpleGrid cols={2} spacing="sm">
        <Controller
          control={form.control}
          name="driver_id_1"
          render={({ field }) => (
            <Select
              label="Conductor 1"
              placeholder="Sin conductor"
              data={driverOptions}
              searchable
              clearable
              allowDeselect
              {...field}
              error={errors.driver_id_1?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="driver_id_2"
          render={({ field }) => (
            <Select
              label="Conductor 2"
              placeholder="Sin conductor"
              data={driverOptions.filter((d) => d.value !== driver1)}
              searchable
              clearable
              allowDeselect
              {...field}
              error={errors.driver_id_2?.message}
            />
          )}
        />
      </SimpleGrid>
    </SideForm>
  );
}
