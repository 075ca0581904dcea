/**
 * The public tracking page (issue 18): `/seguimiento` (a search box) and `/seguimiento/{code}`.
 * Its own entry and bundle, opened from a label's QR on a phone: plain DOM, no React, no Mantine,
 * nothing of the staff app (the lint's boundaries forbid it). Only types and the dates module come from the domain.
 */
import type { PublicTracking } from '@tramo/domain';
// The dates module alone: the domain's index brings zod and its Spanish messages, which this small page does not need.
import { limaDateTime } from '@tramo/domain/dates';
import './public.css';

type Answer = { ok: true; tracking: PublicTracking } | { ok: false; message: string };
type Verified = PublicTracking & Required<Omit<PublicTracking, 'deliveredAt' | 'nextStep' | 'dueAtDestination'>>;

/**
 * What opens more than the status (issue 31): the key of the label's QR or of a message's link
 * (`?k=`), else the last 3 digits of the recipient's document, typed here.
 */
interface Access {
  k?: string;
  doc?: string;
}
const accessQuery = (access: Access) => {
  const query = new URLSearchParams(Object.entries(access).filter((entry): entry is [string, string] => !!entry[1])).toString();
  return query ? `?${query}` : '';
};

const FALLBACK_ERROR = 'No pudimos consultar el envío. Revisa tu conexión e inténtalo de nuevo.';
const root = document.getElementById('root')!;

/** An element with text children (never HTML): everything shown comes from the network. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<'class' | 'href' | 'role' | 'id' | 'aria-live' | 'aria-label' | 'type' | 'download' | 'datetime', string>> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) el.setAttribute(key, value);
  for (const child of children) if (child !== null) el.append(child);
  return el;
}

const place = (p: Verified['origin']) => (p.city && p.city !== p.name ? `${p.name} (${p.city})` : p.name);

function codeFromPath(): string | null {
  const match = /^\/seguimiento\/([^/]+)\/?$/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

async function fetchTracking(code: string, access: Access): Promise<Answer> {
  try {
    const res = await fetch(`/api/public/tracking/${encodeURIComponent(code)}${accessQuery(access)}`, { headers: { accept: 'application/json' } });
    const body: unknown = await res.json().catch(() => null);
    if (res.ok) return { ok: true, tracking: body as PublicTracking };
    const error = (body as { error?: unknown } | null)?.error;
    return { ok: false, message: typeof error === 'string' ? error : FALLBACK_ERROR };
  } catch {
    return { ok: false, message: FALLBACK_ERROR };
  }
}

function header(): HTMLElement {
  return h(
    'header',
    { class: 'brand' },
    h('a', { href: '/seguimiento', class: 'logo', 'aria-label': 'Tramo, seguimiento de envíos' }, 'Tramo'),
    h('span', {}, 'Seguimiento de envíos'),
  );
}

function searchForm(initial = ''): HTMLFormElement {
  const input = h('input', { id: 'code', type: 'search', 'aria-label': 'Código de envío' });
  input.placeholder = 'TMT-000123';
  input.value = initial;
  input.autocomplete = 'off';
  input.autocapitalize = 'characters';
  input.required = true;
  const form = h(
    'form',
    { class: 'search no-print', role: 'search' },
    h('label', { class: 'label' }, 'Código de envío'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Buscar')),
  );
  form.querySelector('label')!.htmlFor = 'code';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    history.pushState(null, '', `/seguimiento/${encodeURIComponent(code)}`);
    void render();
  });
  return form;
}

function timeline(events: Verified['events']): HTMLElement {
  const list = h('ol', { class: 'timeline' });
  // Newest first: what the customer wants to know is the last thing that happened.
  for (const event of [...events].reverse()) {
    list.append(h('li', {}, h('span', { class: 'event' }, event.name), h('time', { datetime: event.at }, limaDateTime(event.at))));
  }
  return list;
}

/** The status alone, and the document digits that open the rest. */
function statusView(t: PublicTracking): HTMLElement {
  const input = h('input', { id: 'doc', type: 'text', 'aria-label': 'Últimos 3 dígitos del documento' });
  input.inputMode = 'numeric';
  input.maxLength = 3;
  input.pattern = '[0-9]{3}';
  input.placeholder = '123';
  input.autocomplete = 'off';
  input.required = true;
  const error = h('p', { class: 'error', role: 'alert' });
  error.hidden = true;
  const form = h(
    'form',
    { class: 'search verify' },
    h('label', { class: 'label' }, 'Para ver el recorrido, ingresa los 3 últimos dígitos del documento del destinatario'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Ver recorrido')),
    error,
  );
  form.querySelector('label')!.htmlFor = 'doc';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const access = { doc: input.value.trim() };
      const answer = await fetchTracking(t.code, access);
      if (answer.ok && answer.tracking.verified) {
        form.closest('article')!.replaceWith(trackingView(answer.tracking as Verified, access));
        return;
      }
      error.textContent = answer.ok ? 'Los dígitos no coinciden con el documento del destinatario.' : answer.message;
      error.hidden = false;
      input.select();
    })();
  });
  return h(
    'article',
    { class: 'card', 'aria-live': 'polite' },
    h('div', { class: 'title' }, h('h1', {}, t.code), h('span', { class: `chip ${t.tone}` }, t.status)),
    form,
  );
}

