// A pass's transcript read from its results folder: the attempt the report counted
// (src/report/attempt.ts), built into a transcript, and with it, from the same reading, what
// its steps did as the checks see it (src/report/stepEvidence.ts) for the transcript's marks.
import { readCountedAttempt } from '../attempt.ts';
import type { TraceEvent } from '../../trace/index.ts';
import type { PassRecord } from '../passes.ts';
import type { PassEvidence } from '../stepEvidence.ts';
import { EvidenceReader } from '../stepEvidence.ts';
import type { PassTranscript } from './build.ts';
import { TranscriptBuilder } from './build.ts';

type Record = Pick<PassRecord, 'file' | 'rung' | 'arm' | 'pass'>;

/** The transcript of `record` from its trace file. */
export async function readTranscript(dir: string, record: Record): Promise<PassTranscript> {
  return (await readCountedAttempt(dir, record, (start) => new TranscriptBuilder(start))).transcript;
}

/** The transcript of `record` and its steps' evidence, from one reading of its trace file. */
export async function readTranscriptAndEvidence(dir: string, record: Record): Promise<{ transcript: PassTranscript; evidence: PassEvidence }> {
  const both = await readCountedAttempt(dir, record, (start) => {
    const builder = new TranscriptBuilder(start);
    const evidence = new EvidenceReader(start);
    const add = (event: TraceEvent): void => {
      builder.add(event);
      evidence.add(event);
    };
    return { builder, evidence, add };
  });
  return { transcript: both.builder.transcript, evidence: both.evidence.evidence() };
}
