// A pass's transcript read from its results folder. Which passes exist is the report's
// decision (loadRun: complete, undamaged, the first of duplicates), so a pass shown is a pass
// counted; this file only reads the one trace that pass came from, one file at a time.
import { join } from 'node:path';
import { readTrace } from '../../trace/index.ts';
import type { PassRecord } from '../passes.ts';
import { canonicalArm, ReportInputError } from '../results.ts';
import type { PassTranscript } from './build.ts';
import { TranscriptBuilder } from './build.ts';

/** The transcript of `record` from its trace file: the last attempt in that file with its rung, arm and index. */
export async function readTranscript(dir: string, record: Pick<PassRecord, 'file' | 'rung' | 'arm' | 'pass'>): Promise<PassTranscript> {
  let builder: TranscriptBuilder | undefined;
  // A resumed pass restarts in its own file: the last start with this identity is the one counted.
  let found: TranscriptBuilder | undefined;
  // Damaged lines are the report's to name; a counted pass has none, and the rest of its file still reads.
  for await (const event of readTrace(join(dir, record.file), { onDamaged: () => {} })) {
    if (event.type === 'pass.start') {
      const mine = event.rung === record.rung && canonicalArm(event.arm) === record.arm && event.pass === record.pass;
      builder = new TranscriptBuilder(event);
      if (mine) found = builder;
      continue;
    }
    builder?.add(event);
  }
  if (found === undefined) {
    throw new ReportInputError(`${join(dir, record.file)}: ${record.rung} ${record.arm} pass ${record.pass} is no longer in this trace; was the run changed while it was read?`);
  }
  return found.transcript;
}
