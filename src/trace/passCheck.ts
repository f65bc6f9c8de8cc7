// Whether a trace file holds a whole, sound pass: every line an event of the format, in the
// order a pass writes them. The runner asks it before keeping a pass on --resume; the report
// layer applies the same rules while it counts, so a pass the runner keeps is a pass the
// report counts, and one it makes again is one the report would have left out.
import type { TraceEvent } from './events.ts';
import { readTrace } from './reader.ts';

/**
 * The order rules of one pass's events. Events are written as they happen and stamped by a
 * monotonic clock, so anything else is damage (an edited or spliced file), and the figures of
 * such a pass cannot be trusted.
 */
export class PassOrder {
  #lastT: number;
  #ended = false;
  readonly #open = new Set<number>();

  constructor(start: Extract<TraceEvent, { type: 'pass.start' }>) {
    this.#lastT = start.t;
  }

  /** Why `e` cannot come next in this pass, or undefined when it can (and is then taken). */
  problem(e: TraceEvent): string | undefined {
    if (this.#ended) return `${e.type} after pass.end`;
    if (e.t < this.#lastT) return `${e.type} field "t": ${e.t} is earlier than the event before it (${this.#lastT})`;
    this.#lastT = e.t;
    switch (e.type) {
      case 'pass.start':
      case 'run.start':
      case 'run.end':
        return `${e.type} inside a pass`;
      case 'step.start':
        if (this.#open.has(e.step)) return `step.start of step ${e.step} twice`;
        this.#open.add(e.step);
        return undefined;
      case 'step.end':
        if (!this.#open.delete(e.step)) return `step.end of step ${e.step} without its step.start`;
        return undefined;
      case 'message':
      case 'model.request':
      case 'model.response':
        // What is said within a step is written between its step.start and step.end.
        if (!this.#open.has(e.step)) return `${e.type} of step ${e.step} outside that step`;
        return undefined;
      case 'tools.list':
      case 'tool.call':
        // The lane's turn for step s is s + 1.
        if (!this.#open.has(e.turn - 1)) return `${e.type} of turn ${e.turn} outside its step (${e.turn - 1})`;
        return undefined;
      case 'pass.end':
        this.#ended = true;
        return undefined;
      default:
        return undefined;
    }
  }
}

export type PassFileState = { state: 'complete'; passed: boolean } | { state: 'incomplete' | 'empty' } | { state: 'damaged'; why: string };

/**
 * The state of a trace file by its last pass: complete (ends in pass.end, nothing damaged),
 * incomplete (cut short; a torn last line is only that), empty, or damaged (with the first
 * `line: problem`). Reads the whole file, streaming.
 */
export async function passFileState(path: string): Promise<PassFileState> {
  let order: PassOrder | undefined;
  let damage: string | undefined;
  let ended: boolean | undefined;
  let any = false;
  const reader = readTrace(path, { onDamaged: (error) => void (damage ??= `${error.line}: ${error.problem}`) });
  try {
    for await (const event of reader) {
      any = true;
      if (event.type === 'pass.start') {
        // A later attempt in the same file replaces what came before it.
        order = new PassOrder(event);
        damage = undefined;
        ended = undefined;
        continue;
      }
      if (order === undefined) {
        damage ??= `${reader.line}: ${event.type} before any pass.start`;
        continue;
      }
      const wrong = order.problem(event);
      if (wrong !== undefined) damage ??= `${reader.line}: ${wrong}`;
      if (event.type === 'pass.end') ended = event.passed;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'empty' };
    throw error;
  }
  if (damage !== undefined) return { state: 'damaged', why: damage };
  if (!any) return { state: 'empty' };
  return ended === undefined || reader.unterminated ? { state: 'incomplete' } : { state: 'complete', passed: ended };
}
