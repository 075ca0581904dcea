import { Select, type SelectProps } from '@mantine/core';
import { SHIPMENT_STATUSES } from '@tramo/domain';
import { DateField } from '../../../components/ui/DateField.tsx';
import { BranchSelect } from '../../branches/index.ts';

type OnFilter = (value: string | null) => void;

/** A list filter: small, clearable, empty meaning "all". */
export function FilterSelect({ value, placeholder = 'Todas', ...props }: Omit<SelectProps, 'value'> & { value: string | undefined }) {
  return <Select {...props} placeholder={placeholder} size="xs" value={value || null} clearable allowDeselect />;
}

const statusOptions = SHIPMENT_STATUSES.map((s) => ({ value: s, label: s }));

export function StatusFilter({ value, onChange }: { value: string | undefined; onChange: OnFilter }) {
  return <FilterSelect label="Estado" placeholder="Todos" w={140} data={statusOptions} value={value} onChange={onChange} />;
}

/** Origin or destination: any branch by name. */
export function BranchFilter({ label, value, onChange }: { label: string; value: string | undefined; onChange: OnFilter }) {
  return <BranchSelect label={label} placeholder="Todas" size="xs" w={150} searchable clearable allowDeselect value={value} onChange={onChange} />;
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
