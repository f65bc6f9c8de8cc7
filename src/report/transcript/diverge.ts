// Where two arms' conversations of the same pass part. Both ran with the same seed, so until
// the harness answers a call differently (a refusal where the other arm sent the call, say)
// the model's turns are the same; the first round where the model's turn, a call's outcome or
// a result differs is where the arm made its difference.
import { maskNumbers } from '../../trace/index.ts';
import { plural } from '../words.ts';
import type { CallRecord, PassTranscript, Recorded, RoundRecord } from './build.ts';

export interface Divergence {
  step: number;
  /** The round as recorded (model.request `round`). */
  round: number;
  what: string;
}

export interface Side {
  /** The arm's name, as the sentence says it. */
  name: string;
  transcript: PassTranscript;
}

/** Text where recorded, else its size and hash: equal either way only when the same. */
function same(x: Recorded | undefined, y: Recorded | undefined, mask = false): boolean {
  if (x?.text !== undefined && y?.text !== undefined) return mask ? maskNumbers(x.text) === maskNumbers(y.text) : x.text === y.text;
  return x?.text === y?.text && x?.bytes === y?.bytes && x?.hash === y?.hash;
}

function sameCall(x: CallRecord, y: CallRecord): boolean {
  return x.name === y.name && (x.key !== undefined && y.key !== undefined ? x.key === y.key : same(x.args, y.args));
}

function turnWords(r: RoundRecord): string {
  if (r.error !== undefined) return 'got no response';
  if (r.calls.length === 0) return 'answered';
  return `called ${r.calls.map((c) => c.name).join(', ')}`;
}

function outcomeWords(c: CallRecord): string {
  const lane = c.lane;
  if (lane === undefined) return 'not made';
  if (lane.outcome === 'refused') return 'refused by the breaker';
  if (lane.outcome === 'short_circuited') return 'short-circuited';
  if (lane.outcome === 'unavailable') return lane.errorType === 'not_started' ? 'unavailable (not started)' : 'unavailable (circuit open)';
  return lane.outcome;
}

/** What differs between two rounds at the same place, or null when nothing does. */
function roundDifference(x: RoundRecord, y: RoundRecord, a: string, b: string): string | null {
  const turnSame = x.error === y.error && same(x.text, y.text) && x.calls.length === y.calls.length && x.calls.every((c, i) => sameCall(c, y.calls[i]!));
  if (!turnSame) {
    const [wx, wy] = [turnWords(x), turnWords(y)];
    if (wx !== wy) return `the model ${wx} on ${a}, ${wy} on ${b}`;
    if (x.error !== y.error) return `the model got no response: ${x.error} on ${a}, ${y.error} on ${b}`;
    return same(x.text, y.text) ? "the model's calls differ in their arguments" : "the model's text differs";
  }
  for (const [i, cx] of x.calls.entries()) {
    const cy = y.calls[i]!;
    const [ox, oy] = [outcomeWords(cx), outcomeWords(cy)];
    if (ox !== oy) return `${cx.name}: ${ox} on ${a}, ${oy} on ${b}`;
    // Numbers are masked: a tool that reads a clock answers with other numbers every run.
    if (!same(cx.result, cy.result, true)) return `${cx.name}: the results differ`;
  }
  return null;
}

/** The first round where the two conversations differ, or null when they are the same throughout. */
export function firstDivergence(a: Side, b: Side): Divergence | null {
  const steps = [...new Set([...a.transcript.steps, ...b.transcript.steps].map((s) => s.step))].sort((x, y) => x - y);
  for (const step of steps) {
    const xs = a.transcript.steps.find((s) => s.step === step)?.rounds ?? [];
    const ys = b.transcript.steps.find((s) => s.step === step)?.rounds ?? [];
    for (let i = 0; i < Math.max(xs.length, ys.length); i += 1) {
      const [x, y] = [xs[i], ys[i]];
      if (x === undefined || y === undefined) {
        const [ended, went] = x === undefined ? [a, b] : [b, a];
        const rounds = x === undefined ? xs.length : ys.length;
        return { step, round: (x ?? y)!.round, what: `${ended.name} ended step ${step} after ${plural(rounds, 'round')}; ${went.name} went on` };
      }
      const what = roundDifference(x, y, a.name, b.name);
      if (what !== null) return { step, round: x.round, what };
    }
  }
  return null;
}
