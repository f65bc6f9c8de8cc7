// What a transcript says, in words: the one model that `ladder show` and the HTML report only
// lay out, so the terminal and the browser can never tell a pass differently (the same idea
// as render/document.ts for the figures).
import { CEILING_TEXT } from '../../agent/calls.ts';
import type { CallMark } from '../../rungs/callMarks.ts';
import type { Outcome, StepEndReason } from '../../trace/index.ts';
import { grouped, plural, quantity } from '../words.ts';
import type { CallRecord, PassTranscript, Recorded, RoundRecord, StepRecord } from './build.ts';
import type { FoldLimits, Folding } from './fold.ts';
import { bytesText, FOLD, fold } from './fold.ts';

/** How a renderer may colour a line: what went right, wrong, or what a mechanism did. */
export type Tone = 'good' | 'bad' | 'warn' | 'plain';

/** A text as recorded (folded), or one line saying what the trace kept instead. */
export type Body = { kind: 'text'; lines: string[]; more: string | null } | { kind: 'missing'; says: string };

export interface CallView {
  name: string;
  args: Body;
  /**
   * The lane's outcome; `not_made` for a call that never reached the lane (the harness answered
   * it, or the agent stopped first); `own` for an external agent's own tool, which it ran itself.
   */
  outcome: Outcome | 'not_made' | 'own';
  tone: Tone;
  /** The outcome in words, with the mechanism that acted: `refused by the breaker: ...`. */
  status: string;
  result: Body | null;
  /** The checks this call satisfied (good) or broke (bad), each `check: what the call did` (marks.ts). */
  checks: { tone: 'good' | 'bad'; text: string }[];
}

export interface RoundView {
  label: string;
  /** Tokens, and a round offered no tools. */
  detail: string;
  /** What the adapter changed for the provider (each change once per pass, where it first applied). */
  adaptations: string[];
  thinking: Body[];
  /** The provider's refusal. */
  refusal: Body | null;
  text: Body | null;
  /** The provider's failure when no response came. */
  error: string | null;
  calls: CallView[];
  /** Set on the round where two arms' conversations first differ (diverge.ts). */
  mark: string | null;
}

export interface StepView {
  step: number;
  heading: string;
  tone: Tone;
  /** passed, failed, errored, did not finish. */
  status: string;
  prompt: Body | null;
  tools: string;
  /** One line per request for input a server made during the step, and its answer. */
  asked: string[];
  rounds: RoundView[];
  end: string;
  failedChecks: { check: string; why: string }[];
  /** Judge checks that passed, with the model that passed them (a failed one is among failedChecks, saying who judged). */
  judgedPassed: { check: string; model: string }[];
}

export type PassStatus = 'passed' | 'failed' | 'errored' | 'unfinished';

export interface TranscriptView {
  title: string;
  status: PassStatus;
  tone: Tone;
  facts: string;
  /** What the trace did not record, and why; a pass cut short. */
  notes: string[];
  /** Why the pass did not pass, in one line (the first failed check, say), or null. */
  failure: string | null;
  system: Body | null;
  steps: StepView[];
}

export const STATUS_TONE: Record<PassStatus, Tone> = { passed: 'good', failed: 'bad', errored: 'warn', unfinished: 'warn' };

const CONTENT_NOTES = {
  none: "Trace format 1: it recorded counts only, so prompts, the model's text, arguments and results are not shown; sizes, outcomes and checks are.",
  redacted: "Recorded with --redact content: prompts, the model's text, arguments and results were kept as sizes and hashes only.",
  full: null,
} as const;

/** passed, failed, errored (the provider or the harness failed, not the model), or unfinished. */
export function passStatus(t: PassTranscript): PassStatus {
  if (t.end === undefined) return 'unfinished';
  if (t.end.error !== undefined || t.steps.some((s) => s.end?.reason === 'errored')) return 'errored';
  return t.end.passed ? 'passed' : 'failed';
}

/** Why a step errored: its own line, else the provider failure of its last round (format 1 kept only that). */
function stepError(s: StepRecord): string {
  return s.end?.error ?? s.rounds.findLast((r) => r.error !== undefined)?.error ?? 'no error recorded';
}

