// How a figure is rounded for reading, in one place. A verdict is decided on the figures as
// they are shown, so a reader never sees "0 ms (0 ms to 0 ms)" called better, or an interval
// printed as "-48 to -15" in a table and "48 to 16 fewer" in the sentence above it.
import type { CountComparison } from './paired.ts';

/** Rounds half away from zero: +12.5 and -12.5 read as the same size (Math.round gives 13 and -12). */
export function roundHalfAway(x: number, decimals = 0): number {
  const scale = 10 ** decimals;
  const size = Math.round(Math.abs(x) * scale) / scale;
  return x < 0 && size !== 0 ? -size : size;
}

/** A difference of two rates in whole percentage points, as shown. */
export function shownPoints(difference: number): number {
  return roundHalfAway(difference * 100);
}

/** Counts of calls and rounds read best per 10 passes (small whole numbers); tokens per pass. */
export function countScale(unit: CountComparison['unit']): { factor: number; per: string } {
  if (unit === 'ms' || unit === 'score') return { factor: 1, per: 'per step-run' };
  if (unit === 'tokens') return { factor: 1, per: 'per pass' };
  return { factor: 10, per: 'per 10 passes' };
}

/**
 * A count or a time (already scaled) as shown: whole milliseconds below a second, tenths of a
 * second above; counts to one decimal; scores (0 to 1) to two.
 */
export function shownQuantity(value: number, unit: CountComparison['unit']): number {
  if (unit === 'ms') return Math.abs(value) < 999.5 ? roundHalfAway(value) : roundHalfAway(value / 1000, 1) * 1000;
  if (unit === 'score') return roundHalfAway(value, 2);
  return roundHalfAway(value, 1);
}
