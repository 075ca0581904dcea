import { describe, expect, it } from 'vitest';
import {
  cancelRefusal,
  checkpointSchema,
  checkStatusChange,
  dashboardQuerySchema,
  dominantProductType,
  formatShipmentCode,
  newShipmentSchema,
  normalizeShipmentCode,
  SHIPMENT_STATUSES,
  SHIPMENT_TRANSITIONS,
  canTransition,
  FINAL_STATUSES,
  type TransitionVia,
  shipmentListQuerySchema,
  shipmentUpdateSchema,
  statusChangeSchema,
  statusTone,
  totalLines,
  pricingChanged,
} from '../src/index.ts';

const valid = {
  senderName: 'Comercial Andina SAC',
  recipientDoc: '45879612',
  recipientFirstName: 'María',
  recipientLastName: 'Flores',
  originBranchId: 1,
  destinationBranchId: 2,
  lines: [{ productType: 'liviano', weightKg: 2.5 }],
  description: '',
  secretCode: 'ab-1.2_c',
};

/** The first message zod gives for `field` with `over` applied, or null when the form is valid. */
function messageFor(
  over: Record<string, unknown>,
  field: string,
  schema: typeof newShipmentSchema | typeof shipmentUpdateSchema = newShipmentSchema,
) {
  const result = schema.safeParse({ ...valid, ...over });
  if (result.success) return null;
  return result.error.issues.find((i) => i.path.join('.') === field)?.message ?? `other: ${JSON.stringify(result.error.issues)}`;
}

describe('new-shipment form (spec section 5)', () => {
  it('accepts a valid form and normalises it', () => {
    const r = newShipmentSchema.parse({
      ...valid,
      lines: [
        { productType: 'medio', weightKg: '3.456' },
        { productType: 'alto', weightKg: 0 },
      ],
    });
    expect(r.lines).toEqual([{ productType: 'medio', weightKg: 3.46, packages: 1, basis: 'peso', articleId: null }]);
    expect(r.description).toBeNull();
    expect(r.senderCustomerId).toBeNull();
  });

  it.each([
    [{ senderName: '' }, 'senderName', 'Remitente requerido'],
    [{ senderName: undefined }, 'senderName', 'Remitente requerido'],
    [{ recipientDoc: '12345' }, 'recipientDoc', 'DNI/RUC inválido'],
    [{ recipientDoc: '' }, 'recipientDoc', 'DNI/RUC inválido'],
    [{ recipientDoc: '1234567a' }, 'recipientDoc', 'DNI/RUC inválido'],
    [{ recipientDoc: '1234567890123456' }, 'recipientDoc', 'DNI/RUC demasiado largo'],
    [{ recipientFirstName: ' ' }, 'recipientFirstName', 'Nombres requeridos'],
    [{ recipientLastName: undefined }, 'recipientLastName', 'Apellidos requeridos'],
    [{ originBranchId: undefined }, 'originBranchId', 'Seleccione origen'],
    [{ originBranchId: '' }, 'originBranchId', 'Seleccione origen'],
    [{ destinationBranchId: 0 }, 'destinationBranchId', 'Seleccione destino'],
    [{ secretCode: '' }, 'secretCode', 'Mínimo 4 caracteres'],
    [{ secretCode: 'abc' }, 'secretCode', 'Mínimo 4 caracteres'],
    [{ secretCode: 'abcdefghijklm' }, 'secretCode', 'Máximo 12 caracteres'],
    [{ secretCode: 'ab*cd' }, 'secretCode', 'Solo letras, números y - _ .'],
    [{ description: 'x'.repeat(501) }, 'description', 'Máximo 500 caracteres'],
    [{ lines: [] }, 'lines', 'Agrega al menos una línea con peso mayor a 0.'],
    [{ lines: [{ productType: 'liviano', weightKg: 0 }] }, 'lines', 'Agrega al menos una línea con peso mayor a 0.'],
    [{ lines: [{ productType: 'liviano', weightKg: 0.004 }] }, 'lines', 'Agrega al menos una línea con peso mayor a 0.'],
    [{ lines: [{ productType: 'liviano', weightKg: -1 }] }, 'lines.0.weightKg', 'Peso inválido'],
    [{ lines: [{ productType: 'x', weightKg: 1 }] }, 'lines.0.productType', 'Categoría inválida'],
  ])('%j → %s: %s', (over, field, message) => {
    expect(messageFor(over, field)).toBe(message);
  });

  it('accepts the limits of each rule', () => {
    expect(messageFor({ recipientDoc: '123456' }, 'recipientDoc')).toBeNull();
    expect(messageFor({ recipientDoc: '123456789012345' }, 'recipientDoc')).toBeNull();
    expect(messageFor({ secretCode: 'abcd' }, 'secretCode')).toBeNull();
    expect(messageFor({ secretCode: 'abcdefghijkl' }, 'secretCode')).toBeNull();
    expect(messageFor({ description: 'x'.repeat(500) }, 'description')).toBeNull();
  });

  it('refuses the same origin and destination', () => {
    expect(messageFor({ destinationBranchId: 1 }, 'destinationBranchId')).toBe('El origen y destino no pueden ser la misma sucursal.');
  });

  it('takes the spec payload (multiLineDetail or one productType + weightKg) and drops client prices', () => {
    const { lines: _l, ...rest } = valid;
    const fromDetail = newShipmentSchema.parse({ ...rest, multiLineDetail: [{ productType: 'alto', weightKg: 3, price: 1 }] });
    expect(fromDetail.lines).toEqual([{ productType: 'alto', weightKg: 3, packages: 1, basis: 'peso', articleId: null }]);
    const single = newShipmentSchema.parse({ ...rest, productType: 'medio', weightKg: 4, quotedPrice: 1 });
    expect(single.lines).toEqual([{ productType: 'medio', weightKg: 4, packages: 1, basis: 'peso', articleId: null }]);
    expect('quotedPrice' in single).toBe(false);
  });

  it('makes the secret code optional on edit only', () => {
    expect(messageFor({ secretCode: undefined }, 'secretCode')).toBe('Mínimo 4 caracteres');
    expect(shipmentUpdateSchema.parse({ ...valid, secretCode: '' }).secretCode).toBeUndefined();
    expect(messageFor({ secretCode: 'a' }, 'secretCode', shipmentUpdateSchema)).toBe('Mínimo 4 caracteres');
  });
});

