import { describe, expect, it } from 'vitest';
import {
  driverSchema,
  exceedsCapacity,
  FLEET_MESSAGES,
  isValidPlate,
  loadShipmentsSchema,
  normalizePlate,
  routeText,
  TRANSPORT_STATUS_TONES,
  transportListQuerySchema,
  transportSchema,
} from '../src/index.ts';

function errorsOf(schema: typeof transportSchema | typeof driverSchema, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('plates', () => {
  it.each([
    ['abc123', 'ABC-123'],
    ['  abc-123 ', 'ABC-123'],
    ['a1b 234', 'A1B-234'],
    ['T1A-9876', 'T1A-9876'],
    ['ABCD1234', 'ABCD1234'],
  ])('normalises %s to %s', (raw, plate) => {
    expect(normalizePlate(raw)).toBe(plate);
    expect(isValidPlate(plate)).toBe(true);
  });

  it.each(['AB-12', 'ABC-12345X', 'ABC_123', 'AB--C123', '-ABC123', 'ÁBC-123'])('rejects %s', (raw) => {
    expect(isValidPlate(normalizePlate(raw))).toBe(false);
  });
});

describe('transport form (spec section 5)', () => {
  const minimal = { plate_primary: ' abc123 ' };

  it('requires plate_primary, trims and normalises it; blank texts and numbers become null', () => {
    expect(errorsOf(transportSchema, {})).toEqual({ plate_primary: FLEET_MESSAGES.plateRequired });
    expect(errorsOf(transportSchema, { plate_primary: '   ' })).toEqual({ plate_primary: FLEET_MESSAGES.plateRequired });
    expect(
      transportSchema.parse({ ...minimal, plate_secondary: '  ', make: '  ', model: '', capacity_kg: '', net_weight_kg: null, route: ' ' }),
    ).toEqual({
      plate_primary: 'ABC-123',
      plate_secondary: null,
      make: null,
      model: null,
      capacity_kg: null,
      net_weight_kg: null,
      status: 'disponible',
      origin_branch_id: null,
      destination_branch_id: null,
      route: null,
      driver_id_1: null,
      driver_id_2: null,
      vehicle_type: 'camion',
      tuc_number: null,
      configuration: null,
      payload_kg: null,
      axles: null,
      trailer_id: null,
    });
  });

  it('keeps trimmed texts and numbers ≥ 0 (strings from inputs too)', () => {
    const t = transportSchema.parse({ ...minimal, make: ' Volvo ', model: ' FH ', capacity_kg: '12000.456', net_weight_kg: 0, status: 'en_ruta' });
    expect(t).toMatchObject({ make: 'Volvo', model: 'FH', capacity_kg: 12000.46, net_weight_kg: 0, status: 'en_ruta' });
  });

  it('refuses negative or non-numeric weights, an unknown status and a bad plate', () => {
    expect(errorsOf(transportSchema, { ...minimal, capacity_kg: -1 })).toEqual({ capacity_kg: FLEET_MESSAGES.numberInvalid });
    expect(errorsOf(transportSchema, { ...minimal, net_weight_kg: 'mucho' })).toEqual({ net_weight_kg: FLEET_MESSAGES.numberInvalid });
    expect(errorsOf(transportSchema, { ...minimal, status: 'roto' })).toEqual({ status: FLEET_MESSAGES.statusInvalid });
    expect(errorsOf(transportSchema, { plate_primary: 'AB1' })).toEqual({ plate_primary: FLEET_MESSAGES.plateInvalid });
    expect(errorsOf(transportSchema, { ...minimal, plate_secondary: 'x' })).toEqual({ plate_secondary: FLEET_MESSAGES.plateInvalid });
  });

  it('destination differs from origin; driver 2 differs from driver 1', () => {
    expect(errorsOf(transportSchema, { ...minimal, origin_branch_id: 1, destination_branch_id: '1' })).toEqual({
      destination_branch_id: FLEET_MESSAGES.sameBranches,
    });
    expect(errorsOf(transportSchema, { ...minimal, driver_id_1: 4, driver_id_2: 4 })).toEqual({ driver_id_2: FLEET_MESSAGES.sameDrivers });
    expect(transportSchema.parse({ ...minimal, origin_branch_id: '1', destination_branch_id: 2, driver_id_1: 4, driver_id_2: '' })).toMatchObject({
      origin_branch_id: 1,
      destination_branch_id: 2,
      driver_id_1: 4,
      driver_id_2: null,
    });
    expect(errorsOf(transportSchema, { ...minimal, driver_id_1: 0 })).toEqual({ driver_id_1: FLEET_MESSAGES.driverInvalid });
  });

  it('derives the route text', () => {
    expect(routeText('Lima', 'Arequipa')).toBe('Lima – Arequipa');
    expect(routeText('Lima', null)).toBeNull();
  });

  it('pill tones follow spec section 4', () => {
    expect(TRANSPORT_STATUS_TONES).toEqual({ disponible: 'success', en_ruta: 'primary', mantenimiento: 'warning' });
  });
});

describe('driver form (spec section 5)', () => {
  const valid = { full_name: ' Juan Pérez Huamán ', dni: ' 45871236 ', license_number: ' q45871236 ' };

  it('requires full_name, dni and license_number, trimmed', () => {
    expect(errorsOf(driverSchema, {})).toEqual({
      full_name: FLEET_MESSAGES.fullNameRequired,
      dni: FLEET_MESSAGES.dniRequired,
      license_number: FLEET_MESSAGES.licenseRequired,
    });
    expect(errorsOf(driverSchema, { full_name: ' ', dni: ' ', license_number: ' ' })).toEqual({
      full_name: FLEET_MESSAGES.fullNameRequired,
      dni: FLEET_MESSAGES.dniRequired,
      license_number: FLEET_MESSAGES.licenseRequired,
    });
    expect(driverSchema.parse(valid)).toEqual({
      full_name: 'Juan Pérez Huamán',
      dni: '45871236',
      license_number: 'Q45871236',
      license_class: null,
      license_expires_on: null,
      phone: null,
      note: null,
    });
  });

  it('DNI has exactly 8 digits', () => {
    expect(errorsOf(driverSchema, { ...valid, dni: '1234567' })).toEqual({ dni: FLEET_MESSAGES.dniLength });
    expect(errorsOf(driverSchema, { ...valid, dni: '1234567a' })).toEqual({ dni: FLEET_MESSAGES.dniLength });
    expect(errorsOf(driverSchema, { ...valid, dni: '123456789' })).toEqual({ dni: FLEET_MESSAGES.dniLength });
  });

  it('phone and note optional, null when empty', () => {
    expect(driverSchema.parse({ ...valid, phone: '  ', note: '' })).toMatchObject({ phone: null, note: null });
    expect(driverSchema.parse({ ...valid, phone: ' 987 654 321 ', note: ' Turno noche ' })).toMatchObject({
      phone: '987 654 321',
      note: 'Turno noche',
    });
  });
});

describe('loading and listing', () => {
  it('needs at least one shipment id', () => {
    expect(loadShipmentsSchema.safeParse({ shipmentIds: [] }).error?.issues[0]?.message).toBe(FLEET_MESSAGES.noShipments);
    expect(loadShipmentsSchema.safeParse({ shipmentIds: [1, -2] }).success).toBe(false);
    expect(loadShipmentsSchema.parse({ shipmentIds: [1, 2] })).toEqual({ shipmentIds: [1, 2] });
  });

  it('list query defaults and limits', () => {
    expect(transportListQuerySchema.parse({})).toEqual({ page: 1, limit: 10 });
    expect(transportListQuerySchema.parse({ status: '' })).toEqual({ page: 1, limit: 10 });
    expect(transportListQuerySchema.safeParse({ limit: '500' }).success).toBe(false);
  });

  it('warns only when the load exceeds a known capacity', () => {
    expect(exceedsCapacity(10.01, 10)).toBe(true);
    expect(exceedsCapacity(10, 10)).toBe(false);
    expect(exceedsCapacity(1e6, null)).toBe(false);
  });
});