// A check is named by its whole spec (a file check quotes its pattern); the why says what failed.
const CHECK_CHARS = 60;

const checkName = (check: string): string => (check.length > CHECK_CHARS ? `${check.slice(0, CHECK_CHARS)}…` : check);

function stepFailure(s: StepRecord): string | null {
  const end = s.end;
  if (end === undefined) return `step ${s.step} did not finish`;
  if (end.reason === 'errored') return `step ${s.step} errored: ${stepError(s)}`;
  // Said before any check: the checks failed because the agent stopped, not the other way round.
  if (end.reason === 'agent_stopped') return `step ${s.step}: the agent stopped itself: ${stepError(s)}`;
  const check = end.failedChecks[0];
  if (check !== undefined) {
    return `step ${s.step}: ${checkName(check.check)}: ${check.why}`;
  }
  if (end.passed) return null;
  return `step ${s.step} ${endReason(s)}`;
}

/** Why a pass did not pass, in one line: the harness's error, else its first failing step's first reason. */
export function firstFailure(t: PassTranscript): string | null {
  if (t.end?.error !== undefined) return `the harness ended the pass: ${t.end.error}`;
  for (const s of t.steps) {
    const why = stepFailure(s);
    if (why !== null) return why;
  }
  if (t.end === undefined) return 'the pass did not finish';
  return t.end.passed ? null : 'failed, with every recorded step passed';
}

function missing(what: string, r: Recorded | undefined): Body {
  if (r === undefined) return { kind: 'missing', says: `${what} not recorded` };
  const size = r.bytes === undefined ? '' : bytesText(r.bytes);
  const hash = r.hash === undefined ? '' : `hash ${r.hash}`;
  const said = [size, hash].filter((x) => x !== '').join(', ');
  return { kind: 'missing', says: `${what} not recorded${said === '' ? '' : ` (${said})`}` };
}

function body(what: string, r: Recorded | undefined, limits: FoldLimits): Body {
  if (r?.text === undefined) return missing(what, r);
  return { kind: 'text', ...fold(r.text, limits) };
}

function endReason(s: StepRecord): string {
  const end = s.end!;
  const after = `after ${plural(end.rounds, 'round')} and ${plural(end.calls, 'call')}, in ${quantity(end.ms, 'ms')}`;
  switch (end.reason) {
    case 'answered':
      return `answered ${after}`;
    case 'ceiling':
      return `stopped at the tool-call ceiling${s.ceiling === undefined ? '' : ` (${plural(s.ceiling, 'call')})`} ${after}`;
    case 'time_limit':
      return `stopped at its time limit${s.timeLimitMs === undefined ? '' : ` (${quantity(s.timeLimitMs, 'ms')})`} ${after}`;
    case 'errored':
      return `errored ${after}: ${stepError(s)}`;
    case 'agent_failed':
      return `the agent failed ${after}: ${stepError(s)}`;
    case 'agent_stopped':
      return `the agent stopped itself ${after}: ${stepError(s)}`;
  }
}

/** The workbench's jobs_wait says in its result when its cap, not the caller's budget, ended the wait. */
function waitCapped(call: CallRecord): string | null {
  if (!call.name.endsWith('jobs_wait') || call.result?.text === undefined) return null;
  let reply: unknown;
  try {
    reply = JSON.parse(call.result.text);
  } catch {
    return null;
  }
  const r = reply as { done?: unknown; remainingMs?: unknown; waitedMs?: unknown } | null;
  if (r === null || typeof r !== 'object' || r.done !== false || typeof r.remainingMs !== 'number') return null;
  const waited = typeof r.waitedMs === 'number' ? ` after ${quantity(r.waitedMs, 'ms')}` : '';
  return `wait capped by the workbench${waited}: not finished, ${grouped(r.remainingMs)} ms of the budget left`;
}

/** Where a call sits: what its step's trace can say about a call that never reached the lane. */
interface CallPlace {
  /** The trace records every tool message (format 2), so a call with none got no answer at all. */
  resultsRecorded: boolean;
  /** How the call's step ended, when it did. */
  stepEnd: StepEndReason | undefined;
  /** The pass is an external agent's: what answered a call without the lane was the agent. */
  external: boolean;
  /** The checks each call satisfied or broke (marks.ts). */
  marks: ReadonlyMap<CallRecord, readonly CallMark[]>;
}

