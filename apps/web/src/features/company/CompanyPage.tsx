import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, FileInput, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { COMPANY_LOGO_LIMITS, COMPANY_MESSAGES, companySchema, type Company, type CompanyData, type CompanyInput } from '@tramo/domain';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageSkeleton } from '../../components/ui/PageSkeleton.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { applyServerErrors } from '../../lib/forms.ts';
import { notify } from '../../lib/notify.ts';
import { useCompany, useCompanyLogo, useSaveCompany } from './api/company.ts';

const FIELDS = ['ruc', 'name', 'tradeName', 'address', 'mtcRegistration', 'guidesBeforeDeparture', 'logo'] as const;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(COMPANY_MESSAGES.logoType));
    reader.readAsDataURL(file);
  });

/** 'Empresa' (issue 36): the company's RUC, name, address, MTC registration and logo. */
export default function CompanyPage() {
  const company = useCompany();
  return (
    <>
      <PageHeader title="Empresa" description="Datos de la empresa que van en el manifiesto de carga y en la guía de remisión transportista" />
      {company.isPending ? (
        <PageSkeleton />
      ) : company.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(company.error, 'No se pudo cargar los datos de la empresa.')}
        </Alert>
      ) : (
        <CompanyForm company={company.data} />
      )}
    </>
  );
}

function LogoPreview({ blob }: { blob: Blob | undefined }) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url ? <Image src={url} alt="Logo de la empresa" h={64} w="auto" fit="contain" /> : null;
}

function CompanyForm({ company }: { company: Company }) {
  const save = useSaveCompany();
  const logo = useCompanyLogo(company.logoType !== null);
  const [alert, setAlert] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const form = useForm<CompanyInput, unknown, CompanyData>({
    mode: 'onTouched',
    resolver: zodResolver(companySchema),
    defaultValues: {
      ruc: company.ruc,
      name: company.name,
      tradeName: company.tradeName ?? '',
      address: company.address,
      mtcRegistration: company.mtcRegistration ?? '',
      guidesBeforeDeparture: company.guidesBeforeDeparture,
    },
  });
  const { errors } = form.formState;

  const pickLogo = async (picked: File | null) => {
    setFile(picked);
    form.clearErrors('logo');
    form.setValue('logo', picked ? await readAsDataUrl(picked) : undefined);
  };

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(values, {
      onSuccess: (saved) => {
        notify.success(COMPANY_MESSAGES.saved);
        setFile(null);
        form.reset({ ...values, logo: undefined, mtcRegistration: saved.mtcRegistration ?? '' });
      },
      onError: (err) => setAlert(applyServerErrors(err, form.setError, FIELDS)),
    });
  });

  return (
    <Paper withBorder p="md" maw={880}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {alert && (
            <Alert color="red" variant="light" role="alert">
              {alert}
            </Alert>
          )}
          <SimpleGrid cols={2} spacing="sm">
            <TextInput label="RUC" withAsterisk inputMode="numeric" maxLength={11} {...form.register('ruc')} error={errors.ruc?.message} />
            <TextInput
              label="Registro MTC"
              description="Número de registro de transportista ante el MTC: va en cada guía transportista."
              placeholder="1532CXNO"
              {...form.register('mtcRegistration')}
              error={errors.mtcRegistration?.message}
            />
            <TextInput label="Razón social" withAsterisk {...form.register('name')} error={errors.name?.message} />
            <TextInput label="Nombre comercial" {...form.register('tradeName')} error={errors.tradeName?.message} />
          </SimpleGrid>
          <TextInput label="Dirección fiscal" withAsterisk {...form.register('address')} error={errors.address?.message} />
          <Group align="flex-end" gap="md">
            <FileInput
              label="Logo"
              description={`Imagen JPG o PNG; hasta ${COMPANY_LOGO_LIMITS.label}.`}
              placeholder={company.logoType ? 'Cambiar logo' : 'Elegir imagen'}
              accept="image/jpeg,image/png"
              clearable
              value={file}
              onChange={(f) => void pickLogo(f)}
              error={errors.logo?.message}
              style={{ flex: 1 }}
            />
            <LogoPreview blob={company.logoType ? logo.data : undefined} />
          </Group>
          <Group justify="space-between" mt="sm">
            <Text size="xs" c="dark.4">
              {company.updatedAt
                ? `Última modificación: ${formatDateTime(company.updatedAt)} · ${company.updatedByName ?? ''}`
                : 'Aún sin guardar: se muestran los datos del emisor configurado.'}
            </Text>
            <Button type="submit" loading={save.isPending}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
