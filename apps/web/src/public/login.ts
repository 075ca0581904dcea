/**
 * The login page opened by address (issue 37): a page of its own, a few kilobytes built into its
 * HTML (vite.config.ts), so a branch on a slow link can type while the staff app downloads. Once the form
 * is usable it loads the app and the Panel (as the build listed them in the page) and runs their
 * modules; signing in then stores the session where the app reads it and starts the app in this
 * same document, at the app's address, instead of opening a new page that would load and run it
 * all again. The rules of the fields live in the domain: the API checks them and its Spanish
 * messages are shown under each field. Inside the app (logging out, a guarded page) the app's own
 * login page is shown instead.
 */
import './login.css';
import { loginFieldProblem } from '@tramo/domain/login-rules';

/** The browser storage key the app reads the session from (lib/session.ts). */
const AUTH_STORAGE_KEY = 'auth';
const FALLBACK_ERROR = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.';
const DEMO_CREDENTIALS = [
  ['ADMIN', 'admin123'],
  ['AGENTE1', 'agente123'],
  ['AGENTE2', 'agente123'],
  ['REPARTIDOR1', 'reparto123'],
] as const;

interface LoginAnswer {
  token: string;
  user: { mustChangePassword: boolean };
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) el.setAttribute(key, value);
  for (const child of children) if (child !== null) el.append(child);
  return el;
}

/** Already signed in (another tab, a reload): straight to the app, as its own login page does. */
function storedSession(): LoginAnswer | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null') as Partial<LoginAnswer> | null;
    return parsed?.token && parsed.user ? (parsed as LoginAnswer) : null;
  } catch {
    return null;
  }
}

/** The files of the staff app the build wrote into this page (vite.config.ts); none in development. */
interface AppFiles {
  /** The module that starts the app (app/start.tsx). */
  start: string;
  /** The Panel's page, run ahead so that the app finds it ready. */
  pages: string[];
  /** Every script and style those need. */
  files: string[];
}

interface AppStart {
  startApp: (container: HTMLElement, session: LoginAnswer) => void;
}

const appFiles = JSON.parse(document.getElementById('app-files')?.textContent ?? 'null') as AppFiles | null;
/** The app's start module, once warmTheApp has asked for it. */
let appStart: Promise<AppStart> | null = null;
/** This page's styles (inline in the built page, injected in development), before the app adds its own. */
const ownStyles = [...document.querySelectorAll('style, link[rel=stylesheet]')];
/** The app's styles, loaded but switched off (media "not all") until the app starts. */
const appStyles: HTMLLinkElement[] = [];

/**
 * Fetches the app's scripts into this document's module map (modulepreload: fetched once, then
 * reused by the imports) and its styles switched off, then runs the app's modules and the Panel's
 * while the user types, so that signing in only has to render.
 */
function warmTheApp() {
  if (!appFiles) return;
  for (const file of appFiles.files) {
    if (file.endsWith('.css')) {
      const style = h('link', { rel: 'stylesheet', href: file, media: 'not all' });
      appStyles.push(style);
      document.head.append(style);
    } else document.head.append(h('link', { rel: 'modulepreload', href: file }));
  }
  appStart = import(/* @vite-ignore */ appFiles.start) as Promise<AppStart>;
  for (const page of appFiles.pages) import(/* @vite-ignore */ page).catch(() => {});
}

/**
 * Into the app: started here when its modules are loaded (waiting for them if the user was quicker),
 * else (development, or files gone after an upgrade) by opening its address.
 */
async function enter(session: LoginAnswer) {
  const target = session.user.mustChangePassword ? '/change-password' : '/';
  const start = await appStart?.catch(() => null);
  if (!start) {
    location.replace(target);
    return;
  }
  const root = document.getElementById('root')!;
  const card = root.firstElementChild;
  // This page's styles set the look of bare elements: they go when the app replaces the card, not before.
  new MutationObserver((_, observer) => {
    if (card?.isConnected) return;
    observer.disconnect();
    for (const style of ownStyles) style.remove();
  }).observe(root, { childList: true });
  history.replaceState(null, '', target);
  document.title = 'Tramo';
  try {
    // The app asks for its first page's data as it starts; switching the styles on makes the browser
    // restyle the page, so it comes after (still before React's first render, a task later).
    start.startApp(root, session);
    for (const style of appStyles) style.media = 'all';
  } catch {
    location.replace(target);
  }
}

function field(id: string, label: string, input: HTMLInputElement): { wrap: HTMLElement; error: HTMLElement } {
  const error = h('p', { class: 'field-error', id: `${id}-error` });
  error.hidden = true;
  input.id = id;
  input.setAttribute('aria-describedby', error.id);
  return { wrap: h('div', { class: 'field' }, h('label', { for: id }, label), input, error), error };
}

