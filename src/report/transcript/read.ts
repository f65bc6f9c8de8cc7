// A pass's transcript read from its results folder: the attempt the report counted
// (src/report/attempt.ts), built into a transcript.
import { readCountedAttempt } from '../attempt.ts';
import type { PassRecord } from '../passes.ts';
import type { PassTranscript } from './build.ts';
import { TranscriptBuilder } from './build.ts';

/** The transcript of `record` from its trace file. */
export async function readTranscript(dir: string, record: Pick<PassRecord, 'file' | 'rung' | 'arm' | 'pass'>): Promise<PassTranscript> {
  return (await readCountedAttempt(dir, record, (start) => new TranscriptBuilder(start))).transcript;
}