function notMade(call: CallRecord, place: CallPlace): string {
  if (call.invalid !== undefined) return 'not made: the adapter found the call invalid (the result says why)';
  const text = call.result?.text;
  if (text === CEILING_TEXT) return "not made: the step's tool-call ceiling was reached";
  if (text?.startsWith('The arguments were not a JSON object') === true) return 'not made: the arguments were not a JSON object';
  // Nothing answered it: the model asked for it, and the step ended before anyone made it.
  if (call.result === undefined && place.resultsRecorded) {
    if (place.stepEnd === 'agent_stopped') return 'not made: the agent stopped itself before making it';
    if (place.stepEnd === 'agent_failed') return 'not made: the agent failed before making it';
    return 'not made: the step ended before it was made; nothing answered it';
  }
  // An external agent's call reaches Ladder only through the MCP gateway: one answered without
  // it was answered by the agent (Gemini CLI checks arguments against the tool's schema first).
  if (place.external && call.result !== undefined) return 'not sent: the agent answered it itself, without calling the tool through the gateway';
  return 'not made: the harness answered without calling the tool';
}

function callStatus(call: CallRecord, place: CallPlace): { outcome: CallView['outcome']; tone: Tone; status: string } {
  const lane = call.lane;
  if (lane === undefined && call.own) return { outcome: 'own', tone: 'plain', status: "the agent's own tool: run by the agent, not through the MCP gateway" };
  if (lane === undefined) return { outcome: 'not_made', tone: 'warn', status: notMade(call, place) };
  const ms = quantity(lane.ms, 'ms');
  const probe = lane.probe ? '; the one probe let through a half-open circuit' : '';
  switch (lane.outcome) {
    case 'ok': {
      const capped = waitCapped(call);
      return capped === null
        ? { outcome: 'ok', tone: 'good', status: `ok in ${ms}${probe}` }
        : { outcome: 'ok', tone: 'warn', status: `ok in ${ms}; ${capped}${probe}` };
    }
    case 'failed':
      return { outcome: 'failed', tone: 'bad', status: `failed (${lane.errorType ?? 'error'}) in ${ms}${probe}` };
    case 'timeout':
      if (lane.errorType === 'abandoned') {
        return { outcome: 'timeout', tone: 'bad', status: `abandoned after ${ms}: the step stopped while it ran; the server was asked to cancel it${probe}` };
      }
      return { outcome: 'timeout', tone: 'bad', status: `timed out after ${ms}: no answer in time; the tool may still be running${probe}` };
    case 'refused': {
      const at = call.failedAtRound === undefined ? 'earlier in this step' : `at round ${call.failedAtRound} of this step`;
      return { outcome: 'refused', tone: 'warn', status: `refused by the breaker: the identical call failed ${at}; not sent` };
    }
    case 'unavailable': {
      const server = lane.server === '' ? 'its server' : `server ${lane.server}`;
      const why = lane.errorType === 'not_started' ? `${server} did not start` : `circuit open, ${server} kept failing`;
      return { outcome: 'unavailable', tone: 'warn', status: `unavailable: ${why}; not sent` };
    }
    case 'short_circuited': {
      const at = call.answeredAt;
      const where = at === undefined ? 'an earlier answer' : `the answer at step ${at.step}, round ${at.round}`;
      return { outcome: 'short_circuited', tone: 'warn', status: `short-circuited as a repeat: identical to ${where} (asked ${plural(call.asked, 'time')}); not sent` };
    }
  }
}