describe('status rules (DESIGN.md section 5)', () => {
  const all = SHIPMENT_STATUSES;
  const vias: TransitionVia[] = ['manual', 'trip', 'delivery', 'return'];
  // Every allowed (from, to, via); any triple not listed here must be refused.
  const allowed = new Set([
    'Creado → En tránsito by manual',
    'Creado → En tránsito by trip',
    'Creado → Entregado by delivery',
    'Creado → Anulado by manual',
    'En tránsito → En agencia by manual',
    'En tránsito → En agencia by trip',
    'En tránsito → Entregado by delivery',
    'En tránsito → Devuelto by return',
    'En agencia → Entregado by delivery',
    'En agencia → Devuelto by return',
  ]);

  it('has the forward-only table of DESIGN.md section 5a', () => {
    expect(SHIPMENT_TRANSITIONS).toEqual({
      Creado: ['En tránsito', 'Entregado', 'Anulado'],
      'En tránsito': ['En agencia', 'Entregado', 'Devuelto'],
      'En agencia': ['Entregado', 'Devuelto'],
      Entregado: [],
      Anulado: [],
      Devuelto: [],
    });
    expect(FINAL_STATUSES.every((s) => SHIPMENT_TRANSITIONS[s].length === 0)).toBe(true);
  });

  it.each(all.flatMap((from) => all.filter((to) => to !== from).flatMap((to) => vias.map((via) => [from, to, via] as const))))(
    '%s → %s by %s',
    (from, to, via) => {
      const expected = allowed.has(`${from} → ${to} by ${via}`);
      expect(canTransition(from, to, via)).toBe(expected);
      const check = checkStatusChange(from, to, null, via);
      expect(check.ok).toBe(expected);
      if (!check.ok) expect(check.kind).toBe('rule');
    },
  );

  it('says why each kind of refusal is refused', () => {
    expect(checkStatusChange('En agencia', 'En tránsito', null)).toMatchObject({ message: "No se puede pasar de 'En agencia' a 'En tránsito'." });
    expect(checkStatusChange('Devuelto', 'En agencia', null, 'trip')).toMatchObject({ message: "No se puede pasar de 'Devuelto' a 'En agencia'." });
    expect(checkStatusChange('En agencia', 'Devuelto', null)).toMatchObject({
      message: 'El estado Devuelto solo se registra al devolver el envío a su origen.',
    });
    expect(checkStatusChange('Creado', 'Devuelto', null, 'return')).toMatchObject({ message: "No se puede pasar de 'Creado' a 'Devuelto'." });
    expect(checkStatusChange('En agencia', 'Entregado', null, 'trip')).toMatchObject({
      message: 'El estado Entregado solo se registra al confirmar la entrega.',
    });
    expect(checkStatusChange('En agencia', 'Anulado', null)).toMatchObject({ message: "No se puede anular un envío en estado 'En agencia'" });
    expect(checkStatusChange('Devuelto', 'Anulado', null)).toMatchObject({ message: "No se puede anular un envío en estado 'Devuelto'" });
  });

  it('delivers from Creado, En tránsito and En agencia only', () => {
    expect(all.filter((s) => canTransition(s, 'Entregado', 'delivery'))).toEqual(['Creado', 'En tránsito', 'En agencia']);
  });

  it('reaches Entregado only through delivery, from Creado or En tránsito', () => {
    expect(checkStatusChange('En tránsito', 'Entregado', null)).toEqual({
      ok: false,
      kind: 'rule',
      message: 'El estado Entregado solo se registra al confirmar la entrega.',
    });
    expect(checkStatusChange('En tránsito', 'Entregado', null, 'delivery')).toEqual({ ok: true, sameStatus: false });
    expect(checkStatusChange('Creado', 'Entregado', null, 'delivery')).toEqual({ ok: true, sameStatus: false });
    expect(checkStatusChange('Anulado', 'Entregado', null, 'delivery').ok).toBe(false);
  });

  it('needs a status, and a note to repeat the same one', () => {
    expect(checkStatusChange('Creado', '', null)).toMatchObject({ ok: false, kind: 'input', message: 'Selecciona un estado.' });
    expect(checkStatusChange('Creado', undefined, null)).toMatchObject({ message: 'Selecciona un estado.' });
    expect(checkStatusChange('Creado', 'Creado', '  ')).toMatchObject({
      ok: false,
      kind: 'input',
      message: 'El estado es el mismo. Agrega una nota o elige otro estado.',
    });
    expect(checkStatusChange('Creado', 'Creado', 'Llamó el cliente')).toEqual({ ok: true, sameStatus: true });
    expect(checkStatusChange('Entregado', 'Entregado', 'Nota')).toEqual({ ok: true, sameStatus: true });
    expect(statusChangeSchema.safeParse({ status: '' }).error?.issues[0]?.message).toBe('Selecciona un estado.');
    expect(statusChangeSchema.safeParse({}).error?.issues[0]?.message).toBe('Selecciona un estado.');
  });

  it('refuses cancelling with the spec messages', () => {
    expect(cancelRefusal('Creado')).toBeNull();
    expect(cancelRefusal('Anulado')).toBe('El envío ya está anulado.');
    expect(cancelRefusal('Entregado')).toBe('No se puede anular un envío entregado.');
    expect(cancelRefusal('En tránsito')).toBe('No se puede anular un envío en tránsito.');
    expect(cancelRefusal('En agencia')).toBe("No se puede anular un envío en estado 'En agencia'");
    expect(checkStatusChange('En tránsito', 'Anulado', 'x')).toMatchObject({ message: 'No se puede anular un envío en tránsito.' });
  });

  it('needs a description for an event', () => {
    expect(checkpointSchema.safeParse({ name: '  ' }).error?.issues[0]?.message).toBe('Ingresa una descripción del evento.');
    expect(checkpointSchema.safeParse({}).error?.issues[0]?.message).toBe('Ingresa una descripción del evento.');
    expect(checkpointSchema.parse({ name: ' Llegó ' }).name).toBe('Llegó');
  });
});

