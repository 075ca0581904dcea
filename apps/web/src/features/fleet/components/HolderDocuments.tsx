import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import {
  dayText,
  DRIVER_DOCUMENT_TYPES,
  FLEET_DOCUMENT_LABELS,
  FLEET_DOCUMENT_MESSAGES,
  FLEET_FILE_LIMITS,
  fleetDocumentSchema,
  VEHICLE_DOCUMENT_TYPES,
  type FleetDocument,
  type FleetDocumentData,
  type FleetDocumentInput,
} from '@tramo/domain';
import { confirmThenMutate } from '../../../components/ui/confirm.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/files.ts';
import { applyServerErrors } from '../../../lib/forms.ts';
import { notify } from '../../../lib/notify.ts';
import { documentFile, useAddDocument, useDeleteDocument, useHolderDocuments } from '../api/holder-documents.ts';
import type { DocumentHolderKind } from '../api/keys.ts';

const FIELDS = ['type', 'number', 'issuedOn', 'expiresOn', 'file'] as const;
const EXTENSION = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' } as const;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(FLEET_DOCUMENT_MESSAGES.fileType));
    reader.readAsDataURL(file);
  });

function StateBadge({ doc }: { doc: FleetDocument }) {
  if (doc.state === 'vencido') return <Badge color="red">Vencido</Badge>;
  if (doc.state === 'por_vencer')
    return (
      <Badge color="orange" variant="light">
        {doc.daysLeft === 0 ? 'Vence hoy' : `Vence en ${doc.daysLeft} ${doc.daysLeft === 1 ? 'día' : 'días'}`}
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      Vigente
    </Badge>
  );
}

/**
 * A vehicle's or a driver's documents with expiry (issue 36): the list, the file of each, and a new
 * one (a renewal is a new document: of two of one type, the one that expires last counts).
 */
export function HolderDocuments({ kind, id, holder }: { kind: DocumentHolderKind; id: number; holder: string }) {
  const docs = useHolderDocuments(kind, id);
  const add = useAddDocument(kind, id);
  const remove = useDeleteDocument(kind, id);
  const [alert, setAlert] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const types = kind === 'transports' ? VEHICLE_DOCUMENT_TYPES : DRIVER_DOCUMENT_TYPES;
  const form = useForm<FleetDocumentInput, unknown, FleetDocumentData>({
    mode: 'onTouched',
    resolver: zodResolver(fleetDocumentSchema),
    defaultValues: { type: types[0], number: '', issuedOn: '', expiresOn: '', file: '' },
  });
  const { errors } = form.formState;

  const pickFile = async (picked: File | null) => {
    setFile(picked);
    form.clearErrors('file');
    form.setValue('file', picked ? await readAsDataUrl(picked) : '');
  };

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    add.mutate(values, {
      onSuccess: (doc) => {
        notify.success(`${FLEET_DOCUMENT_LABELS[doc.type]} registrado.`);
        form.reset({ type: values.type, number: '', issuedOn: '', expiresOn: '', file: '' });
        setFile(null);
      },
      onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
    });
  });

  const download = async (doc: FleetDocument) => {
    try {
      saveBlob(await documentFile(kind, id, doc.id!), `${doc.type}-${doc.number ?? doc.id}.${EXTENSION[doc.fileType!]}`);
    } catch (err) {
      notify.error(err);
    }
  };

  const onDelete = (doc: FleetDocument) =>
    confirmThenMutate(
      {
        title: 'Eliminar documento',
        message: `¿Eliminar el ${FLEET_DOCUMENT_LABELS[doc.type]} ${doc.number ?? ''} de ${holder}?`,
        success: 'Documento eliminado.',
      },
      remove.mutate,
      doc.id!,
    );

  const rows = docs.data ?? [];
  return (
    <Stack gap="md">
      {docs.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(docs.error, 'No se pudo cargar los documentos.')}
        </Alert>
      )}
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table aria-label={`Documentos de ${holder}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Documento</Table.Th>
              <Table.Th>Número</Table.Th>
              <Table.Th>Emisión</Table.Th>
              <Table.Th>Vence</Table.Th>
              <Table.Th>Estado</Table.Th>
              <Table.Th w={80} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={6} ta="center" c="dimmed">
                  {docs.isPending ? 'Cargando…' : 'Sin documentos registrados.'}
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((d) => (
                <Table.Tr key={d.id ?? `ficha-${d.type}`}>
                  <Table.Td fw={500}>{FLEET_DOCUMENT_LABELS[d.type]}</Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {d.number ?? '—'}
                  </Table.Td>
                  <Table.Td>{d.issuedOn ? dayText(d.issuedOn) : '—'}</Table.Td>
                  <Table.Td>{dayText(d.expiresOn)}</Table.Td>
                  <Table.Td>
                    <StateBadge doc={d} />
                  </Table.Td>
                  <Table.Td>
                    {d.id === null ? (
                      // The licence on the driver's record is edited in the Conductores form.
                      <Text size="xs" c="dark.4">
                        Ficha
                      </Text>
                    ) : (
                      <Group gap={2} wrap="nowrap" justify="flex-end">
                        {d.fileType && (
                          <Tooltip label="Descargar archivo">
                            <ActionIcon variant="subtle" aria-label={`Descargar ${FLEET_DOCUMENT_LABELS[d.type]}`} onClick={() => void download(d)}>
                              <IconDownload size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                        <Tooltip label="Eliminar">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Eliminar ${FLEET_DOCUMENT_LABELS[d.type]}`}
                            onClick={() => onDelete(d)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h5">
            Registrar documento
          </Title>
          {alert && (
            <Alert color="red" variant="light" role="alert">
              {alert}
            </Alert>
          )}
          <SimpleGrid cols={2} spacing="sm">
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <Select
                  label="Documento"
                  withAsterisk
                  allowDeselect={false}
                  data={types.map((t) => ({ value: t, label: FLEET_DOCUMENT_LABELS[t] }))}
                  value={field.value as string}
                  onBlur={field.onBlur}
                  onChange={(v) => field.onChange(v)}
                  error={errors.type?.message}
                />
              )}
            />
            <TextInput label="Número" withAsterisk {...form.register('number')} error={errors.number?.message} />
            <TextInput label="Fecha de emisión" type="date" {...form.register('issuedOn')} error={errors.issuedOn?.message} />
            <TextInput label="Fecha de vencimiento" type="date" withAsterisk {...form.register('expiresOn')} error={errors.expiresOn?.message} />
          </SimpleGrid>
          <FileInput
            label="Archivo (opcional)"
            description={`Foto JPG o PNG, o PDF; hasta ${FLEET_FILE_LIMITS.label}.`}
            placeholder="Elegir archivo"
            accept="image/jpeg,image/png,application/pdf"
            clearable
            value={file}
            onChange={(f) => void pickFile(f)}
            error={errors.file?.message}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending}>
              Registrar documento
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
