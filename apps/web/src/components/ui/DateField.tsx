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

interface DayInputProps extends Omit<DateInputProps, 'value' | 'onChange'> {
  /** A calendar day, YYYY-MM-DD, or empty. */
  value: string | null | undefined;
  /** The day picked or typed, '' when cleared. */
  onChange: (day: string) => void;
}

/**
 * A day shown as dd/mm/aaaa whatever the browser's language (the native date input follows the
 * browser and shows mm/dd/yyyy in an English one), typed or picked from a Spanish calendar.
 */
export function DayInput({ value, onChange, ...props }: DayInputProps) {
  return (
    <DateInput
      valueFormat="DD/MM/YYYY"
      placeholder="dd/mm/aaaa"
      dateParser={parseDayInput}
      {...props}
      value={value || null}
      onChange={(day) => onChange(day ?? '')}
    />
  );
}

/** The lists' day filter: a compact, clearable DayInput. */
export function DateField({ onChange, ...props }: Omit<DayInputProps, 'onChange'> & { onChange: (day: string | null) => void }) {
  return (
    <DayInput size="xs" w={140} clearable clearButtonProps={{ 'aria-label': 'Borrar fecha' }} {...props} onChange={(day) => onChange(day || null)} />
  );
}
