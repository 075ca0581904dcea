import { describe, expect, it } from 'vitest';
import { niceTicks, visibleLabels } from '../src/features/dashboard/components/StackedBars.tsx';

describe('the Panel chart’s axis', () => {
  it.each([
    [0, [0]],
    [3, [0, 1, 2, 3]],
    [12, [0, 5, 10, 15]],
    [7, [0, 2, 4, 6, 8]],
    [100, [0, 50, 100]],
    [1234, [0, 500, 1000, 1500]],
  ])('covers %i in at most five round ticks', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
    expect(niceTicks(max).at(-1)).toBeGreaterThanOrEqual(max);
  });

  it('prints every label that fits, always the first and the last, never two that touch', () => {
    expect([...visibleLabels(5, 1000)]).toEqual([0, 1, 2, 3, 4]);
    const shown = [...visibleLabels(30, 500)].sort((a, b) => a - b);
    expect(shown[0]).toBe(0);
    expect(shown.at(-1)).toBe(29);
    const slot = 500 / 30;
    for (let i = 1; i < shown.length; i++) expect((shown[i]! - shown[i - 1]!) * slot).toBeGreaterThanOrEqual(44);
    expect([...visibleLabels(0, 500)]).toEqual([]);
  });
});