describe('status chip colour (spec section 4)', () => {
  it.each([
    ['Entregado', 'delivered'],
    ['En agencia', 'atAgency'],
    ['En tránsito', 'inTransit'],
    ['EN TRANSITO', 'inTransit'],
    ['Devuelto', 'returned'],
    ['Cancelado', 'cancelled'],
    ['Anulado', 'cancelled'],
    ['Creado', 'created'],
    ['', 'created'],
  ])('%s → %s', (status, tone) => {
    expect(statusTone(status)).toBe(tone);
  });
});

describe('lines and totals', () => {
  it('picks the dominant class alto > medio > liviano', () => {
    expect(dominantProductType(['liviano', 'medio'])).toBe('medio');
    expect(dominantProductType(['medio', 'alto', 'liviano'])).toBe('alto');
    expect(dominantProductType(['liviano'])).toBe('liviano');
  });

  it('totals weights and prices exactly', () => {
    const totals = totalLines([
      { productType: 'liviano', weightKg: 0.1, price: 0.1 },
      { productType: 'medio', weightKg: 0.2, price: 0.2 },
      { productType: 'liviano', weightKg: 10.01, price: 14.3 },
    ]);
    expect(totals).toEqual({ weightKg: 10.31, billableWeightKg: 13, priceCents: 1460, price: 14.6, productType: 'medio' });
  });

  it('formats and normalises codes past 999999 without truncating', () => {
    expect(formatShipmentCode(1)).toBe('TMT-000001');
    expect(formatShipmentCode(1234567)).toBe('TMT-1234567');
    expect(normalizeShipmentCode('tmt-12')).toBe('TMT-000012');
    expect(normalizeShipmentCode('TMT000301')).toBe('TMT-000301');
    expect(normalizeShipmentCode('301')).toBe('TMT-000301');
    expect(normalizeShipmentCode('María')).toBeNull();
  });
});