function render() {
  const username = h('input', { type: 'text', name: 'username', autocomplete: 'username', autocapitalize: 'characters' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password' });
  const user = field('username', 'Usuario', username);
  const pass = field('password', 'Contraseña', password);
  const toggle = h('button', { type: 'button', class: 'toggle', 'aria-label': 'Mostrar contraseña', 'aria-pressed': 'false' }, 'Ver');
  toggle.addEventListener('click', () => {
    const shown = password.type === 'password';
    password.type = shown ? 'text' : 'password';
    toggle.setAttribute('aria-pressed', String(shown));
    toggle.setAttribute('aria-label', shown ? 'Ocultar contraseña' : 'Mostrar contraseña');
    toggle.textContent = shown ? 'Ocultar' : 'Ver';
  });
  pass.wrap.querySelector('input')!.after(toggle);
  const alert = h('div', { class: 'alert', role: 'alert' });
  alert.hidden = true;
  const submit = h('button', { type: 'submit', class: 'submit' }, 'Ingresar');
  const form = h('form', { novalidate: '' }, alert, user.wrap, pass.wrap, submit);
  const demo = h('section', { class: 'demo', 'aria-labelledby': 'demo-credentials' });
  demo.hidden = true;

  const inputs = { username: { ...user, input: username }, password: { ...pass, input: password } };
  const showField = (name: keyof typeof inputs, text: string | undefined) => {
    const { error, input } = inputs[name];
    error.textContent = text ?? '';
    error.hidden = !text;
    input.setAttribute('aria-invalid', String(!!text));
  };
  const showErrors = (fields: Record<string, string>, message: string | null) => {
    showField('username', fields.username);
    showField('password', fields.password);
    alert.textContent = message ?? '';
    alert.hidden = !message;
  };
  // Issue 38: a field left with a value the API would refuse says so at once, in the domain's words.
  for (const name of ['username', 'password'] as const) {
    inputs[name].input.addEventListener('blur', () => showField(name, loginFieldProblem(name, inputs[name].input.value) ?? undefined));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (submit.disabled) return;
    const problems = { username: loginFieldProblem('username', username.value), password: loginFieldProblem('password', password.value) };
    if (problems.username || problems.password) {
      showErrors(
        { ...(problems.username ? { username: problems.username } : {}), ...(problems.password ? { password: problems.password } : {}) },
        null,
      );
      (problems.username ? username : password).focus();
      return;
    }
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    void signIn(username.value, password.value)
      .then((answer) => {
        if ('token' in answer) {
          localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(answer));
          return enter(answer);
        }
        const fields = answer.fields ?? {};
        showErrors(fields, Object.keys(fields).length ? null : (answer.error ?? FALLBACK_ERROR));
      })
      .finally(() => {
        submit.disabled = false;
        submit.removeAttribute('aria-busy');
      });
  });

  document
    .getElementById('root')!
    .replaceChildren(
      h(
        'main',
        { class: 'card' },
        h('p', { class: 'brand' }, 'Tramo'),
        h('h1', {}, 'Iniciar sesión'),
        h('p', { class: 'subtitle' }, 'Back-office de envíos y carga'),
        form,
        demo,
      ),
    );
  username.focus();
  void showDemoCredentials(demo);
}

async function signIn(username: string, password: string): Promise<LoginAnswer | { error?: string; fields?: Record<string, string> }> {
  try {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json().catch(() => ({}))) as LoginAnswer & { error?: string; fields?: Record<string, string> };
    return res.ok ? body : { error: body.error, fields: body.fields };
  } catch {
    return { error: FALLBACK_ERROR };
  }
}

/** The demo's users, when the server runs the demo: information, not an alert. */
async function showDemoCredentials(section: HTMLElement) {
  const health = (await fetch('/api/health')
    .then((r) => r.json())
    .catch(() => null)) as { demo?: boolean } | null;
  if (!health?.demo) return;
  section.append(
    h('p', { id: 'demo-credentials', class: 'demo-title' }, 'Credenciales de demostración'),
    ...DEMO_CREDENTIALS.map(([name, secret]) => h('p', {}, h('code', {}, name), ' / ', h('code', {}, secret))),
  );
  section.hidden = false;
}

/**
 * After the page's own load, so nothing competes with the form for the link: the app, and (in the
 * built app) the worker that serves this page from the cache next time.
 */
function afterLoad() {
  warmTheApp();
  if (import.meta.env.PROD) navigator.serviceWorker?.register('/login-sw.js', { scope: '/login' }).catch(() => {});
}

const session = storedSession();
if (session) location.replace(session.user.mustChangePassword ? '/change-password' : '/');
else {
  render();
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad, { once: true });
}
