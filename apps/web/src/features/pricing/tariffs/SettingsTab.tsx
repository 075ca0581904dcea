import { useState } from 'react';
import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { TariffSettingsAnswer } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { useSaveTariffSettings } from '../api/tariffs.ts';
import { ErrorAlert } from './shared.tsx';

type Draft = Record<Exclude<keyof TariffSettingsAnswer, 'insuranceMandatoryAbove' | 'liabilityClause'>, string> & {
  insuranceMandatoryAbove: boolean;
  liabilityClause: string;
};

const FIELDS: [keyof Draft, string][] = [
  ['volumetricDivisor', 'Divisor volumétrico (cm³/kg)'],
  ['declaredValueThreshold', 'Umbral de valor declarado (S/)'],
  ['insuranceRate', 'Seguro (% del valor declarado)'],
  ['insuranceMinimum', 'Prima mínima (S/)'],
  ['maxDeclaredValue', 'Valor declarado máximo (S/, 0 = sin tope)'],
  ['cover', 'Cobertura por pérdida o daño (%)'],
  ['undeclaredCap', 'Tope sin valor declarado (S/)'],
];

const toDraft = (s: TariffSettingsAnswer): Draft => ({
  volumetricDivisor: String(s.volumetricDivisor),
  declaredValueThreshold: s.declaredValueThreshold.toFixed(2),
  insuranceRate: String(s.insuranceRate),
  insuranceMinimum: s.insuranceMinimum.toFixed(2),
  maxDeclaredValue: s.maxDeclaredValue.toFixed(2),
  cover: String(s.cover),
  undeclaredCap: s.undeclaredCap.toFixed(2),
  insuranceMandatoryAbove: s.insuranceMandatoryAbove,
  liabilityClause: s.liabilityClause,
});

/** 'Valor declarado': the company's divisor, insurance and the liability clause the label, ticket and receipt print. */
export function SettingsTab({ settings, canEdit }: { settings: TariffSettingsAnswer; canEdit: boolean }) {
  const save = useSaveTariffSettings();
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  return (
    <Paper withBorder p="sm" maw={860}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          Valor declarado, seguro y cláusula de responsabilidad
        </Title>
        {!canEdit && (
          <Text size="sm" c="dark.4">
            Solo un administrador cambia estos datos de la empresa.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs">
          {FIELDS.map(([field, label]) => (
            <TextInput
              key={field}
              label={label}
              value={String(draft[field])}
              onChange={(e) => setDraft({ ...draft, [field]: e.currentTarget.value })}
              inputMode="decimal"
              readOnly={!canEdit}
            />
          ))}
        </SimpleGrid>
        <Checkbox
          label="Seguro obligatorio sobre el umbral"
          checked={draft.insuranceMandatoryAbove}
          onChange={(e) => setDraft({ ...draft, insuranceMandatoryAbove: e.currentTarget.checked })}
          disabled={!canEdit}
        />
        <Textarea
          label="Cláusula de responsabilidad"
          description="Se imprime en la etiqueta, el ticket y el comprobante."
          value={draft.liabilityClause}
          onChange={(e) => setDraft({ ...draft, liabilityClause: e.currentTarget.value })}
          autosize
          minRows={3}
          maxLength={1000}
          readOnly={!canEdit}
        />
        <ErrorAlert error={save.error} />
        {canEdit && (
          <Group justify="flex-end">
            <Button
              loading={save.isPending}
              onClick={() =>
                save.mutate(draft, {
                  onSuccess: (saved) => {
                    setDraft(toDraft(saved));
                    notify.success('Guardado correctamente.');
                  },
                })
              }
            >
              Guardar
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