function trackingView(t: Verified, access: Access): HTMLElement {
  const facts = h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Origen'),
    h('dd', {}, place(t.origin)),
    h('dt', {}, 'Destino'),
    h('dd', {}, place(t.destination)),
    h('dt', {}, 'Remitente'),
    h('dd', {}, t.senderName),
    h('dt', {}, 'Destinatario'),
    h('dd', {}, t.recipientName),
    h('dt', {}, 'Registrado'),
    h('dd', {}, limaDateTime(t.registeredAt)),
    ...(t.deliveredAt ? [h('dt', {}, 'Entregado'), h('dd', {}, limaDateTime(t.deliveredAt))] : []),
  );
  const print = h('button', { type: 'button', class: 'secondary' }, 'Imprimir');
  print.addEventListener('click', () => window.print());
  return h(
    'article',
    { class: 'card', 'aria-live': 'polite' },
    h('div', { class: 'title' }, h('h1', {}, t.code), h('span', { class: `chip ${t.tone}` }, t.status)),
    h('p', { class: 'route' }, `${t.origin.name} → ${t.destination.name}`),
    t.nextStep ? h('p', { class: 'next' }, t.nextStep) : null,
    // Pago en destino (issue 33): what the recipient pays at the counter; exact céntimos from the API.
    t.dueAtDestination != null ? h('p', { class: 'due' }, `Pago en destino: S/ ${t.dueAtDestination.toFixed(2)}`) : null,
    facts,
    h('h2', {}, 'Historial'),
    timeline(t.events),
    h(
      'div',
      { class: 'actions no-print' },
      // The customer's copy of the proof of delivery: no photo, signature or document.
      t.deliveredAt
        ? h(
            'a',
            {
              class: 'button',
              href: `/api/public/tracking/${encodeURIComponent(t.code)}/proof.pdf${accessQuery(access)}`,
              download: `constancia-${t.code}.pdf`,
            },
            'Descargar constancia',
          )
        : null,
      print,
    ),
  );
}

async function render(): Promise<void> {
  const code = codeFromPath();
  const body = h('section', { class: 'content' });
  root.replaceChildren(header(), searchForm(code ?? ''), body);
  if (!code) {
    body.append(h('p', { class: 'hint' }, 'Ingresa el código que figura en tu etiqueta o comprobante (por ejemplo TMT-000123).'));
    root.querySelector('input')!.focus();
    return;
  }
  document.title = `${code} · Seguimiento Tramo`;
  body.append(h('p', { class: 'hint', role: 'status' }, 'Buscando…'));
  // The key belongs to the code of the link it came with, not to one typed in the search box.
  const k = new URLSearchParams(location.search).get('k');
  const access: Access = k ? { k } : {};
  const answer = await fetchTracking(code, access);
  if (codeFromPath() !== code) return;
  if (!answer.ok) body.replaceChildren(h('p', { class: 'error', role: 'alert' }, answer.message));
  else if (answer.tracking.verified) body.replaceChildren(trackingView(answer.tracking as Verified, access));
  else {
    body.replaceChildren(statusView(answer.tracking));
    root.querySelector<HTMLInputElement>('#doc')!.focus();
  }
}

window.addEventListener('popstate', () => void render());
void render();
