import {
  BILLING_DOC_TYPE_LABELS,
  BILLING_DOC_TYPES,
  CREDIT_NOTE_REASON_LABELS,
  CREDIT_NOTE_REASONS,
  DETRACTION_PAYMENT_MEANS,
  DETRACTION_PAYMENT_MEANS_LABELS,
  GUIDE_REFERENCE_LABELS,
  GUIDE_REFERENCE_TYPES,
  IGV_TYPE_LABELS,
  IGV_TYPES,
  INVOICE_UNIT_LABELS,
  INVOICE_UNITS,
} from '@tramo/domain';

/** The form's select options, each labelled with its SUNAT code and its name. */
export const TYPE_OPTIONS = [
  { value: '03', label: '03 · Boleta' },
  { value: '01', label: '01 · Factura' },
  { value: '07', label: '07 · Nota de crédito' },
];
export const MODIFIED_TYPE_OPTIONS = TYPE_OPTIONS.filter((o) => o.value !== '07');
export const UNIT_OPTIONS = INVOICE_UNITS.map((u) => ({ value: u, label: `${u} · ${INVOICE_UNIT_LABELS[u]}` }));
export const IGV_OPTIONS = IGV_TYPES.map((t) => ({ value: t, label: `${t} · ${IGV_TYPE_LABELS[t]}` }));
export const REASON_OPTIONS = CREDIT_NOTE_REASONS.map((r) => ({ value: r, label: `${r} · ${CREDIT_NOTE_REASON_LABELS[r]}` }));
export const MEANS_OPTIONS = DETRACTION_PAYMENT_MEANS.map((m) => ({ value: String(m), label: `${m} · ${DETRACTION_PAYMENT_MEANS_LABELS[m]}` }));
export const GUIDE_OPTIONS = GUIDE_REFERENCE_TYPES.map((t) => ({ value: String(t), label: `${t} · ${GUIDE_REFERENCE_LABELS[t]}` }));
export const DOC_TYPE_OPTIONS = BILLING_DOC_TYPES.map((t) => ({ value: String(t), label: BILLING_DOC_TYPE_LABELS[t] }));
