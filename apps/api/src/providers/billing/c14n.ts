/*
 * Exclusive XML canonicalisation (xml-exc-c14n, without comments) of the XML this app writes
 * (xml.ts): elements, attributes in double quotes, text with the predefined entities or character
 * references, an optional XML declaration; nothing else. Signing canonicalised every document by
 * parsing it into a DOM and walking it with xpath (xml-crypto): most of a receipt's signing time,
 * on the event loop (issue 37). This reads the text once with one regular expression instead.
 * Anything outside that shape (a comment, CDATA, a DOCTYPE, a processing instruction, malformed
 * text) answers null, and the caller signs through the DOM as before.
 */

/** A start tag, an end tag, or text: the whole of what xml.ts writes. */
const TOKEN = /<(\/?)([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*"[^"<]*")*)\s*(\/?)>|([^<]+)/y;
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)\s*=\s*"([^"<]*)"/g;
const REFERENCE = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9A-Fa-f]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

class NotOurXml extends Error {}

function unescape(text: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.test(text)) throw new NotOurXml('bare &');
  return text.replace(REFERENCE, (_, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
    name ? NAMED[name]! : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)),
  );
}

// What a parser hands c14n (line ends as \n; in an attribute, literal white space as spaces), then c14n's own escaping.
const textOf = (raw: string) =>
  unescape(raw.replace(/\r\n?/g, '\n')).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
const attributeOf = (raw: string) =>
  unescape(raw.replace(/\r\n|[\t\n\r]/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#x9;')
    .replace(/\n/g, '&#xA;')
    .replace(/\r/g, '&#xD;');

const prefixOf = (qname: string) => (qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : '');
const localOf = (qname: string) => (qname.includes(':') ? qname.slice(qname.indexOf(':') + 1) : qname);
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Open {
  name: string;
  /** Namespaces in scope (declared here or above), prefix '' for the default. */
  inScope: Map<string, string>;
  /** Namespaces rendered on the output so far along this path, as exc-c14n tracks them. */
  rendered: Map<string, string>;
}

/** The exc-c14n form of the document element of `xml`, or null when `xml` is not of the shape above. */
export function canonicalize(xml: string): string | null {
  try {
    return canonical(xml);
  } catch (err) {
    if (err instanceof NotOurXml) return null;
    throw err;
  }
}

function canonical(xml: string): string {
  let body = xml.replace(/^\uFEFF/, '');
  const declaration = /^<\?xml\s[^?]*\?>/.exec(body);
  if (declaration) body = body.slice(declaration[0].length);
  body = body.trim();
  const out: string[] = [];
  const stack: Open[] = [];
  let closedRoot = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(body);
    if (!m || m.index !== at) throw new NotOurXml(`unexpected markup at ${at}`);
    const [, closing, name, attrs, selfClosing, text] = m;
    if (text !== undefined) {
      // Text outside the document element is white space only, and c14n drops it.
      if (stack.length === 0) {
        if (text.trim() !== '') throw new NotOurXml('text outside the root');
        continue;
      }
      out.push(textOf(text));
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name || attrs || selfClosing) throw new NotOurXml('mismatched end tag');
      out.push(`</${name}>`);
      if (stack.length === 0) closedRoot = true;
      continue;
    }
    if (closedRoot) throw new NotOurXml('a second root');
    const parent = stack[stack.length - 1];
    const inScope = new Map(parent?.inScope ?? [['', '']]);
    const plain: [string, string][] = [];
    for (const [, qname, value] of attrs!.matchAll(ATTRIBUTE)) {
      if (qname === 'xmlns') inScope.set('', unescape(value!));
      else if (qname!.startsWith('xmlns:')) inScope.set(qname!.slice(6), unescape(value!));
      else plain.push([qname!, value!]);
    }
    const uriOf = (prefix: string) => {
      if (prefix === 'xml') return XML_NS;
      const uri = inScope.get(prefix);
      if (uri === undefined) throw new NotOurXml(`undeclared prefix ${prefix}`);
      return uri;
    };
    // Visibly utilised: the element's own prefix (or the default namespace) and its attributes' prefixes.
    const utilised = new Set([prefixOf(name!)]);
    for (const [qname] of plain) if (qname.includes(':') && prefixOf(qname) !== 'xml') utilised.add(prefixOf(qname));
    const rendered = new Map(parent?.rendered ?? [['', '']]);
    const declarations: [string, string][] = [];
    for (const prefix of [...utilised].sort(byCodeUnits)) {
      const uri = uriOf(prefix);
      if (rendered.get(prefix) === uri) continue;
      // An unprefixed element outside any default namespace renders xmlns="" only to undo one rendered above.
      if (prefix === '' && uri === '' && !rendered.get('')) continue;
      rendered.set(prefix, uri);
      declarations.push([prefix, uri]);
    }
    const sortedAttrs = plain
      .map(([qname, value]) => ({ qname, value, uri: qname.includes(':') ? uriOf(prefixOf(qname)) : '', local: localOf(qname) }))
      .sort((a, b) => byCodeUnits(a.uri, b.uri) || byCodeUnits(a.local, b.local));
    let tag = `<${name}`;
    for (const [prefix, uri] of declarations) tag += prefix ? ` xmlns:${prefix}="${attributeOf(uri)}"` : ` xmlns="${attributeOf(uri)}"`;
    for (const a of sortedAttrs) tag += ` ${a.qname}="${attributeOf(a.value)}"`;
    out.push(`${tag}>`);
    if (selfClosing) {
      out.push(`</${name}>`);
      if (!parent) closedRoot = true;
    } else stack.push({ name: name!, inScope, rendered });
  }
  if (stack.length > 0 || !closedRoot) throw new NotOurXml('unclosed element');
  return out.join('');
}
