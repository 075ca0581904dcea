// `npm run bench -- first-load --throttle`: the time a branch on a slow link waits, in Chromium
// with DevTools' own throttling (issue 37): the "Fast 3G" preset and a 4× slower CPU.
//   - login usable, cold: an empty cache, navigation → the form can be typed in and sent;
//   - login usable, warm: the same browser opening /login again (its cache kept, no session);
//   - Panel painted, cold: a fresh browser types the credentials at a person's pace, then submit
//     → the Panel's counters and chart are on screen.
// Each is measured `runs` times, each cold run in a new browser context. Prints, never asserts.
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';

/**
 * DevTools' "Fast 3G" preset as Chromium's front end sends it: 1.6 Mbit/s down, 750 kbit/s up and
 * 150 ms RTT, each scaled by its packet-loss allowance (×0.9 bandwidth, ×3.75 latency).
 */
const FAST_3G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;
/** A person types a user name and a password at about 8 keys a second. */
const KEY_DELAY_MS = 120;

/**
 * Marks, in every document the page opens, the wall-clock moment the login form became usable (the
 * user field and an enabled Ingresar button) and the Panel painted (its total and its chart): a DOM
 * observer sees it as it happens, where polling from outside would add up to its interval.
 */
const MARKS = `(() => {
  const marks = (window.__tramoMarks = {});
  const check = () => {
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Ingresar');
    if (!marks.loginUsable && document.querySelector('input[autocomplete=username]') && button && !button.disabled) marks.loginUsable = Date.now();
    if (!marks.panelPainted && document.querySelector('[data-testid=counter-total]') && document.querySelector('svg[role=img][aria-label="Envíos por periodo y estado"]')) marks.panelPainted = Date.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function throttledPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(MARKS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return page;
}

const mark = (page: Page, name: 'loginUsable' | 'panelPainted') =>
  page
    .waitForFunction((n) => (window as unknown as { __tramoMarks?: Record<string, number> }).__tramoMarks?.[n], name, { timeout: 120_000 })
    .then((h) => h.jsonValue() as Promise<number>);

/** Navigation → the user name field accepts typing and the button can be pressed. */
async function loginUsable(page: Page, base: string): Promise<number> {
  const start = Date.now();
  await page.goto(`${base}/login`, { waitUntil: 'commit' });
  return (await mark(page, 'loginUsable')) - start;
}

/** Submit (the user typed at a person's pace meanwhile) → the Panel's counters and its chart are painted. */
async function panelAfterSubmit(page: Page): Promise<number> {
  await page.getByLabel('Usuario').pressSequentially('ADMIN', { delay: KEY_DELAY_MS });
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially('admin123', { delay: KEY_DELAY_MS });
  const start = Date.now();
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL((url) => url.pathname === '/', { waitUntil: 'commit' });
  return (await mark(page, 'panelPainted')) - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function measureThrottled(base: string, runs: number): Promise<void> {
  const browser: Browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const cold: number[] = [];
  const warm: number[] = [];
  const panel: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ locale: 'es-PE', timezoneId: 'America/Lima' });
      const first = await throttledPage(context);
      cold.push(await loginUsable(first, base));
      // Let whatever the page fetches after it is usable (the app it preloads) finish, as it
      // would while a person reads the page, so that the warm load finds it in the cache.
      await first.waitForLoadState('networkidle');
      // …and the worker that keeps the login page for next time, when the page registers one.
      await first.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 10_000))]));
      await first.close();
      const again = await throttledPage(context);
      warm.push(await loginUsable(again, base));
      await context.close();

      const fresh = await browser.newContext({ locale: 'es-PE', timezoneId: 'America/Lima' });
      const page = await throttledPage(fresh);
      await loginUsable(page, base);
      panel.push(await panelAfterSubmit(page));
      await fresh.close();
    }
  } finally {
    await browser.close();
  }
  const row = (label: string, xs: number[]) =>
    console.log(`${label.padEnd(40)} ${seconds(median(xs)).padStart(8)}   (${xs.map(seconds).join(', ')})`);
  console.log(
    `Fast 3G (${FAST_3G.latency} ms, ${((FAST_3G.downloadThroughput * 8) / 1e6).toFixed(2)} Mbit/s down), CPU ${CPU_SLOWDOWN}× slower; median of ${runs}`,
  );
  row('login usable, cold', cold);
  row('login usable, warm', warm);
  row('submit → Panel painted, cold', panel);
}
