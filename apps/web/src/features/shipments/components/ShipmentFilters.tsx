import { ComboboxChevron, Input, InputBase, Select, type SelectProps } from '@mantine/core';
import { SHIPMENT_STATUSES } from '@tramo/domain';
import { DateField } from '../../../components/ui/DateField.tsx';
import { BranchSelect } from '../../branches/index.ts';

type OnFilter = (value: string | null) => void;

const STATUS_WIDTH = 140;
const BRANCH_WIDTH = 150;

/** A list filter: small, clearable, empty meaning "all". */
export function FilterSelect({ value, placeholder = 'Todas', ...props }: Omit<SelectProps, 'value'> & { value: string | undefined }) {
  return <Select {...props} placeholder={placeholder} size="xs" value={value || null} clearable allowDeselect />;
}

const statusOptions = SHIPMENT_STATUSES.map((s) => ({ value: s, label: s }));

export function StatusFilter({ value, onChange }: { value: string | undefined; onChange: OnFilter }) {
  return <FilterSelect label="Estado" placeholder="Todos" w={STATUS_WIDTH} data={statusOptions} value={value} onChange={onChange} />;
}

/** Origin or destination: any branch by name. */
export function BranchFilter({ label, value, onChange }: { label: string; value: string | undefined; onChange: OnFilter }) {
  return (
    <BranchSelect label={label} placeholder="Todas" size="xs" w={BRANCH_WIDTH} searchable clearable allowDeselect value={value} onChange={onChange} />
  );
}

/**
 * A status or branch filter before its picker is drawn (the Panel draws its pickers just after its
 * figures, issue 37): the same label and box, chevron and text as the closed picker, without its
 * list machinery, so that nothing moves when the picker takes its place. Not a control, so hidden
 * from assistive technology until then. A branch's name comes with the picker's list.
 */
export function FilterPlaceholder({ kind, label, value }: { kind: 'status' | 'branch'; label: string; value: string | undefined }) {
  const shown = kind === 'status' ? value : undefined;
  return (
    <InputBase
      component="div"
      label={label}
      size="xs"
      w={kind === 'status' ? STATUS_WIDTH : BRANCH_WIDTH}
      wrapperProps={{ 'aria-hidden': true }}
      rightSection={<ComboboxChevron size="xs" />}
      rightSectionPointerEvents="none"
    >
      {shown || (!value && <Input.Placeholder>{kind === 'status' ? 'Todos' : 'Todas'}</Input.Placeholder>)}
    </InputBase>
  );
}

/** 'Desde' and 'Hasta', calendar days (YYYY-MM-DD) typed or picked day first. */
export function DateRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange(key: 'dateFrom' | 'dateTo', day: string | null): void;
}) {
  return (
    <>
      <DateField label="Desde" value={from} onChange={(day) => onChange('dateFrom', day)} />
      <DateField label="Hasta" value={to} onChange={(day) => onChange('dateTo', day)} />
    </>
  );
}
