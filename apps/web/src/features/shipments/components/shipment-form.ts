import { toCents, type ProductType } from '@tramo/domain';
import type { Shipment } from '../types.ts';

export interface LineValues {
  productType: ProductType;
  /** '' while the box is empty. */
  weightKg: number | '';
}

/** The form's own shape; the domain schema turns it into the API payload. */
export interface ShipmentFormValues {
  senderName: string;
  senderCustomerId: number | null;
  recipientDoc: string;
  recipientFirstName: string;
  recipientLastName: string;
  /** Where the recipient hears about the shipment (issue 18); optional, new shipments only. */
  recipientPhone: string;
  recipientEmail: string;
  originBranchId: number | null;
  destinationBranchId: number | null;
  description: string;
  secretCode: string;
  lines: LineValues[];
}

export const emptyLine = (): LineValues => ({ productType: 'liviano', weightKg: '' });

export function emptyShipmentForm(originBranchId: number | null): ShipmentFormValues {
  return {
    senderName: '',
    senderCustomerId: null,
    recipientDoc: '',
    recipientFirstName: '',
    recipientLastName: '',
    recipientPhone: '',
    recipientEmail: '',
    originBranchId,
    destinationBranchId: null,
    description: '',
    secretCode: '',
    lines: [emptyLine()],
  };
}

/** Edit mode: the stored shipment back into the form (the secret code is never returned). */
export function formFromShipment(s: Shipment): ShipmentFormValues {
  const lines = s.multiLineDetail?.length
    ? s.multiLineDetail.map((l) => ({ productType: l.productType, weightKg: l.weightKg }))
    : [{ productType: s.productType, weightKg: s.weightKg }];
  return {
    senderName: s.senderName,
    senderCustomerId: s.senderCustomerId,
    recipientDoc: s.recipientDoc,
    recipientFirstName: s.recipientFirstName,
    recipientLastName: s.recipientLastName,
    recipientPhone: '',
    recipientEmail: '',
    originBranchId: s.originBranchId,
    destinationBranchId: s.destinationBranchId,
    description: s.description ?? '',
    secretCode: '',
    lines,
  };
}

/** Weights travel rounded to 0.01 kg (spec section 5). */
export const roundWeight = (w: number) => toCents(w) / 100;

/** Spec section 5: digits only, at most 11 in the box. */
export const recipientDocInput = (raw: string) => raw.replace(/\D/g, '').slice(0, 11);