describe('list filters', () => {
  it('defaults page 1 and size 10, accepts 1..100', () => {
    expect(shipmentListQuerySchema.parse({})).toMatchObject({ page: 1, pageSize: 10 });
    expect(shipmentListQuerySchema.parse({ page: '3', pageSize: '25', active: 'true', originBranchId: '2', q: '  ana ' })).toMatchObject({
      page: 3,
      pageSize: 25,
      active: true,
      originBranchId: 2,
      q: 'ana',
    });
    expect(shipmentListQuerySchema.parse({ status: '', q: '', dateFrom: '', originBranchId: '' })).toEqual({ page: 1, pageSize: 10 });
    expect(shipmentListQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(shipmentListQuerySchema.safeParse({ pageSize: '0' }).success).toBe(false);
    expect(shipmentListQuerySchema.safeParse({ status: 'Perdido' }).success).toBe(false);
  });

  it('checks YYYY-MM-DD dates and from ≤ to', () => {
    expect(shipmentListQuerySchema.safeParse({ dateFrom: '2024-03-01', dateTo: '2024-03-01' }).success).toBe(true);
    expect(shipmentListQuerySchema.safeParse({ dateFrom: '2024-02-30' }).error?.issues[0]?.message).toBe('Fecha inválida (AAAA-MM-DD).');
    const reversed = shipmentListQuerySchema.safeParse({ dateFrom: '2024-03-02', dateTo: '2024-03-01' });
    expect(reversed.error?.issues[0]).toMatchObject({
      path: ['dateTo'],
      message: 'Rango de fechas inválido: "Desde" no puede ser posterior a "Hasta".',
    });
    expect(dashboardQuerySchema.safeParse({ dateFrom: '2024-03-02', dateTo: '2024-03-01' }).success).toBe(false);
  });
});

describe('pricingChanged (issue 31)', () => {
  const stored = { originBranchId: 1, destinationBranchId: 2, lines: [{ productType: 'liviano' as const, weightKg: 2.5 }] };
  it('the same route and lines keep the price; a weight, class, route or line count reprices', () => {
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'liviano', weightKg: 2.5 }] })).toBe(false);
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'liviano', weightKg: 80 }] })).toBe(true);
    expect(pricingChanged(stored, { ...stored, lines: [{ productType: 'medio', weightKg: 2.5 }] })).toBe(true);
    expect(pricingChanged(stored, { ...stored, destinationBranchId: 3 })).toBe(true);
    expect(pricingChanged(stored, { ...stored, lines: [...stored.lines, { productType: 'liviano', weightKg: 1 }] })).toBe(true);
  });
});
