// The attempt of a pass that the report counted, read again from its trace file, one file at a
// time, by whatever reads it further (a transcript, a step's evidence for rescore). Which
// passes exist is the report's decision (readPasses): a file can hold several attempts (a
// resumed pass appends a fresh start), and the one counted is the first with the record's rung,
// arm and index that ended and broke no rule of the format. One reader, so the pass shown and
// the pass rescored are the pass counted.
import { join } from 'node:path';
import { PassOrder, readTrace } from '../trace/index.ts';
import type { PassStart, TraceEvent } from '../trace/index.ts';
import type { PassRecord } from './passes.ts';
import { canonicalArm, ReportInputError } from '../results/read.ts';

/** What an attempt's events are handed to, from the event after its pass.start to its pass.end. */
export interface AttemptReader {
  add(event: TraceEvent): void;
}

/** The reader `begin` made for the counted attempt of `record`, fed that attempt's events. */
export async function readCountedAttempt<T extends AttemptReader>(
  dir: string, record: Pick<PassRecord, 'file' | 'rung' | 'arm' | 'pass'>, begin: (start: PassStart) => T,
): Promise<T> {
  let current: { reader: T; order: PassOrder; mine: boolean; damaged: boolean; ended: boolean } | undefined;
  const counted = (): boolean => current !== undefined && current.mine && !current.damaged && current.ended;
  const trace = readTrace(join(dir, record.file), { onDamaged: () => void (current !== undefined && (current.damaged = true)) });
  for await (const event of trace) {
    if (event.type === 'pass.start') {
      if (counted()) return current!.reader;
      const mine = event.rung === record.rung && canonicalArm(event.arm) === record.arm && event.pass === record.pass;
      current = { reader: begin(event), order: new PassOrder(event), mine, damaged: false, ended: false };
      continue;
    }
    if (current === undefined) continue;
    if (current.order.problem(event) !== undefined) current.damaged = true;
    if (event.type === 'pass.end') current.ended = true;
    current.reader.add(event);
  }
  // A pass.end cut just short of its newline may not be whole: the report counts it cut short too.
  if (counted() && !trace.unterminated) return current!.reader;
  throw new ReportInputError(`${join(dir, record.file)}: ${record.rung} ${record.arm} pass ${record.pass} is no longer in this trace; was the run changed while it was read?`);
}
