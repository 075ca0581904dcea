import { documentKey, explainSunatAnswer, pendingAmountCents, sumCents } from '@tramo/domain';
import type { BillingDocument } from './types.ts';

/*
 * What SUNAT refuses of a document that reaches it, as the sandbox answers it: the first rule the
 * document breaks, with SUNAT's code and the Spanish explanation of how to fix it (the domain's one
 * map, sunat-hints.ts). Tramo's own checks refuse these before a number is taken, so only a caller
 * that skips them (another client, an older stored document sent again) meets these answers.
 */

export interface SandboxRejection {
  code: string;
  description: string;
}

/** What the sandbox knows of a modified document: absent, voided, rejected, or there. */
export type ModifiedState = 'missing' | 'voided' | 'rejected' | 'ok';

const SUNAT_SAYS: Record<string, string> = {
  '1001': 'El número de serie del comprobante no cumple con el formato establecido',
  '2119': 'El comprobante que se modifica no ha sido informado a SUNAT',
  '2120': 'El comprobante que se modifica se encuentra dado de baja',
  '2121': 'El comprobante que se modifica ha sido rechazado',
  '2800': 'El dato ingresado en el tipo de documento de identidad del receptor no está permitido',
  '3116': 'Debe consignar el ubigeo y la dirección del punto de origen del viaje',
  '3124': 'Debe consignar el valor referencial del servicio de transporte',
  '3125': 'Debe consignar el valor referencial sobre la carga efectiva',
  '3126': 'Debe consignar el valor referencial sobre la carga útil nominal',
  '3265': 'La suma de las cuotas no coincide con el monto neto pendiente de pago',
  '3267': 'La fecha de pago de la cuota debe ser posterior a la fecha de emisión',
};

export function rejectionOf(code: string): SandboxRejection {
  return { code, description: explainSunatAnswer(code, SUNAT_SAYS[code] ?? null) ?? code };
}

/** The key of the document a credit note modifies, for the sandbox's store. */
export function modifiedKey(doc: BillingDocument): string | null {
  const note = doc.creditNote;
  return note ? documentKey(note.modifiedType, note.modifiedSeries, note.modifiedNumber) : null;
}

/** The first rule SUNAT would refuse this document for, or null. */
export function sunatRejection(doc: BillingDocument, modified: ModifiedState | null): SandboxRejection | null {
  if (!/^([FB][A-Z0-9]{3}|\d{4})$/.test(doc.series)) return rejectionOf('1001');
  if (doc.type === '01' && doc.customer.docType !== 6) return rejectionOf('2800');
  if (doc.type === '07' && modified) {
    if (modified === 'missing') return rejectionOf('2119');
    if (modified === 'voided') return rejectionOf('2120');
    if (modified === 'rejected') return rejectionOf('2121');
  }
  if (doc.operationType === '1004') {
    const trip = doc.detraction?.trip;
    if (!trip || !/^\d{6}$/.test(trip.originUbigeo) || trip.originAddress.trim() === '') return rejectionOf('3116');
    if (!(trip.serviceReferenceCents > 0)) return rejectionOf('3124');
    if (!(trip.effectiveLoadReferenceCents > 0)) return rejectionOf('3125');
    if (!(trip.nominalLoadReferenceCents > 0)) return rejectionOf('3126');
  }
  if (doc.type === '01' && doc.payment.form === 'credito') {
    const pending = pendingAmountCents(doc.totals.totalCents, doc.detraction?.amountCents ?? 0);
    if (sumCents(doc.payment.instalments.map((c) => c.importeCents)) !== pending) return rejectionOf('3265');
    if (doc.payment.instalments.some((c) => c.fecha_de_pago <= doc.issueDate)) return rejectionOf('3267');
  }
  return null;
}
