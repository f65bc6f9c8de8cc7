// A run's passes with their events, one pass at a time, by the rules every report reads them
// with (src/report/passes.ts): a pass counts when its last event is pass.end and no line of it
// breaks the format or the order of a pass; the first of two passes with one identity is kept.
// A damaged pass is named with its file, line and problem and left out; so is one cut short.
import { canonicalArm, listTraces, tracePath } from '../results/read.ts';
import { PassOrder, readTrace } from '../trace/index.ts';
import type { ExportPass } from '../otlp/spans.ts';
import type { PassStart, TraceEvent } from '../trace/index.ts';

export interface LeftOut {
  /** Passes with an event that breaks the format or the order: each named in `problems`. */
  damaged: number;
  /** Passes whose trace does not end with pass.end: interrupted, or made again later in the same file. */
  incomplete: number;
  /** Complete passes with the identity of one read before. */
  duplicates: number;
  /** One line per damaged pass: `file:line: problem; rung arm pass N left out`. */
  problems: string[];
}

interface Attempt {
  start: PassStart;
  events: TraceEvent[];
  order: PassOrder;
  damage: string | undefined;
  ended: boolean;
}

/** Yields each pass of the run at `dir` that the report counts; `leftOut` says what it did not. */
export async function* runPasses(dir: string, leftOut: LeftOut): AsyncGenerator<ExportPass> {
  const seen = new Set<string>();
  for (const path of listTraces(dir)) {
    const file = tracePath(dir, path);
    let current: Attempt | undefined;
    let orphan: string | undefined;
    const finish = (attempt: Attempt): ExportPass | undefined => {
      const { rung, arm, pass } = attempt.start;
      if (attempt.damage !== undefined) {
        leftOut.damaged += 1;
        leftOut.problems.push(`${file}:${attempt.damage}; ${rung} ${arm} pass ${pass} left out`);
        return undefined;
      }
      if (!attempt.ended) {
        leftOut.incomplete += 1;
        return undefined;
      }
      const id = `${rung}\u0000${canonicalArm(arm)}\u0000${pass}`;
      if (seen.has(id)) {
        leftOut.duplicates += 1;
        return undefined;
      }
      seen.add(id);
      return { file, start: attempt.start, events: attempt.events };
    };
    const unreadable = (): void => {
      leftOut.damaged += 1;
      leftOut.problems.push(`${file}:${orphan}; no pass could be read from these lines`);
      orphan = undefined;
    };
    const reader = readTrace(path, {
      onDamaged: (error) => {
        const where = `${error.line}: ${error.problem}`;
        if (current === undefined) orphan ??= where;
        else current.damage ??= where;
      },
    });
    for await (const event of reader) {
      if (event.type === 'pass.start') {
        // A resumed pass appends a fresh start to its file; what came before it never ended.
        const done = current === undefined ? undefined : finish(current);
        if (current === undefined && orphan !== undefined) unreadable();
        if (done !== undefined) yield done;
        current = { start: event, events: [event], order: new PassOrder(event), damage: undefined, ended: false };
        continue;
      }
      if (current === undefined) {
        orphan ??= `${reader.line}: ${event.type} before any pass.start`;
        continue;
      }
      const wrong = current.order.problem(event);
      if (wrong !== undefined) current.damage ??= `${reader.line}: ${wrong}`;
      if (event.type === 'pass.end') current.ended = true;
      current.events.push(event);
    }
    // A pass.end cut just short of its newline may not be whole: the report counts it cut short.
    if (current !== undefined && reader.unterminated) current.ended = false;
    if (current !== undefined) {
      const done = finish(current);
      if (done !== undefined) yield done;
    } else if (orphan !== undefined) unreadable();
  }
}

export function emptyLeftOut(): LeftOut {
  return { damaged: 0, incomplete: 0, duplicates: 0, problems: [] };
}
