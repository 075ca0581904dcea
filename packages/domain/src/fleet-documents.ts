import { addDays, dayMs } from './calendar.ts';
import { limaDay } from './dates.ts';

/**
 * Vehicle and driver documents with expiry (DESIGN.md 5b): what keeps an expired truck or driver
 * off the road. Days are Lima calendar days: a document that expires today is valid until 23:59
 * Lima, and expired from the next day's 00:00.
 */
export const VEHICLE_DOCUMENT_TYPES = ['soat', 'citv', 'tuc', 'seguro'] as const;
export const DRIVER_DOCUMENT_TYPES = ['licencia', 'examen_medico'] as const;
export const FLEET_DOCUMENT_TYPES = [...VEHICLE_DOCUMENT_TYPES, ...DRIVER_DOCUMENT_TYPES] as const;
export type FleetDocumentType = (typeof FLEET_DOCUMENT_TYPES)[number];

export const FLEET_DOCUMENT_LABELS: Record<FleetDocumentType, string> = {
  soat: 'SOAT',
  citv: 'CITV (revisión técnica)',
  tuc: 'TUC / CHV',
  seguro: 'Seguro vehicular',
  licencia: 'Licencia de conducir',
  examen_medico: 'Examen médico',
};

/** The documents without which a vehicle or a driver does not leave. */
export const REQUIRED_VEHICLE_DOCUMENTS: readonly FleetDocumentType[] = ['soat', 'citv'];
export const REQUIRED_DRIVER_DOCUMENTS: readonly FleetDocumentType[] = ['licencia'];

/** Alerts go out this many days before expiry, once each. */
export const EXPIRY_ALERT_WINDOWS = [30, 15, 7] as const;
export type ExpiryAlertWindow = (typeof EXPIRY_ALERT_WINDOWS)[number];

export type ExpiryState = 'vigente' | 'por_vencer' | 'vencido';

const DAY_MS = 86_400_000;
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** Whole Lima days from `now` until the expiry day (0 = expires today, negative = expired). */
export function daysUntilExpiry(expiresOn: string, now: Date): number {
  return Math.round((dayMs(expiresOn) - dayMs(limaDay(now))) / DAY_MS);
}

export function isExpired(expiresOn: string, now: Date): boolean {
  return daysUntilExpiry(expiresOn, now) < 0;
}

export function expiryState(expiresOn: string, now: Date, soonDays = EXPIRY_ALERT_WINDOWS[0]): ExpiryState {
  const days = daysUntilExpiry(expiresOn, now);
  if (days < 0) return 'vencido';
  return days <= soonDays ? 'por_vencer' : 'vigente';
}

/**
 * The alert window a document is in today: the smallest window that has begun (7 within a week,
 * then 15, then 30), or null outside them and once expired. An alert is sent once per window.
 */
export function alertWindow(expiresOn: string, now: Date): ExpiryAlertWindow | null {
  const days = daysUntilExpiry(expiresOn, now);
  if (days < 0) return null;
  return EXPIRY_ALERT_WINDOWS.filter((w) => days <= w).at(-1) ?? null;
}

/** The Lima day a window opens for a document (the day its alert is due). */
export function alertDay(expiresOn: string, window: ExpiryAlertWindow): string {
  return addDays(expiresOn, -window);
}

export interface HeldDocument {
  type: FleetDocumentType;
  number: string | null;
  expiresOn: string;
}

/** 'El SOAT de ABC-123 venció el 20/11/2026.' */
export function expiredDocumentMessage(doc: Pick<HeldDocument, 'type' | 'expiresOn'>, holder: string): string {
  const label = doc.type === 'licencia' ? 'La licencia' : doc.type === 'examen_medico' ? 'El examen médico' : `El ${FLEET_DOCUMENT_LABELS[doc.type]}`;
  return `${label} de ${holder} venció el ${ddmmyyyy(doc.expiresOn)}.`;
}

export const missingDocumentMessage = (type: FleetDocumentType, holder: string) => `${holder} no tiene ${FLEET_DOCUMENT_LABELS[type]} registrado.`;

/**
 * The first reason a vehicle or driver may not leave today: a required document missing, or
 * expired (of several copies of one type, the one that expires last counts). null = may leave.
 */
export function complianceRefusal(
  documents: readonly HeldDocument[],
  required: readonly FleetDocumentType[],
  holder: string,
  now: Date,
): string | null {
  for (const type of required) {
    const latest = documents.filter((d) => d.type === type).reduce<HeldDocument | null>((a, d) => (!a || d.expiresOn > a.expiresOn ? d : a), null);
    if (!latest) return missingDocumentMessage(type, holder);
    if (isExpired(latest.expiresOn, now)) return expiredDocumentMessage(latest, holder);
  }
  return null;
}

/** A shipment as a load carries it into guides: who sends and who receives. */
export interface LoadParty {
  docType: string;
  docNumber: string;
}
export interface LoadedForGuide<Id = number> {
  id: Id;
  sender: LoadParty;
  recipient: LoadParty;
}

/**
 * A GRE transportista names one remitente and one destinatario: a mixed load is issued as one
 * guide per remitente/destinatario pair, in the order the pairs first appear on the load.
 */
export function groupLoadIntoGuides<Id>(shipments: readonly LoadedForGuide<Id>[]): { sender: LoadParty; recipient: LoadParty; shipmentIds: Id[] }[] {
  const groups = new Map<string, { sender: LoadParty; recipient: LoadParty; shipmentIds: Id[] }>();
  for (const s of shipments) {
    const key = `${s.sender.docType}:${s.sender.docNumber}|${s.recipient.docType}:${s.recipient.docNumber}`;
    const group = groups.get(key) ?? { sender: s.sender, recipient: s.recipient, shipmentIds: [] };
    group.shipmentIds.push(s.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}
