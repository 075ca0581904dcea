import { useRef, useState } from 'react';
import { Alert, Button, Group, List, Paper, Text, TextInput, Title } from '@mantine/core';
import { CameraScanButton } from '../../../components/scan/CameraScanButton.tsx';
import { beep, SCAN_COLORS as COLORS, type ScanFeedback } from '../../../components/scan/feedback.ts';

export type { ScanFeedback, ScanTone } from '../../../components/scan/feedback.ts';

/**
 * A code box for a USB barcode scanner (it types the code and Enter), the keyboard, or a tablet's
 * camera ('Cámara'): each read is answered at once with a colour, a sound and a line, the box
 * empties and keeps the focus for the next.
 */
export function ScanBox({
  title,
  label,
  onScan,
  disabled,
  autoFocus,
}: {
  title: string;
  label: string;
  onScan: (code: string) => Promise<ScanFeedback>;
  disabled?: boolean;
  /** The screen's first box: a scanner's first read lands here without a click. */
  autoFocus?: boolean;
}) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState<(ScanFeedback & { n: number })[]>([]);
  const counter = useRef(0);
  const input = useRef<HTMLInputElement>(null);
  const last = history[0];

  // One path for every read: typed, seen by the camera, or a confirmation ('Cargar igual').
  const answer = async (read: () => Promise<ScanFeedback>): Promise<ScanFeedback> => {
    setBusy(true);
    const feedback = await read();
    setBusy(false);
    beep(feedback.tone);
    counter.current += 1;
    setHistory((h) => [{ ...feedback, n: counter.current }, ...h].slice(0, 6));
    return feedback;
  };

  const handle = (code: string) => answer(() => onScan(code));

  const submit = async () => {
    const code = value.trim();
    if (!code || busy) return;
    setValue('');
    await handle(code);
    input.current?.focus();
  };

  return (
    <Paper withBorder p="sm" bg={last ? `var(--mantine-color-${COLORS[last.tone]}-light)` : undefined} data-scan-tone={last?.tone}>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          ref={input}
          aria-label={label}
          placeholder="Escanea o escribe el código y pulsa Enter"
          value={value}
          disabled={disabled}
          autoFocus={autoFocus}
          autoComplete="off"
          ff="monospace"
          flex={1}
          onChange={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <CameraScanButton title={`${title} con la cámara`} onRead={handle} onClose={() => input.current?.focus()} disabled={disabled} />
      </Group>
      {last && (
        <Alert color={COLORS[last.tone]} variant="filled" mt="xs" role="status" aria-live="polite" key={last.n}>
          {last.message}
          {last.confirm && (
            <Button
              size="xs"
              variant="white"
              color={COLORS[last.tone]}
              ml="sm"
              loading={busy}
              onClick={() => {
                const confirm = last.confirm!;
                setHistory((h) => h.map((entry) => (entry.n === last.n ? { ...entry, confirm: undefined } : entry)));
                void answer(confirm.run).then(() => input.current?.focus());
              }}
            >
              {last.confirm.label}
            </Button>
          )}
        </Alert>
      )}
      {history.length > 1 && (
        <List size="xs" mt="xs" spacing={2} aria-label="Lecturas anteriores">
          {history.slice(1).map((h) => (
            <List.Item key={h.n}>
              <Group gap={6} wrap="nowrap">
                <Text span size="xs" c={`${COLORS[h.tone]}.9`} fw={700}>
                  ●
                </Text>
                <Text span size="xs">
                  {h.message}
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}
