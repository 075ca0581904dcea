/** The few pieces every UBL builder (invoices, notes, guides, vouchers) writes its XML with. */

// Text needs no escaped quote: written bare, as a signed document's serializer writes it (signature.ts).
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

type Attrs = Record<string, string | null | undefined>;
const attrText = (attrs: Attrs = {}) =>
  Object.entries(attrs)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('');

/** An element holding text (escaped). */
export const leaf = (name: string, text: string, attrs?: Attrs) => `<${name}${attrText(attrs)}>${escapeText(text)}</${name}>`;
/** An element holding elements; falsy children are left out. */
export const node = (name: string, children: (string | false | null | undefined)[], attrs?: Attrs) =>
  `<${name}${attrText(attrs)}>${children.filter(Boolean).join('')}</${name}>`;
