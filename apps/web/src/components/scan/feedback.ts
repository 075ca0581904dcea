/** How a scan ended: ok (green), info (blue, nothing changed), warn (orange), error (red, refused), unknown (grey, no such code). */
export type ScanTone = 'ok' | 'info' | 'warn' | 'error' | 'unknown';
export interface ScanFeedback {
  tone: ScanTone;
  message: string;
  /** A question the read leaves open ('¿Cargarlo igual?'): its button answers it with a new read. */
  confirm?: { label: string; run: () => Promise<ScanFeedback> };
}

export const SCAN_COLORS: Record<ScanTone, string> = { ok: 'teal', info: 'blue', warn: 'orange', error: 'red', unknown: 'gray' };

/** One short beep for a good read, two low ones for a refusal: the counter hears it without looking. */
const BEEPS: Record<ScanTone, { hz: number; times: number }> = {
  ok: { hz: 1320, times: 1 },
  info: { hz: 880, times: 1 },
  warn: { hz: 660, times: 2 },
  error: { hz: 330, times: 2 },
  unknown: { hz: 220, times: 3 },
};

let audio: AudioContext | null = null;
export function beep(tone: ScanTone) {
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
