import { toCents, type ChargeBasis, type ProductType } from '@tramo/domain';
import type { Shipment } from '../types.ts';
import { DEFAULT_WHO_PAYS, type WhoPaysValues } from './WhoPaysFields.tsx';

export interface LineValues {
  productType: ProductType;
  /** '' while the box is empty. */
  weightKg: number | '';
  /** Issue 34 (TariffSection): bultos, size per package in cm, charge basis and article. */
  packages?: number | '';
  lengthCm?: number | '';
  widthCm?: number | '';
  heightCm?: number | '';
  basis?: ChargeBasis;
  articleId?: number | null;
}

/** The form's own shape; the domain schema turns it into the API payload. Who pays: issue 33 (new shipments only). */
export interface ShipmentFormValues extends WhoPaysValues {
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
  /** Issue 34: soles, '' when undeclared. */
  declaredValue: number | '';
  insured: boolean;
  surcharges: string[];
}

export const emptyLine = (): LineValues => ({
  productType: 'liviano',
  weightKg: '',
  packages: 1,
  lengthCm: '',
  widthCm: '',
  heightCm: '',
  basis: 'peso',
  articleId: null,
});

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
    declaredValue: '',
    insured: false,
    surcharges: [],
    ...DEFAULT_WHO_PAYS,
  };
}

/** Edit mode: the stored shipment back into the form (the secret code is never returned). */
export function formFromShipment(s: Shipment): ShipmentFormValues {
  const lines = s.multiLineDetail?.length
    ? s.multiLineDetail.map((l): LineValues => ({
        productType: l.productType,
        weightKg: l.weightKg,
        packages: l.packages ?? 1,
        lengthCm: l.lengthCm ?? ('' as const),
        widthCm: l.widthCm ?? ('' as const),
        heightCm: l.heightCm ?? ('' as const),
        basis: l.basis ?? 'peso',
        articleId: l.articleId ?? null,
      }))
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
    declaredValue: s.declaredValue ?? '',
    insured: s.insured ?? false,
    surcharges: s.surcharges ?? [],
    // Not edited here (the detail's 'Cambiar' does it): the update payload leaves these out.
    ...DEFAULT_WHO_PAYS,
  };
}

/** Weights travel rounded to 0.01 kg (spec section 5). */
export const roundWeight = (w: number) => toCents(w) / 100;

/** Spec section 5: digits only, at most 11 in the box. */
export const recipientDocInput = (raw: string) => raw.replace(/\D/g, '').slice(0, 11);
