import { describe, expect, it } from 'vitest';
import {
  agentDeliveredByName,
  agentOptionLabel,
  agentOptions,
  canConfirmDelivery,
  canDeliverFrom,
  cannotDeliverFrom,
  DELIVERY_LOCK,
  DELIVERY_MESSAGES,
  deliveryParamsSchema,
  deliverySchema,
  deliveryWarning,
} from '../src/index.ts';

/** Field → first message, the way the form and the API show them. */
function errorsOf(input: unknown): Record<string, string> {
  const result = deliverySchema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

const valid = { secretCode: 'clave-1', receiverName: 'María Flores', receiverDoc: '45879612', deliveredByName: 'Jorge Mamani', notes: '' };

describe('delivery form (spec section 5)', () => {
  it('accepts a complete delivery, trims, and turns blank notes into null', () => {
    const parsed = deliverySchema.parse({ ...valid, receiverName: '  María Flores ', notes: '   ' });
    expect(parsed).toEqual({ ...valid, receiverName: 'María Flores', notes: null, photo: null, signature: null });
    expect(deliverySchema.parse({ ...valid, notes: undefined }).notes).toBeNull();
    expect(deliverySchema.parse({ ...valid, notes: null }).notes).toBeNull();
  });

  it.each([
    [{ secretCode: '' }, 'secretCode', 'Clave requerida'],
    [{ secretCode: 'abc' }, 'secretCode', 'Clave requerida'],
    [{ secretCode: '  abc  ' }, 'secretCode', 'Clave requerida'],
    [{ secretCode: undefined }, 'secretCode', 'Clave requerida'],
    [{ receiverName: '' }, 'receiverName', 'Nombre requerido'],
    [{ receiverName: 'M' }, 'receiverName', 'Nombre requerido'],
    [{ receiverName: undefined }, 'receiverName', 'Nombre requerido'],
    [{ receiverName: 'x'.repeat(81) }, 'receiverName', 'Muy largo'],
    [{ receiverDoc: '' }, 'receiverDoc', 'Documento requerido'],
    [{ receiverDoc: '   ' }, 'receiverDoc', 'Documento requerido'],
    [{ receiverDoc: undefined }, 'receiverDoc', 'Documento requerido'],
    [{ receiverDoc: '12345' }, 'receiverDoc', 'Documento inválido'],
    [{ receiverDoc: '1'.repeat(21) }, 'receiverDoc', 'Documento inválido'],
    [{ receiverDoc: '4587 9612' }, 'receiverDoc', 'Documento inválido'],
    [{ receiverDoc: '45879612/1' }, 'receiverDoc', 'Documento inválido'],
    [{ deliveredByName: '' }, 'deliveredByName', 'Quién entrega'],
    [{ deliveredByName: 'J' }, 'deliveredByName', 'Quién entrega'],
    [{ deliveredByName: undefined }, 'deliveredByName', 'Quién entrega'],
    [{ deliveredByName: 'x'.repeat(81) }, 'deliveredByName', 'Muy largo'],
    [{ notes: 'n'.repeat(201) }, 'notes', 'Máx. 200 caracteres'],
  ])('%o → %s: %s', (over, field, message) => {
    expect(errorsOf({ ...valid, ...over })[field]).toBe(message);
  });

  it('accepts the edges: 4-character code, 2 and 80-character names, 6 and 20-character documents with letters, dot and hyphen, 200-character notes', () => {
    expect(
      errorsOf({
        ...valid,
        secretCode: 'abcd',
        receiverName: 'Al',
        deliveredByName: 'x'.repeat(80),
        receiverDoc: 'CE-001.23',
        notes: 'n'.repeat(200),
      }),
    ).toEqual({});
    expect(errorsOf({ ...valid, receiverName: 'x'.repeat(80), deliveredByName: 'Jo', receiverDoc: '123456' })).toEqual({});
    expect(errorsOf({ ...valid, receiverDoc: 'A'.repeat(20) })).toEqual({});
  });

  it.each([0, -1, 1.5, 'abc', '', null, 2 ** 31])('shipment id %o → Identificador inválido', (id) => {
    const result = deliveryParamsSchema.safeParse({ id });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('Identificador inválido');
  });

  it('coerces a positive id from the path', () => {
    expect(deliveryParamsSchema.parse({ id: '12' })).toEqual({ id: 12 });
  });
});

describe('delivery rules', () => {
  it('only Creado, En tránsito and En agencia may be delivered; the others warn that the delivery may be rejected', () => {
    expect(canDeliverFrom('Creado')).toBe(true);
    expect(canDeliverFrom('En tránsito')).toBe(true);
    expect(canDeliverFrom('En agencia')).toBe(true);
    expect(canDeliverFrom('Devuelto')).toBe(false);
    expect(canDeliverFrom('Entregado')).toBe(false);
    expect(canDeliverFrom('Anulado')).toBe(false);
    expect(deliveryWarning('Creado')).toBeNull();
    expect(deliveryWarning('En tránsito')).toBeNull();
    expect(deliveryWarning('Anulado')).toBe("El envío está en estado 'Anulado': la entrega puede ser rechazada.");
    expect(deliveryWarning('Entregado')).toContain('puede ser rechazada');
  });

  it('the refusal names the status and starts with the text the form places on the secret field', () => {
    expect(cannotDeliverFrom('Anulado')).toBe("No se puede entregar desde el estado 'Anulado'");
    expect(cannotDeliverFrom('Entregado')).toContain('No se puede entregar desde el estado');
  });

  it('admin anywhere; agents and couriers only at the destination branch', () => {
    expect(canConfirmDelivery({ role: 'admin', branchId: null }, 2)).toBe(true);
    expect(canConfirmDelivery({ role: 'courier', branchId: 2 }, 2)).toBe(true);
    expect(canConfirmDelivery({ role: 'agent', branchId: 2 }, 2)).toBe(true);
    expect(canConfirmDelivery({ role: 'agent', branchId: 1 }, 2)).toBe(false);
    expect(canConfirmDelivery({ role: 'courier', branchId: null }, 2)).toBe(false);
  });

  it('five failures lock for fifteen minutes; the messages read as the spec says', () => {
    expect(DELIVERY_LOCK).toEqual({ maxFailures: 5, windowMinutes: 15, lockMinutes: 15 });
    expect(DELIVERY_MESSAGES.wrongSecret).toBe('Clave secreta inválida');
    expect(DELIVERY_MESSAGES.locked).toContain('15 minutos');
    expect(DELIVERY_MESSAGES.failed).toBe('No se pudo confirmar la entrega.');
    expect(DELIVERY_MESSAGES.agentsFailed).toBe('No se pudo cargar la lista de agentes.');
  });
});

describe("'delivered by' options (spec section 6)", () => {
  const agents = [
    { id: 7, username: 'REPARTIDOR1', name: 'Jorge Mamani' },
    { id: 9, username: null, name: 'Sin Código' },
    { id: 3, username: 'AGENTE2', name: null },
    { id: 2, username: 'AGENTE1', name: 'Luis Ramírez' },
  ];

  it('sorted by username, those without one last; label Agente#id when there is no username', () => {
    expect(agentOptions(agents)).toEqual([
      { value: '2', label: 'AGENTE1 — Luis Ramírez' },
      { value: '3', label: 'AGENTE2' },
      { value: '7', label: 'REPARTIDOR1 — Jorge Mamani' },
      { value: '9', label: 'Agente#9' },
    ]);
    expect(agentOptionLabel({ id: 4, username: '', name: 'X' })).toBe('Agente#4');
  });

  it('stores the person’s name as delivered by, else the username, else Agente#id', () => {
    expect(agentDeliveredByName(agents[0]!)).toBe('Jorge Mamani');
    expect(agentDeliveredByName(agents[2]!)).toBe('AGENTE2');
    expect(agentDeliveredByName({ id: 5, username: null, name: null })).toBe('Agente#5');
    expect(deliverySchema.shape.deliveredByName.safeParse(agentDeliveredByName({ id: 5, username: null, name: null })).success).toBe(true);
  });
});
