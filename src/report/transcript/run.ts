// A run's passes as `ladder show` lists them and the HTML report grids them: each counted pass
// with its status and first reason, and per rung the arms of each pass side by side, marked
// where their conversations first differ.
import { baselineArm } from '../compare.ts';
import type { PassRecord } from '../passes.ts';
import type { LoadedRun } from '../summary.ts';
import { armsOf, conversationsField, uniqueInOrder, whoRan } from '../summary.ts';
import { conversationsSentence, plural } from '../words.ts';
import type { PassTranscript } from './build.ts';
import type { Divergence } from './diverge.ts';
import { firstDivergence } from './diverge.ts';
import type { PassMarks } from './marks.ts';
import { RunMarks } from './marks.ts';
import { readTranscript, readTranscriptAndEvidence } from './read.ts';
import { ladderCommand } from '../../runner/invocation.ts';
import type { PassStatus, Tone, TranscriptView, ViewOptions } from './view.ts';
import { firstFailure, passStatus, roundKey, STATUS_TONE, transcriptView } from './view.ts';

export interface PassEntry {
  record: PassRecord;
  transcript: PassTranscript;
  /** The checks each call satisfied or broke, when they were asked for (marks.ts). */
  marks: PassMarks | undefined;
  status: PassStatus;
  failure: string | null;
}

/**
 * The transcripts of the run's counted passes that `keep` picks, in the run's order; with
 * `callMarks`, each with its calls' marks (the steps' evidence read with it and let go).
 */
export async function passEntries(run: LoadedRun, keep: (p: PassRecord) => boolean = () => true, callMarks?: RunMarks): Promise<PassEntry[]> {
  const entries: PassEntry[] = [];
  for (const record of run.passes.filter(keep)) {
    let transcript: PassTranscript;
    let marks: PassMarks | undefined;
    if (callMarks === undefined) transcript = await readTranscript(run.dir, record);
    else {
      const read = await readTranscriptAndEvidence(run.dir, record);
      transcript = read.transcript;
      marks = await callMarks.of(record.rung, transcript, read.evidence);
    }
    entries.push({ record, transcript, marks, status: passStatus(transcript), failure: firstFailure(transcript) });
  }
  return entries;
}

/** What the report's own figures count as not passing, without reading a transcript. */
export function notPassed(p: PassRecord): boolean {
  return !p.passed || p.error !== undefined || p.steps.some((s) => s.reason === 'errored');
}

// ---- `ladder show <run>` ----

export interface FailureRow {
  status: PassStatus;
  tone: Tone;
  rung: string;
  arm: string;
  pass: string;
  why: string;
}

export interface FailureList {
  title: string;
  notice: string | null;
  /** The agent's steps that ran as new conversations, when some did (words.ts, conversationsSentence). */
  conversations: string | null;
  rows: FailureRow[];
  /** Passes left out of every figure (damaged, cut short), from the report's problems. */
  leftOut: string[];
  hint: string;
}

export async function failureList(run: LoadedRun, notice: string | null, shownAs: string): Promise<FailureList> {
  const entries = await passEntries(run, notPassed);
  const count = (status: PassStatus): number => entries.filter((e) => e.status === status).length;
  const what = entries.length === 0
    ? 'every pass passed'
    : `${entries.length} did not pass: ${count('failed')} failed, ${count('errored')} errored`;
  const t = run.traces;
  const lost = t.damaged + t.incomplete;
  return {
    title: `Run ${run.manifest.runId} (${whoRan(run.manifest)}): ${plural(run.passes.length, 'counted pass', 'counted passes')}; ${what}.`,
    notice,
    conversations: conversationsSentence(conversationsField(run.passes).conversations),
    rows: entries.map((e) => ({
      status: e.status, tone: STATUS_TONE[e.status], rung: e.record.rung, arm: e.record.arm, pass: `pass ${e.record.pass}`, why: e.failure ?? '',
    })),
    leftOut: lost === 0 ? [] : [
      `Left out of every figure: ${plural(t.damaged, 'damaged pass', 'damaged passes')}, ${plural(t.incomplete, 'pass', 'passes')} cut short.`,
      ...t.problems,
    ],
    hint: `A transcript: ${ladderCommand()} show ${shownAs} <rung> [--arm A] [--pass i] [--step s]`,
  };
}

// ---- the HTML report's grid ----

export interface GridCell {
  status: PassStatus;
  tone: Tone;
  /** One line: the pass and why it did not pass. */
  title: string;
}