function callView(call: CallRecord, limits: Folding, place: CallPlace): CallView {
  const args = body('arguments', call.args, limits.data);
  const status = callStatus(call, place);
  if (call.rewritten) status.status += `; sent with other arguments than these (${plural(call.lane?.argBytes ?? 0, 'byte')}): the agent changed them`;
  const checks = (place.marks.get(call) ?? []).map((m) => ({
    tone: m.satisfied ? 'good' as const : 'bad' as const,
    text: m.detail === '' ? checkName(m.label) : `${checkName(m.label)}: ${m.detail}`,
  }));
  return { name: call.name, args, ...status, result: call.result === undefined ? null : body('result', call.result, limits.data), checks };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An adapter's change in words; a redacted trace keeps only its kind and tool. */
export function adaptationWords(a: Record<string, unknown>): string {
  const tool = str(a['tool']);
  switch (a['kind']) {
    case 'schema': {
      const changes = Array.isArray(a['changes']) ? `: ${a['changes'].map(String).join('; ')}` : '';
      return `the schema of ${tool ?? 'a tool'} rewritten${changes}`;
    }
    case 'name':
      return `${tool ?? 'a tool'} sent as ${str(a['sent']) ?? 'another name'}`;
    case 'arguments':
      return `the arguments of ${tool ?? 'a call'}${str(a['why']) === undefined ? ' changed' : `: ${str(a['why'])}`}`;
    case 'message':
      return typeof a['index'] === 'number' ? `message ${a['index']}: ${str(a['change']) ?? 'changed'}` : 'a message changed';
    default:
      return `${String(a['kind'])}${tool === undefined ? '' : ` (${tool})`}`;
  }
}

function tokens(n: number | null): string {
  return n === null ? '?' : grouped(n);
}

function roundView(r: RoundRecord, limits: Folding, mark: string | null, place: CallPlace): RoundView {
  const detail = [
    ...(r.error === undefined ? [`${tokens(r.tokensIn)} tokens in, ${tokens(r.tokensOut)} out`] : []),
    ...(r.tools === 0 ? ['no tools offered'] : []),
  ].join('; ');
  let text: Body | null = null;
  if (r.text?.text === undefined) text = r.text === undefined || r.text.bytes === 0 ? null : missing('text', r.text);
  else if (r.text.text !== '' || (r.calls.length === 0 && r.refusal === undefined)) text = r.text.text === '' ? { kind: 'missing', says: 'no text' } : body('text', r.text, limits.prose);
  const attempts = r.attempts !== undefined && r.attempts > 1 ? ` after ${plural(r.attempts, 'attempt')}` : '';
  return {
    label: `Round ${r.round}`, detail,
    adaptations: r.adaptations.map(adaptationWords),
    thinking: r.thinking.map((t) => (t === undefined ? { kind: 'missing', says: 'thinking sealed by the provider' } : body('thinking', { text: t }, limits.prose))),
    refusal: r.refusal === undefined ? null : body('refusal', { text: r.refusal }, limits.prose),
    text, error: r.error === undefined ? null : `no response: ${r.error}${attempts}`,
    calls: r.calls.map((c) => callView(c, limits, place)), mark,
  };
}

function sameTools(x: StepRecord['tools'], y: StepRecord['tools']): boolean {
  return x !== undefined && y !== undefined && x.count === y.count && x.names !== undefined && x.names.join('\n') === y.names?.join('\n');
}

/** The tools a step was offered; a list unchanged from the step before is not repeated. */
/** The MCP revision each server spoke, where the listing recorded it (the pass's first, and after a change). */
function revisions(protocols: Record<string, string> | undefined): string {
  if (protocols === undefined) return '';
  const spoken = Object.entries(protocols);
  if (spoken.length === 0) return '';
  const distinct = new Set(spoken.map(([, revision]) => revision));
  const said = distinct.size === 1 ? [...distinct][0]! : spoken.map(([server, revision]) => `${server} ${revision}`).join(', ');
  return `; MCP revision: ${said}`;
}

function toolsLine(s: StepRecord, before: StepRecord | undefined): string {
  const tools = s.tools;
  if (tools === undefined) return 'tools offered: not recorded';
  const failed = (tools.failed.length === 0 ? '' : `; listing failed: ${tools.failed.join(', ')}`) + revisions(tools.protocols);
  if (tools.count === 0) return `no tools offered${failed}`;
  if (before !== undefined && sameTools(tools, before.tools)) return `${plural(tools.count, 'tool')} offered, the same as in step ${before.step}${failed}`;
  const names = tools.names === undefined ? ' (names not recorded)' : `: ${tools.names.join(', ')}`;
  return `${plural(tools.count, 'tool')} offered${names}${failed}`;
}

/** `v2 asked "Deploy to staging?": accept {"confirm":true} (a declared answer)`. */
function askedLine(a: NonNullable<StepRecord['asked']>[number]): string {
  const content = a.content === undefined ? '' : ` ${JSON.stringify(a.content)}`;
  const why = a.declared ? 'a declared answer' : 'no declared answer matched';
  return `${a.server} asked ${JSON.stringify(a.message)}: ${a.action}${content} (${why})`;
}

function stepView(s: StepRecord, before: StepRecord | undefined, limits: Folding, marks: ReadonlyMap<string, string>, place: Omit<CallPlace, 'stepEnd'>): StepView {
  const end = s.end;
  const callPlace: CallPlace = { ...place, stepEnd: end?.reason };
  const status = end === undefined ? 'did not finish' : end.reason === 'errored' ? 'errored' : end.passed ? 'passed' : 'failed';
  const tone: Tone = status === 'passed' ? 'good' : status === 'failed' ? 'bad' : 'warn';
  return {
    step: s.step,
    heading: `Step ${s.step}`,
    tone,
    status,
    prompt: s.prompt === undefined ? null : body('prompt', s.prompt, limits.prose),
    tools: toolsLine(s, before),
    asked: (s.asked ?? []).map(askedLine),
    rounds: s.rounds.map((r) => roundView(r, limits, marks.get(roundKey(s.step, r.round)) ?? null, callPlace)),
    end: end === undefined ? 'did not finish: no step.end recorded' : `${endReason(s)}; ${status}${end.carried === false ? `; ${NEW_CONVERSATION}` : ''}${end.agentNotes.length === 0 ? '' : `; the agent noted: ${end.agentNotes.join('; ')}`}`,
    failedChecks: end?.failedChecks.map((c) => ({ check: c.check, why: c.why })) ?? [],
    judgedPassed: end?.judged.filter((j) => j.passed).map((j) => ({ check: j.check, model: j.model })) ?? [],
  };
}

/** Said on a step that ran as a new conversation (step.end `carried: false`). */
export const NEW_CONVERSATION = "a new conversation: the agent's first request of the step did not carry the earlier steps";

export function roundKey(step: number, round: number): string {
  return `${step}:${round}`;
}

export interface ViewOptions {
  /** How far long texts are folded (default FOLD). */
  fold?: Folding;
  /** Only this step. */
  step?: number;
  /** The trace file, named in the facts line. */
  file?: string;
  /** Marks by roundKey(step, round): where another arm's conversation first differs. */
  marks?: ReadonlyMap<string, string>;
  /** The run's agent is an external one (its manifest names it). */
  external?: boolean;
  /** The checks each call satisfied or broke (marks.ts); none marked when absent. */
  callMarks?: ReadonlyMap<CallRecord, readonly CallMark[]>;
  /** Notes to add to the transcript's own (what the call marks leave out). */
  notes?: readonly string[];
}

export function transcriptView(t: PassTranscript, options: ViewOptions = {}): TranscriptView {
  const limits = options.fold ?? FOLD;
  const marks = options.marks ?? new Map<string, string>();
  const status = passStatus(t);
  const notes: string[] = [];
  const content = CONTENT_NOTES[t.content];
  if (content !== null) notes.push(content);
  if (t.end === undefined) notes.push('The pass did not finish (its trace ends before pass.end); what was recorded is shown.');
  notes.push(...(options.notes ?? []));
  const place = { resultsRecorded: t.content !== 'none', external: options.external === true, marks: options.callMarks ?? new Map() };
  const steps = t.steps
    .map((s, i) => stepView(s, t.steps[i - 1], limits, marks, place))
    .filter((s) => options.step === undefined || s.step === options.step);
  const facts = [
    `seed ${t.seed}`,
    plural(t.steps.length, 'step'),
    ...(t.end === undefined ? [] : [quantity(t.end.ms, 'ms')]),
    ...(options.file === undefined ? [] : [`trace ${options.file}`]),
  ].join(', ');
  return {
    title: `${t.rung}, arm ${t.arm}, pass ${t.pass}: ${status}`,
    status,
    tone: STATUS_TONE[status],
    facts,
    notes,
    failure: firstFailure(t),
    system: t.system === undefined ? null : body('system prompt', t.system, limits.prose),
    steps,
  };
}
