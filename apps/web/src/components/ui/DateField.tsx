import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { DateInput, type DateInputProps } from '@mantine/dates';

dayjs.extend(customParseFormat);

/** Peruvian staff write dates day first; an ISO date (pasted from a link) is read too. */
const INPUT_FORMATS = ['DD/MM/YYYY', 'D/M/YYYY', 'YYYY-MM-DD'];

/** Strict: a half-typed '1/0' is not a date yet, so filters wait for a whole one. */
export function parseDayInput(text: string): string | null {
  const parsed = dayjs(text.trim(), INPUT_FORMATS, true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}

interface DateFieldProps extends Omit<DateInputProps, 'value' | 'onChange'> {
  /** A calendar day, YYYY-MM-DD, or empty. */
  value: string | null | undefined;
  onChange: (day: string | null) => void;
}

/**
 * A day filter shown as dd/mm/aaaa whatever the browser's language (the native date input follows
 * the browser and shows mm/dd/yyyy in an English one), typed or picked from a Spanish calendar.
 */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  return (
    <DateInput
      size="xs"
      w={140}
      valueFormat="DD/MM/YYYY"
      placeholder="dd/mm/aaaa"
      dateParser={parseDayInput}
      clearable
      clearButtonProps={{ 'aria-label': 'Borrar fecha' }}
      {...props}
      value={value || null}
      onChange={onChange}
    />
  );
}