export interface PassPair {
  pass: number;
  /** One column per arm (null: that arm has no counted pass with this index). */
  columns: { arm: string; view: TranscriptView | null }[];
  /** Where the arms' conversations first differ, one sentence per arm compared with the baseline. */
  divergence: string[];
}

export interface RungGrid {
  rung: string;
  arms: string[];
  passes: number[];
  /** By arm, then by pass (null: not counted). */
  cells: (GridCell | null)[][];
  pairs: PassPair[];
}

function divergenceText(a: string, b: string, d: Divergence | null): string {
  return d === null
    ? `${a} and ${b}: the same conversation throughout.`
    : `${a} and ${b} first differ at step ${d.step}, round ${d.round}: ${d.what}.`;
}

function pairOf(arms: string[], pass: number, byArm: Map<string, PassEntry>, options: ViewOptions): PassPair {
  const baseline = baselineArm(arms);
  const base = byArm.get(baseline);
  const marks = new Map<string, Map<string, string>>(arms.map((arm) => [arm, new Map()]));
  const divergence: string[] = [];
  const mark = (arm: string, transcript: PassTranscript, d: Divergence, text: string): void => {
    // The side that ended the step earlier has no such round: its last round of the step is marked.
    const step = transcript.steps.find((s) => s.step === d.step);
    const round = step?.rounds.some((r) => r.round === d.round) === true ? d.round : step?.rounds.at(-1)?.round;
    if (round === undefined) return;
    const key = roundKey(d.step, round);
    const own = marks.get(arm)!;
    own.set(key, own.has(key) ? `${own.get(key)} ${text}` : text);
  };
  for (const arm of arms) {
    if (arm === baseline) continue;
    const other = byArm.get(arm);
    if (other === undefined || base === undefined) {
      divergence.push(`${other === undefined ? arm : baseline} has no counted pass ${pass} to compare.`);
      continue;
    }
    const d = firstDivergence({ name: baseline, transcript: base.transcript }, { name: arm, transcript: other.transcript });
    divergence.push(divergenceText(baseline, arm, d));
    if (d === null) continue;
    mark(baseline, base.transcript, d, `First difference from ${arm}: ${d.what}.`);
    mark(arm, other.transcript, d, `First difference from ${baseline}: ${d.what}.`);
  }
  return {
    pass,
    columns: arms.map((arm) => {
      const entry = byArm.get(arm);
      if (entry === undefined) return { arm, view: null };
      const called = entry.marks === undefined ? {} : { callMarks: entry.marks.marks, notes: entry.marks.note === null ? [] : [entry.marks.note] };
      return { arm, view: transcriptView(entry.transcript, { ...options, file: entry.record.file, marks: marks.get(arm)!, ...called }) };
    }),
    divergence,
  };
}

/**
 * Per rung, the grid of passes by arm and each pass's arms side by side, each call marked with
 * the checks it satisfied or broke (the rung files found from `cwd`, marks.ts).
 */
export async function passGrids(run: LoadedRun, options: ViewOptions = {}, cwd = process.cwd()): Promise<RungGrid[]> {
  const arms = armsOf(run);
  const callMarks = new RunMarks(run, cwd);
  // run.passes is in the run's order: rungs as the manifest lists them.
  const rungs = uniqueInOrder(run.passes.map((p) => p.rung));
  const grids: RungGrid[] = [];
  for (const rung of rungs) {
    // One rung at a time: its transcripts are read, laid out as views, and let go.
    const entries = await passEntries(run, (p) => p.rung === rung, callMarks);
    const rungArms = arms.filter((arm) => entries.some((e) => e.record.arm === arm));
    const passes = [...new Set(entries.map((e) => e.record.pass))].sort((x, y) => x - y);
    const find = (arm: string, pass: number): PassEntry | undefined => entries.find((e) => e.record.arm === arm && e.record.pass === pass);
    grids.push({
      rung,
      arms: rungArms,
      passes,
      cells: rungArms.map((arm) => passes.map((pass) => {
        const e = find(arm, pass);
        if (e === undefined) return null;
        return { status: e.status, tone: STATUS_TONE[e.status], title: `${arm} pass ${pass}: ${e.status}${e.failure === null ? '' : `; ${e.failure}`}` };
      })),
      pairs: passes.map((pass) => {
        const byArm = new Map<string, PassEntry>();
        for (const arm of rungArms) {
          const e = find(arm, pass);
          if (e !== undefined) byArm.set(arm, e);
        }
        return pairOf(rungArms, pass, byArm, options);
      }),
    });
  }
  return grids;
}
