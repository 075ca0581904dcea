import { useState } from 'react';
import { Badge, Button, Group, Paper, SegmentedControl, Switch, Table, TextInput, Title } from '@mantine/core';
import { notify } from '../../../lib/notify.ts';
import { usePutSurcharge, useSurchargeList, type Surcharge } from '../api/tariffs.ts';
import { ErrorAlert, money } from './shared.tsx';

const CODE = /^[a-z_]{2,30}$/;
const CODE_MESSAGE = 'Código de recargo inválido (minúsculas y _).';
const EMPTY = { code: '', description: '', kind: 'fijo', amount: '', active: true };

/** 'Recargos': the catalogue the form offers, each a fixed amount or a % of the freight. */
export function SurchargesTab() {
  const surcharges = useSurchargeList();
  const put = usePutSurcharge();
  const [draft, setDraft] = useState(EMPTY);
  const [codeError, setCodeError] = useState<string | null>(null);
  const edit = (s: Surcharge) =>
    setDraft({
      code: s.code,
      description: s.description,
      kind: s.percent !== null ? 'porcentaje' : 'fijo',
      amount: String(s.percent ?? s.fixedAmount?.toFixed(2) ?? ''),
      active: s.active,
    });
  const save = () => {
    // The code is the address of the PUT: checked here, with the API's own words.
    if (!CODE.test(draft.code.trim())) return setCodeError(CODE_MESSAGE);
    setCodeError(null);
    put.mutate(
      {
        code: draft.code.trim(),
        description: draft.description,
        fixedAmount: draft.kind === 'fijo' ? draft.amount : '',
        percent: draft.kind === 'porcentaje' ? draft.amount : '',
        active: draft.active,
      },
      {
        onSuccess: () => {
          notify.success('Recargo guardado.');
          setDraft(EMPTY);
        },
      },
    );
  };
  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h5" mb="xs">
        Recargos
      </Title>
      <Table verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Código</Table.Th>
            <Table.Th>Descripción</Table.Th>
            <Table.Th ta="right">Monto</Table.Th>
            <Table.Th>Estado</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(surcharges.data ?? []).map((s) => (
            <Table.Tr key={s.code}>
              <Table.Td ff="monospace">{s.code}</Table.Td>
              <Table.Td>{s.description}</Table.Td>
              <Table.Td ta="right">{s.percent !== null ? `${s.percent} % del flete` : money(s.fixedAmount)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={s.active ? 'teal' : 'gray'} tt="none">
                  {s.active ? 'Activo' : 'Inactivo'}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">
                <Button size="compact-xs" variant="subtle" onClick={() => edit(s)}>
                  Editar
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group align="flex-end" gap="xs" wrap="wrap" mt="sm">
        <TextInput
          label="Código"
          description="minúsculas y _"
          value={draft.code}
          onChange={(e) => setDraft({ ...draft, code: e.currentTarget.value })}
          w={160}
          error={codeError}
        />
        <TextInput
          label="Descripción"
          value={draft.description}
          onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
          w={200}
        />
        <SegmentedControl
          value={draft.kind}
          onChange={(kind) => setDraft({ ...draft, kind })}
          data={[
            { value: 'fijo', label: 'Monto fijo' },
            { value: 'porcentaje', label: '% del flete' },
          ]}
        />
        <TextInput
          label={draft.kind === 'fijo' ? 'Monto (S/)' : 'Porcentaje (%)'}
          value={draft.amount}
          onChange={(e) => setDraft({ ...draft, amount: e.currentTarget.value })}
          w={110}
          inputMode="decimal"
        />
        <Switch label="Activo" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.currentTarget.checked })} mb={8} />
        <Button onClick={save} loading={put.isPending}>
          Guardar recargo
        </Button>
      </Group>
      <ErrorAlert error={put.error} />
    </Paper>
  );
}
