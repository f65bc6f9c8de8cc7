// Whether a synthetic agent's pathology strikes at one decision. Each policy has a probability
// per decision (re-send a failed call, loop on a lookup, ask a wait past what a reply survives,
// forget to refresh the tools), and each decision is drawn from the seed and where it is made
// (step, reference call), never from what ran before: the agent replays its step from the
// conversation on every request, so the same seed decides the same way every time, and
// different passes (different seeds) differ.

/** One 32-bit draw from (seed, a, b, salt): splitmix-style mixing, no state to carry. */
export function draw(seed: number, a: number, b: number, salt: number): number {
  let h = (seed ^ Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca6b) ^ Math.imul(salt, 0xc2b2ae35)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Salt of the pathology draws, apart from the token counts' (1 and 2). */
const PATHOLOGY_SALT = 7;
const TWO_TO_32 = 2 ** 32;

/** Whether the pathology strikes at reference call `call` of step `step`: true with probability `p`. */
export function strikes(seed: number, step: number, call: number, p: number): boolean {
  return draw(seed, step, call, PATHOLOGY_SALT) / TWO_TO_32 < p;
}

/** A probability as a user gives it (`synthetic:retrier?p=0.4`): a number from 0 to 1. */
export function checkProbability(p: number, where: string): number {
  if (!(Number.isFinite(p) && p >= 0 && p <= 1)) throw new RangeError(`${where}: p must be a number from 0 to 1, got ${p}`);
  return p;
}
