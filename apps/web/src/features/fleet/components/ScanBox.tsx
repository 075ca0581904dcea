import { useRef, useState } from 'react';
import { Alert, Button, Group, List, Paper, Text, TextInput, Title } from '@mantine/core';

/** How a scan ended: ok (green), info (blue, nothing changed), warn (orange), error (red, refused), unknown (grey, no such code). */
export type ScanTone = 'ok' | 'info' | 'warn' | 'error' | 'unknown';
export interface ScanFeedback {
  tone: ScanTone;
  message: string;
  /** A question the read leaves open ('¿Cargarlo igual?'): its button answers it with a new read. */
  confirm?: { label: string; run: () => Promise<ScanFeedback> };
}

const COLORS: Record<ScanTone, string> = { ok: 'teal', info: 'blue', warn: 'orange', error: 'red', unknown: 'gray' };
/** One short beep for a good read, two low ones for a refusal: the counter hears it without looking. */
const BEEPS: Record<ScanTone, { hz: number; times: number }> = {
  ok: { hz: 1320, times: 1 },
  info: { hz: 880, times: 1 },
  warn: { hz: 660, times: 2 },
  error: { hz: 330, times: 2 },
  unknown: { hz: 220, times: 3 },
};

let audio: AudioContext | null = null;
function beep(tone: ScanTone) {
  const Context = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Context) return;
  try {
    audio ??= new Context();
    const { hz, times } = BEEPS[tone];
    for (let i = 0; i < times; i++) {
      const start = audio.currentTime + i * 0.18;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.15);
    }
  } catch {
    // No sound is no reason to fail a scan: the colour and the text still tell.
  }
}

/**
 * A code box for a USB barcode scanner (it types the code and Enter) or the keyboard: each read is
 * answered at once with a colour, a sound and a line, the box empties and keeps the focus for the next.
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

  const answer = async (read: () => Promise<ScanFeedback>) => {
    setBusy(true);
    const feedback = await read();
    setBusy(false);
    beep(feedback.tone);
    counter.current += 1;
    setHistory((h) => [{ ...feedback, n: counter.current }, ...h].slice(0, 6));
    input.current?.focus();
  };
  const submit = async () => {
    const code = value.trim();
    if (!code || busy) return;
    setValue('');
    await answer(() => onScan(code));
  };

  return (
    <Paper withBorder p="sm" bg={last ? `var(--mantine-color-${COLORS[last.tone]}-light)` : undefined} data-scan-tone={last?.tone}>
      <Title order={5} mb="xs">
        {title}
      </Title>
      <TextInput
        ref={input}
        aria-label={label}
        placeholder="Escanea o escribe el código y pulsa Enter"
        value={value}
        disabled={disabled}
        autoFocus={autoFocus}
        autoComplete="off"
        ff="monospace"
        onChange={(e) => setValue(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void submit();
          }
        }}
      />
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
                void answer(confirm.run);
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
