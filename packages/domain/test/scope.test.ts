import { describe, expect, it } from 'vitest';
import { inScope, scopeOf } from '../src/index.ts';

describe('scope', () => {
  it('admins see every branch; agents and couriers their own; staff with no branch nothing', () => {
    expect(scopeOf({ role: 'admin', branchId: 1 })).toBe('all');
    expect(scopeOf({ role: 'agent', branchId: 2 })).toBe(2);
    expect(scopeOf({ role: 'courier', branchId: null })).toBeNull();
  });

  it('a row is in scope when any of its branches is the scope', () => {
    expect(inScope('all', 5)).toBe(true);
    expect(inScope(2, 1, 2)).toBe(true);
    expect(inScope(2, 1, 3)).toBe(false);
    expect(inScope(null, 1, null)).toBe(false);
  });
});
