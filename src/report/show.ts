// `ladder show`: the passes of a run that did not pass, or one pass as a transcript. A name
// that matches nothing is a ReportInputError naming what does exist.
import { nearest } from '../rungs/nearest.ts';
import type { Paint } from './render/transcriptText.ts';
import { renderFailureList, renderTranscriptText } from './render/transcriptText.ts';
import type { PassRecord } from './passes.ts';
import { canonicalArm, ReportInputError } from '../results/read.ts';
import type { LoadedRun } from './summary.ts';
import { armsOf, loadRun, SYNTHETIC_NOTICE, uniqueInOrder, whoRan } from './summary.ts';
import { FOLD, NO_FOLD } from './transcript/fold.ts';
import { RunMarks } from './transcript/marks.ts';
import { readTranscriptAndEvidence } from './transcript/read.ts';
import { ladderCommand } from '../runner/invocation.ts';
import { failureList, notPassed } from './transcript/run.ts';
import { transcriptView } from './transcript/view.ts';

export interface ShowOptions {
  run: string;
  rung?: string;
  arm?: string;
  pass?: number;
  step?: number;
  /** Fold nothing. */
  full?: boolean;
  /** Where the run's rung files are found, as its manifest names them (default: the current folder). */
  cwd?: string;
}

/** `0-2, 5, 7-9`: the indices that exist, short. */
export function ranges(values: readonly number[]): string {
  const sorted = [...new Set(values)].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j;
  }
  return parts.join(', ') || 'none';
}

function index(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new ReportInputError(`--${name} must be an index (0, 1, 2, ...), got ${value}`);
  return value;
}

const LEFT_OUT_HINT = 'passes left out as damaged or cut short are listed by';

/** The pass to show, and a line saying how it was chosen when the options did not name it. */
function choosePass(run: LoadedRun, options: ShowOptions): { record: PassRecord; chosen: string | null } {
  const rung = options.rung!;
  const inRung = run.passes.filter((p) => p.rung === rung);
  if (inRung.length === 0) {
    const rungs = uniqueInOrder(run.passes.map((p) => p.rung));
    // A misspelt name is answered with the rung it is close to, not with every rung of the run.
    const close = nearest(rung, rungs);
    const hint = close === undefined ? `rungs: ${rungs.join(', ') || 'none'}` : `did you mean ${close}?`;
    throw new ReportInputError(`no counted pass of rung "${rung}" in ${options.run}; ${hint}`);
  }
  const arm = options.arm === undefined ? undefined : canonicalArm(options.arm);
  const arms = armsOf(run).filter((a) => inRung.some((p) => p.arm === a));
  if (arm !== undefined && !arms.includes(arm)) {
    throw new ReportInputError(`no arm "${options.arm}" in rung ${rung} of ${options.run}; arms: ${arms.join(', ')}`);
  }
  const candidates = inRung.filter((p) => arm === undefined || p.arm === arm);
  const pass = index('pass', options.pass);
  if (pass !== undefined) {
    const same = candidates.filter((p) => p.pass === pass);
    const record = same.find(notPassed) ?? same[0];
    if (record === undefined) {
      const where = arm === undefined ? `rung ${rung}` : `rung ${rung}, arm ${arm}`;
      throw new ReportInputError(
        `no counted pass ${pass} of ${where} in ${options.run}; passes: ${ranges(candidates.map((p) => p.pass))} (${LEFT_OUT_HINT} ${ladderCommand()} show ${options.run})`,
      );
    }
    return { record, chosen: arm === undefined && same.length > 1 ? `Arm ${record.arm} of pass ${pass} (--arm chooses another).` : null };
  }
  const failed = candidates.find(notPassed);
  if (failed !== undefined) return { record: failed, chosen: `The first pass of ${rung} that did not pass (--arm and --pass choose another).` };
  return { record: candidates[0]!, chosen: `Every pass of ${rung}${arm === undefined ? '' : ` on arm ${arm}`} passed; the first is shown (--arm and --pass choose another).` };
}

/** What `ladder show` prints; throws ReportInputError on a name that matches nothing. */
export async function showText(options: ShowOptions, paint?: Paint): Promise<string> {
  const run = await loadRun(options.run);
  const notice = run.manifest.model.synthetic === true ? SYNTHETIC_NOTICE : null;
  if (options.rung === undefined) {
    if (options.arm !== undefined || options.pass !== undefined || options.step !== undefined) {
      throw new ReportInputError('--arm, --pass and --step choose within a rung: name the rung too (ladder show <run> <rung>)');
    }
    return renderFailureList(await failureList(run, notice, options.run), paint);
  }
  const { record, chosen } = choosePass(run, options);
  const { transcript, evidence } = await readTranscriptAndEvidence(run.dir, record);
  const step = index('step', options.step);
  if (step !== undefined && !transcript.steps.some((s) => s.step === step)) {
    throw new ReportInputError(`no step ${step} in ${record.rung} ${record.arm} pass ${record.pass}; steps: ${ranges(transcript.steps.map((s) => s.step))}`);
  }
  const { marks, note } = await new RunMarks(run, options.cwd ?? process.cwd()).of(record.rung, transcript, evidence);
  const view = transcriptView(transcript, {
    fold: options.full === true ? NO_FOLD : FOLD, file: record.file, external: run.manifest.agent !== undefined, ...(step === undefined ? {} : { step }),
    callMarks: marks, notes: note === null ? [] : [note],
  });
  // A pass of an external agent says which agent at which version ran it, as the failure list does.
  const who = run.manifest.agent === undefined ? '' : `Run ${run.manifest.runId} (${whoRan(run.manifest)}).\n`;
  return `${who}${chosen === null ? '' : `${chosen}\n`}${renderTranscriptText(view, paint)}`;
}
