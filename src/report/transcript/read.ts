// A pass's transcript read from its results folder. Which passes exist is the report's
// decision (loadRun: complete, undamaged, the first of duplicates), so a pass shown is a pass
// counted; this file only reads the one trace that pass came from, one file at a time.
import { join } from 'node:path';
import { PassOrder, readTrace } from '../../trace/index.ts';
import type { PassRecord } from '../passes.ts';
import { canonicalArm, ReportInputError } from '../results.ts';
import type { PassTranscript } from './build.ts';
import { TranscriptBuilder } from './build.ts';

interface Attempt {
  builder: TranscriptBuilder;
  order: PassOrder;
  mine: boolean;
  damaged: boolean;
}

/**
 * The transcript of `record` from its trace file. A file can hold several attempts (a resumed
 * pass appends a fresh start); the one counted is, as in readPasses, the first attempt with
 * this rung, arm and index that ended and broke no rule of the format.
 */
export async function readTranscript(dir: string, record: Pick<PassRecord, 'file' | 'rung' | 'arm' | 'pass'>): Promise<PassTranscript> {
  let current: Attempt | undefined;
  let found: PassTranscript | undefined;
  const counted = (a: Attempt | undefined): boolean => a !== undefined && a.mine && !a.damaged && a.builder.transcript.end !== undefined;
  const reader = readTrace(join(dir, record.file), { onDamaged: () => void (current !== undefined && (current.damaged = true)) });
  for await (const event of reader) {
    if (event.type === 'pass.start') {
      if (counted(current)) {
        found = current!.builder.transcript;
        break;
      }
      const mine = event.rung === record.rung && canonicalArm(event.arm) === record.arm && event.pass === record.pass;
      current = { builder: new TranscriptBuilder(event), order: new PassOrder(event), mine, damaged: false };
      continue;
    }
    if (current === undefined) continue;
    if (current.order.problem(event) !== undefined) current.damaged = true;
    current.builder.add(event);
  }
  // A pass.end cut just short of its newline may not be whole: the report counts it cut short too.
  if (found === undefined && counted(current) && !reader.unterminated) found = current!.builder.transcript;
  if (found === undefined) {
    throw new ReportInputError(`${join(dir, record.file)}: ${record.rung} ${record.arm} pass ${record.pass} is no longer in this trace; was the run changed while it was read?`);
  }
  return found;
}
