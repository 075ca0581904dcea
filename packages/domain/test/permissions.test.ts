import { describe, expect, it } from 'vitest';
import {
  AREAS,
  can,
  canConfirmDelivery,
  canEdit,
  canManage,
  canManageArea,
  canSee,
  isCleanText,
  parseRecordId,
  recordId,
  SHIPMENT_ACTIONS,
  type Actor,
} from '../src/index.ts';

const LIMA = 1;
const CUSCO = 2;
const AREQUIPA = 3;
const limaToCusco = { originBranchId: LIMA, destinationBranchId: CUSCO };

const admin: Actor = { role: 'admin', branchId: null };
const agentLima: Actor = { role: 'agent', branchId: LIMA };
const agentCusco: Actor = { role: 'agent', branchId: CUSCO };
const agentArequipa: Actor = { role: 'agent', branchId: AREQUIPA };
const courierLima: Actor = { role: 'courier', branchId: LIMA };
const courierCusco: Actor = { role: 'courier', branchId: CUSCO };
const agentNoBranch: Actor = { role: 'agent', branchId: null };
const guest: Actor = { role: 'guest', branchId: LIMA };

describe('permission table (DESIGN.md section 4)', () => {
  // One row per actor: the actions allowed on a Lima → Cusco shipment.
  const expected: [string, Actor, readonly string[]][] = [
    ['admin (no branch)', admin, SHIPMENT_ACTIONS],
    ['agent of the origin', agentLima, ['see', 'manage', 'edit', 'load', 'unload']],
    ['agent of the destination', agentCusco, ['see', 'deliver', 'load', 'unload']],
    ['agent of another branch', agentArequipa, []],
    ['courier of the origin', courierLima, ['see', 'manage']],
    ['courier of the destination', courierCusco, ['see', 'deliver']],
    ['agent without a branch', agentNoBranch, []],
    ['unknown role', guest, []],
  ];
  it.each(expected)('%s', (_name, actor, allowed) => {
    const got = SHIPMENT_ACTIONS.filter((action) => can(actor, action, limaToCusco));
    expect(got).toEqual([...allowed]);
  });

  it('keeps the shorthand helpers equal to the table', () => {
    for (const actor of [admin, agentLima, agentCusco, agentArequipa, courierLima, courierCusco, agentNoBranch, guest]) {
      expect(canSee(actor, limaToCusco)).toBe(can(actor, 'see', limaToCusco));
      expect(canManage(actor, LIMA)).toBe(can(actor, 'manage', limaToCusco));
      expect(canEdit(actor, LIMA)).toBe(can(actor, 'edit', limaToCusco));
      expect(canConfirmDelivery(actor, CUSCO)).toBe(can(actor, 'deliver', limaToCusco));
    }
  });

  it('gives users and branches to admins only, and the back office to staff', () => {
    const areas = (role: string) => AREAS.filter((area) => canManageArea({ role }, area));
    expect(areas('admin')).toEqual([
      'users',
      'branches',
      'fleet',
      'customers',
      'pricing',
      'newShipment',
      'allBranches',
      'settings',
      'billing',
      'payments',
      'movements',
      'discounts',
      'fleetCompliance',
      'credit',
    ]);
    expect(areas('agent')).toEqual(['fleet', 'customers', 'pricing', 'newShipment', 'billing', 'payments', 'movements']);
    expect(areas('courier')).toEqual([]);
    expect(areas('')).toEqual([]);
  });
});

describe('request primitives', () => {
  it('reads ids in decimal digits only', () => {
    expect(parseRecordId('20')).toBe(20);
    expect(parseRecordId(20)).toBe(20);
    expect(parseRecordId('2147483647')).toBe(2_147_483_647);
    for (const bad of ['0x14', '0b10100', '2e1', '+20', ' 20 ', '20.0', '', '-1', '0', '2147483648', true, [[1]], null, 1.5, 0, Number.NaN]) {
      expect(parseRecordId(bad), JSON.stringify(bad)).toBeNull();
    }
    const refused = recordId('Sucursal inválida').safeParse('0x1');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('Sucursal inválida');
    expect(recordId().safeParse(true).error?.issues[0]?.message).toBe('Identificador inválido');
  });

  it('refuses control characters, keeping line breaks and tabs in multi-line text', () => {
    expect(isCleanText('Jr. Puno 120, Cusco')).toBe(true);
    expect(isCleanText('ñandú — «ok»')).toBe(true);
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\n', '\t']) expect(isCleanText(`a${c}b`), JSON.stringify(c)).toBe(false);
    expect(isCleanText('línea 1\r\nlínea 2\tfin', { multiline: true })).toBe(true);
    expect(isCleanText('a\u0000b', { multiline: true })).toBe(false);
  });
});
