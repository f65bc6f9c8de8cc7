// Which call satisfied or broke each check on calls (src/rungs/callMarks.ts), laid onto a pass's
// transcript for `ladder show` and the HTML report. The marks are computed when the transcript
// is shown, not recorded: from the step's calls as `ladder rescore` reads them
// (src/report/stepEvidence.ts) and the checks of the rung file the run used, found as the
// manifest names it from where the command runs and used only when its content is the one the
// run hashed. Without that file only the checks that failed are known (a step's trace names
// them, and a name reads back into its check), so only they are marked, and the transcript
// says why.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CallMark } from '../../rungs/callMarks.ts';
import { callMarks } from '../../rungs/callMarks.ts';
import type { StepCall } from '../../rungs/checks.ts';
import { parseRung, RungError } from '../../rungs/load.ts';
import type { Check } from '../../rungs/schema.ts';
import { checkSchema } from '../../rungs/schema.ts';
import type { ManifestRung } from '../../results/manifest.ts';
import { sha256 } from '../../results/manifest.ts';
import type { PassEvidence } from '../stepEvidence.ts';
import type { LoadedRun } from '../summary.ts';
import type { CallRecord, PassTranscript } from './build.ts';
import { namedFor } from './build.ts';

export interface RungChecks {
  /** Each step's checks; undefined when the rung file the run used is not at hand. */
  steps: Check[][] | undefined;
  /** Why not, in words (`rungs/x.yaml has changed since this run`); null when it is at hand. */
  missing: string | null;
}

/** The checks of the rung file the run used, when it is still there unchanged, from `cwd`. */
export async function rungChecks(entry: ManifestRung, cwd: string): Promise<RungChecks> {
  const path = resolve(cwd, entry.file);
  if (!existsSync(path)) return { steps: undefined, missing: `${entry.file} is not found from the current folder` };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    // A folder of that name, or one this user may not read: the transcript still shows.
    return { steps: undefined, missing: `${entry.file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  if (sha256(text) !== entry.sha256) return { steps: undefined, missing: `${entry.file} has changed since this run` };
  try {
    return { steps: parseRung(path, text).steps.map((step) => step.checks), missing: null };
  } catch (error) {
    // The file the run loaded no longer loads: this Ladder reads rungs differently.
    if (error instanceof RungError) return { steps: undefined, missing: `${entry.file} no longer loads` };
    throw error;
  }
}

/** A check as a trace names it (src/rungs/checks.ts describeCheck: `kind value`), read back; undefined when the name is not one. */
export function checkNamed(name: string): Check | undefined {
  const space = name.indexOf(' ');
  let value: unknown;
  try {
    value = JSON.parse(name.slice(space + 1));
  } catch {
    return undefined;
  }
  const read = checkSchema.safeParse({ [name.slice(0, space)]: value });
  return read.success ? read.data : undefined;
}

export interface PassMarks {
  marks: Map<CallRecord, CallMark[]>;
  /** What the marks leave out and why; null when nothing. */
  note: string | null;
}

/**
 * The marks of each step's checks on the transcript's calls. One-shot: every step was judged
 * on the one run of the agent recorded as step 0, so every step's checks mark its calls.
 */
export function passMarks(transcript: PassTranscript, evidence: PassEvidence, checks: RungChecks, oneshot: boolean): PassMarks {
  const marks = new Map<CallRecord, CallMark[]>();
  for (const step of transcript.steps) {
    if (step.end === undefined) continue;
    const stepChecks = checks.steps?.[step.step] ?? step.end.failedChecks.flatMap((failed) => checkNamed(failed.check) ?? []);
    const ran = oneshot ? 0 : step.step;
    const calls = evidence.steps.get(ran);
    if (calls === undefined) continue;
    const records = alignCalls(calls.calls, transcript.steps.find((s) => s.step === ran)!.rounds.flatMap((round) => round.calls));
    for (const mark of callMarks(stepChecks, calls.calls, calls.callArgs)) {
      const record = records[mark.call];
      if (record !== undefined) marks.set(record, [...(marks.get(record) ?? []), mark]);
    }
  }
  return { marks, note: checks.missing === null ? null : `Calls are marked with the checks that failed only: ${checks.missing}.` };
}

/**
 * The transcript's record of each of the step's calls, matched in order. The step's calls are
 * those the loop counted (made, or refused for arguments that were not an object); the
 * transcript also lists calls never made (past the ceiling, the agent's own tools), passed over.
 */
function alignCalls(calls: readonly StepCall[], records: readonly CallRecord[]): (CallRecord | undefined)[] {
  const aligned: (CallRecord | undefined)[] = [];
  let next = 0;
  for (const call of calls) {
    while (next < records.length && !sameCall(call, records[next]!)) next += 1;
    aligned.push(records[next]);
    next += 1;
  }
  return aligned;
}

function sameCall(call: StepCall, record: CallRecord): boolean {
  if (call.outcome === 'invalid_arguments') return record.lane === undefined && !record.own && record.name === call.tool;
  // The lane's name; an external agent's model may call it under its own prefix (build.ts namedFor).
  return record.lane !== undefined && namedFor(record.name, call.tool);
}

/** The marks of a pass of `run` (its transcript and evidence read together, read.ts), the checks found from `cwd`. */
export class RunMarks {
  readonly #checks = new Map<string, Promise<RungChecks>>();

  constructor(readonly run: LoadedRun, readonly cwd: string) {}

  async of(rung: string, transcript: PassTranscript, evidence: PassEvidence): Promise<PassMarks> {
    const entry = this.run.manifest.rungs.find((r) => r.name === rung);
    let checks = this.#checks.get(rung);
    if (checks === undefined) {
      checks = entry === undefined ? Promise.resolve({ steps: undefined, missing: 'the manifest names no rung file for it' }) : rungChecks(entry, this.cwd);
      this.#checks.set(rung, checks);
    }
    return passMarks(transcript, evidence, await checks, this.run.manifest.options.mode === 'oneshot');
  }
}
