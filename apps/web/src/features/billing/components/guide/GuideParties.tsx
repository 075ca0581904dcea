import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import type { GuideValues } from './guide-values.ts';
import { RemoveRowButton } from '../RemoveRowButton.tsx';
import { fieldError } from '../../../../lib/forms.ts';

type Form = UseFormReturn<GuideValues>;

function DriverFields({ form, prefix, label }: { form: Form; prefix: 'conductor' | `conductores_secundarios.${number}`; label: string }) {
  return (
    <>
      <TextInput
        label={`${label}: documento`}
        inputMode="numeric"
        maxLength={15}
        {...form.register(`${prefix}.documento_numero`)}
        error={fieldError(form, `${prefix}.documento_numero`)}
      />
      <TextInput
        label={`${label}: licencia`}
        maxLength={20}
        {...form.register(`${prefix}.numero_licencia`)}
        error={fieldError(form, `${prefix}.numero_licencia`)}
      />
      <TextInput label={`${label}: nombres`} maxLength={100} {...form.register(`${prefix}.nombre`)} error={fieldError(form, `${prefix}.nombre`)} />
      <TextInput
        label={`${label}: apellidos`}
        maxLength={100}
        {...form.register(`${prefix}.apellidos`)}
        error={fieldError(form, `${prefix}.apellidos`)}
      />
    </>
  );
}

/**
 * Who moves the goods: the client; the carrier (RUC and name) of a public transport in sender mode;
 * plate and driver of a private transport or of a carrier's guide; the recipient in carrier mode;
 * secondary vehicles and drivers.
 */
export function GuideParties({ form }: { form: Form }) {
  const [type, transport] = useWatch({ control: form.control, name: ['type', 'tipo_de_transporte'] });
  const carrierMode = type === '31';
  const publicTransport = transport === '01' && !carrierMode;
  const vehicles = useFieldArray({ control: form.control, name: 'vehiculos_secundarios' });
  const drivers = useFieldArray({ control: form.control, name: 'conductores_secundarios' });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {carrierMode ? 'Remitente' : 'Cliente'}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextInput
            label="Documento (RUC o DNI)"
            inputMode="numeric"
            maxLength={11}
            {...form.register('cliente.numero_de_documento')}
            error={fieldError(form, 'cliente.numero_de_documento')}
          />
          <TextInput
            label="Nombre o razón social"
            maxLength={200}
            {...form.register('cliente.denominacion')}
            error={fieldError(form, 'cliente.denominacion')}
          />
          <TextInput
            label="Dirección del cliente"
            maxLength={200}
            {...form.register('cliente.direccion')}
            error={fieldError(form, 'cliente.direccion')}
          />
        </SimpleGrid>
        {carrierMode && (
          <>
            <Title order={2} size="h4">
              Destinatario
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label="Documento del destinatario (RUC o DNI)"
                inputMode="numeric"
                maxLength={11}
                {...form.register('destinatario.documento_numero')}
                error={fieldError(form, 'destinatario.documento_numero')}
              />
              <TextInput
                label="Nombre del destinatario"
                maxLength={200}
                {...form.register('destinatario.denominacion')}
                error={fieldError(form, 'destinatario.denominacion')}
              />
            </SimpleGrid>
          </>
        )}
        {publicTransport && (
          <>
            <Title order={2} size="h4">
              Transportista
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label="RUC del transportista"
                inputMode="numeric"
                maxLength={11}
                {...form.register('transportista.documento_numero')}
                error={fieldError(form, 'transportista.documento_numero')}
              />
              <TextInput
                label="Razón social del transportista"
                maxLength={200}
                {...form.register('transportista.denominacion')}
                error={fieldError(form, 'transportista.denominacion')}
              />
            </SimpleGrid>
          </>
        )}
        <Title order={2} size="h4">
          Vehículo y conductor
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput
            label="Placa"
            maxLength={8}
            description="6 a 8 letras o números"
            {...form.register('placa_numero', { setValueAs: (v: string) => v.toUpperCase() })}
            error={fieldError(form, 'placa_numero')}
          />
          {carrierMode && (
            <TextInput
              label="TUC / CHV del vehículo"
              maxLength={15}
              description="10 a 15 letras o números"
              {...form.register('tuc_vehiculo_principal', { setValueAs: (v: string) => v.toUpperCase() })}
              error={fieldError(form, 'tuc_vehiculo_principal')}
            />
          )}
          {!publicTransport && <DriverFields form={form} prefix="conductor" label="Conductor" />}
        </SimpleGrid>
        {vehicles.fields.map((f, i) => (
          <Group key={f.id} align="flex-end" gap="xs">
            <TextInput
              label={`Placa secundaria ${i + 1}`}
              maxLength={8}
              {...form.register(`vehiculos_secundarios.${i}.placa_numero`, { setValueAs: (v: string) => v.toUpperCase() })}
              error={fieldError(form, `vehiculos_secundarios.${i}.placa_numero`)}
            />
            {carrierMode && (
              <TextInput
                label={`TUC / CHV secundario ${i + 1}`}
                maxLength={15}
                {...form.register(`vehiculos_secundarios.${i}.tuc`, { setValueAs: (v: string) => v.toUpperCase() })}
                error={fieldError(form, `vehiculos_secundarios.${i}.tuc`)}
              />
            )}
            <RemoveRowButton label={`Quitar la placa secundaria ${i + 1}`} onRemove={() => vehicles.remove(i)} mb={4} />
          </Group>
        ))}
        {drivers.fields.map((f, i) => (
          <Group key={f.id} align="flex-end" gap="xs" wrap="nowrap">
            <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="sm" style={{ flex: 1 }}>
              <DriverFields form={form} prefix={`conductores_secundarios.${i}`} label={`Conductor ${i + 2}`} />
            </SimpleGrid>
            <RemoveRowButton label={`Quitar el conductor ${i + 2}`} onRemove={() => drivers.remove(i)} mb={4} />
          </Group>
        ))}
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => vehicles.append({ placa_numero: '', tuc: '' })}>
            Vehículo secundario
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => drivers.append({ documento_numero: '', nombre: '', apellidos: '', numero_licencia: '' })}
          >
            Conductor secundario
          </Button>
          {publicTransport && (
            <Text size="xs" c="dimmed">
              Transporte público: la empresa transportista lleva la carga; su placa es la del vehículo que la recoge.
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
