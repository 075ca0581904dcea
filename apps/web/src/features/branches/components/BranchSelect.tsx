import { Select, type SelectProps } from '@mantine/core';
import { useBranches } from '../api/get-branches.ts';

export interface BranchSelectProps extends Omit<SelectProps, 'data' | 'value'> {
  /** A branch id as the address (a string) or a form (a number) holds it; empty is none. */
  value: number | string | null | undefined;
  /** The branch that may not be chosen here: a destination is never its own origin. */
  exclude?: number | string | null;
}

/** A select of every branch by name; its value is the branch id as a string, like any Mantine select. */
export function BranchSelect({ value, exclude, ...props }: BranchSelectProps) {
  const branches = useBranches();
  const data = (branches.data ?? [])
    .filter((b) => exclude === null || exclude === undefined || String(b.id) !== String(exclude))
    .map((b) => ({ value: String(b.id), label: b.name }));
  return <Select {...props} data={data} value={value === null || value === undefined || value === '' ? null : String(value)} />;
}
