// Reads one trace at a time into compact per-pass records: counts per step-run and per tool,
// never the events themselves, so memory grows with passes and steps, not with events.
import { CONTENT_LEVELS, OUTCOMES, PassOrder, readTrace } from '../trace/index.ts';
import type { ContentLevel, Outcome, StepEndReason, TraceEvent, TraceFormatError } from '../trace/index.ts';
import { canonicalArm, tracePath } from '../results/read.ts';
import { selection } from './selection.ts';
import type { Selection } from './selection.ts';
import { splitStepTime } from './stepTime.ts';
import type { Span, StepTime } from './stepTime.ts';

/** docs/report.md, "Metrics": an identical-repeat is the 3rd or later identical call in its pass. */
export const REPEAT_FROM = 3;

/** JSON-RPC's invalid-params code, as a tool.call's `error.type` carries an MCP error code. */
const INVALID_PARAMS = '-32602';

/** Outcomes where the call went over the wire; the rest were answered by the harness. */
const SENT: ReadonlySet<Outcome> = new Set<Outcome>(['ok', 'failed', 'timeout']);

export interface ToolTally {
  /** Qualified name, `server__tool`. */
  tool: string;
  /** The configured server it routes to ('' when none). */
  server: string;
  /** As the tool.call event said; absent counts as not declared deterministic. */
  deterministic: boolean;
  calls: number;
  sent: number;
  repeats: number;
  repeatsSent: number;
  deadCalls: number;
  /** Calls the server refused for their arguments: its own invalid-params error (-32602), not a failed result. */
  rejected: number;
  /** Calls by outcome. */
  outcomes: Record<Outcome, number>;
  /** `ms` of each call sent (ok, failed, timeout): the server's time as the lane measured it. */
  ms: number[];
}

export interface StepRun {
  step: number;
  passed: boolean;
  reason: StepEndReason;
  failedChecks: number;
  /** step.end `ms`. */
  ms: number;
  /** `t` of step.start and step.end (ms since the pass started). */
  startT: number;
  endT: number;
  answeredAt: number | undefined;
  calls: number;
  sent: number;
  outcomes: Record<Outcome, number>;
  repeats: number;
  repeatsSent: number;
  deadCalls: number;
  requests: number;
  zeroToolRounds: number;
  responses: number;
  tokensIn: number;
  tokensOut: number;
  tokensInMissing: number;
  tokensOutMissing: number;
  /** Of the input tokens, those read from and written to the provider's cache. */
  cacheRead: number;
  cacheWrite: number;
  /** `ms` of each model response (retries and their waits included): the model's own time per round. */
  roundMs: number[];
  tools: ToolTally[];
  /** An external agent's start-up in the step (step.end `agentStartupMs`); absent for the built-in loop. */
  agentStartupMs?: number;
  /** An external agent's step after the first: whether its first model request carried the earlier steps (step.end `carried`). */
  carried?: boolean;
  /** The step's time split four ways, each millisecond once (stepTime.ts): the parts add up to `ms`. */
  time: StepTime;
  /** The tools the reference calls in the step (step.start `reference`); absent in older traces. */
  reference?: string[];
  /** The step's calls against the reference (selection.ts); absent with the reference. */
  selection?: Selection;
}

export interface PassRecord {
  rung: string;
  arm: string;
  pass: number;
  seed: number;
  /** Trace path relative to the run folder. */
  file: string;
  passed: boolean;
  /** pass.end `error`: a harness failure that ended the pass early. */
  error: string | undefined;
  steps: StepRun[];
  events: number;
  /** How much of the conversation the trace holds (`none`: format 1). */
  content: ContentLevel;
}

export interface TraceTally {
  files: number;
  events: number;
  /** Each trace file once, by its last pass: these four add up to `files`. */
  fileStates: { complete: number; incomplete: number; empty: number; damaged: number };
  /** Passes whose trace does not end with pass.end (interrupted, or restarted in the same file). */
  incomplete: number;
  /** Complete passes with the rung, arm and pass index of one read before (first one kept). */
  duplicates: number;
  /** Passes with an event that breaks the format (shape, version, order); left out of every figure. */
  damaged: number;
  tornLines: number;
  /** step.start with no step.end in a complete pass. */
  unfinishedSteps: number;
  /** Complete passes that pass.end says a harness error ended (a server that did not start, say). */
  harnessErrors: number;
  /** Complete passes by how much of the conversation they recorded (`none`: trace format 1). */
  content: Record<ContentLevel, number>;
  /** The first few problems, one line each, for the report. */
  problems: string[];
}

const MAX_PROBLEMS = 10; // enough to point at the cause; a run with more has one cause repeated
const MAX_ERROR_CHARS = 240; // a harness error can quote a whole command line; its start says what failed

type StepAcc = Omit<StepRun, 'passed' | 'reason' | 'failedChecks' | 'ms' | 'endT' | 'answeredAt' | 'tools' | 'time' | 'selection'> & {
  tools: Map<string, ToolTally>;
  /** Where the model's responses and the calls sent lay on the pass's clock, for the time split. */
  modelSpans: Span[];
  toolSpans: Span[];
  /** `t` of the step's first model request: where an external agent's start-up ends. */
  firstRequestT: number | undefined;
};

function newStep(step: number, startT: number, reference: string[] | undefined): StepAcc {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  return {
    step, startT, ...(reference === undefined ? {} : { reference }), calls: 0, sent: 0, outcomes, repeats: 0, repeatsSent: 0, deadCalls: 0, requests: 0,
    zeroToolRounds: 0, responses: 0, tokensIn: 0, tokensOut: 0, tokensInMissing: 0, tokensOutMissing: 0, cacheRead: 0, cacheWrite: 0,
    roundMs: [], tools: new Map(), modelSpans: [], toolSpans: [], firstRequestT: undefined,
  };
}

/** The state of the pass being read; replaced at each pass.start. */
class PassAcc {
  readonly steps = new Map<number, StepAcc>();
  readonly done: StepRun[] = [];
  readonly seen = new Map<string, number>();
  turn = 0; // turns count from 1
  failedInTurn = new Set<string>();
  configured = 0;
  events = 0;
  end: { passed: boolean; error: string | undefined } | undefined;
  /** The first event that broke the format or the order of a pass: `line: problem`. */
  damage: string | undefined;
  readonly order: PassOrder;

  constructor(readonly start: Extract<TraceEvent, { type: 'pass.start' }>) {
    this.order = new PassOrder(start);
  }

  /**
   * The open step-run an event belongs to. It exists: PassOrder refuses (as damage) a round or
   * a call outside its step before anything is added.
   */
  open(step: number): StepAcc {
    return this.steps.get(step)!;
  }

  add(e: TraceEvent): void {
    this.events += 1;
    if (e.type === 'step.start') this.steps.set(e.step, newStep(e.step, e.t, e.reference));
    else if (e.type === 'tools.list') this.configured = e.configured;
    else if (e.type === 'model.request') {
      const s = this.open(e.step);
      s.requests += 1;
      s.firstRequestT ??= e.t;
      if (e.tools === 0 && this.configured > 0) s.zeroToolRounds += 1;
    } else if (e.type === 'model.response') {
      const s = this.open(e.step);
      s.responses += 1;
      const input = e['gen_ai.usage.input_tokens'];
      const output = e['gen_ai.usage.output_tokens'];
      if (typeof input === 'number') s.tokensIn += input;
      else s.tokensInMissing += 1;
      if (typeof output === 'number') s.tokensOut += output;
      else s.tokensOutMissing += 1;
      s.cacheRead += e['gen_ai.usage.cache_read.input_tokens'] ?? 0;
      s.cacheWrite += e['gen_ai.usage.cache_creation.input_tokens'] ?? 0;
      s.roundMs.push(e.ms);
      s.modelSpans.push({ from: e.t - e.ms, to: e.t });
    } else if (e.type === 'tool.call') this.call(e);
    else if (e.type === 'step.end') this.stepEnd(e);
    else if (e.type === 'pass.end') this.end = { passed: e.passed, error: e.error };
  }

  call(e: Extract<TraceEvent, { type: 'tool.call' }>): void {
    // The lane's turn for step s is s + 1 (src/trace/schema.ts, step.start).
    const s = this.open(e.turn - 1);
    if (e.turn !== this.turn) {
      this.turn = e.turn;
      this.failedInTurn = new Set();
    }
    const name = e['gen_ai.tool.name'];
    const deterministic = e.deterministic === true;
    const toolKey = `${deterministic}:${name}`;
    let tool = s.tools.get(toolKey);
    if (tool === undefined) {
      s.tools.set(toolKey, (tool = {
        tool: name, server: e.server, deterministic, calls: 0, sent: 0, repeats: 0, repeatsSent: 0, deadCalls: 0, rejected: 0,
        outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>, ms: [],
      }));
    }
    const sent = SENT.has(e.outcome);
    const nth = (this.seen.get(e.key) ?? 0) + 1;
    this.seen.set(e.key, nth);
    const repeat = nth >= REPEAT_FROM;
    const dead = sent && this.failedInTurn.has(e.key);
    if (e.outcome === 'failed') this.failedInTurn.add(e.key);
    s.calls += 1;
    s.outcomes[e.outcome] += 1;
    tool.calls += 1;
    tool.outcomes[e.outcome] += 1;
    if (e['error.type'] === INVALID_PARAMS) tool.rejected += 1;
    if (sent) {
      tool.ms.push(e.ms);
      s.toolSpans.push({ from: e.t - e.ms, to: e.t });
    }
    const count = (field: 'sent' | 'repeats' | 'repeatsSent' | 'deadCalls', yes: boolean): void => {
      if (!yes) return;
      s[field] += 1;
      tool[field] += 1;
    };
    count('sent', sent);
    count('repeats', repeat);
    count('repeatsSent', repeat && sent);
    count('deadCalls', dead);
  }

  stepEnd(e: Extract<TraceEvent, { type: 'step.end' }>): void {
    const { tools, modelSpans, toolSpans, firstRequestT, ...acc } = this.open(e.step);
    this.steps.delete(e.step);
    // An external agent's start-up ends at its first model request (at the step's end when it made none).
    const startupEnd = firstRequestT ?? e.t;
    const time = splitStepTime({
      step: { from: e.t - e.ms, to: e.t }, model: modelSpans, tools: toolSpans,
      startup: e.agentStartupMs === undefined ? undefined : { from: startupEnd - e.agentStartupMs, to: startupEnd },
    });
    const called = new Map<string, number>();
    for (const tool of tools.values()) called.set(tool.tool, (called.get(tool.tool) ?? 0) + tool.calls);
    this.done.push({
      ...acc, passed: e.passed, reason: e.reason, failedChecks: e.failedChecks.length, ms: e.ms, endT: e.t,
      answeredAt: e.answeredAt, tools: [...tools.values()], time,
      ...(e.agentStartupMs === undefined ? {} : { agentStartupMs: e.agentStartupMs }),
      carried: e.carried,
      ...(acc.reference === undefined ? {} : { selection: selection(acc.reference, called) }),
    });
  }
}

/**
 * Reads one trace file, calling `onPass` for each complete, undamaged pass in it; updates
 * `tally`. Nothing in a file stops the reading: a line that breaks the format, or an event out
 * of order, marks the pass it is in as damaged (named once in the problems) and that pass is
 * left out of every figure; the passes around it still count.
 */
export async function readPasses(dir: string, path: string, tally: TraceTally, onPass: (pass: PassRecord) => void): Promise<void> {
  const file = tracePath(dir, path);
  const problem = (line: string): void => {
    if (tally.problems.length < MAX_PROBLEMS) tally.problems.push(line);
  };
  let current: PassAcc | undefined;
  /** Damage seen before any pass.start: an attempt whose start cannot be read, left out whole. */
  let orphan: string | undefined;
  const damage = (where: string): void => {
    if (current === undefined) orphan ??= where;
    else current.damage ??= where;
  };
  const finish = (acc: PassAcc): 'complete' | 'incomplete' | 'damaged' => {
    const { rung, arm, pass, seed, content } = acc.start;
    const label = `${rung} ${arm} pass ${pass}`;
    if (acc.damage !== undefined) {
      tally.damaged += 1;
      problem(`${file}:${acc.damage}; ${label} left out`);
      return 'damaged';
    }
    if (acc.end === undefined) {
      tally.incomplete += 1;
      return 'incomplete';
    }
    tally.unfinishedSteps += acc.steps.size;
    if (acc.end.error !== undefined) {
      tally.harnessErrors += 1;
      problem(`${file}: ${label} ended by a harness error: ${acc.end.error.slice(0, MAX_ERROR_CHARS)}`);
    }
    const level: ContentLevel = acc.start.v < 2 ? 'none' : (content ?? 'none');
    tally.content[level] += 1;
    onPass({
      rung, arm: canonicalArm(arm), pass, seed, file, passed: acc.end.passed, error: acc.end.error,
      steps: acc.done.sort((x, y) => x.step - y.step), events: acc.events, content: level,
    });
    return 'complete';
  };
  const unreadable = (): 'damaged' => {
    tally.damaged += 1;
    problem(`${file}:${orphan}; no pass could be read from these lines`);
    return 'damaged';
  };
  let last: ReturnType<typeof finish> | undefined;
  const reader = readTrace(path, {
    onDamaged: (error: TraceFormatError) => damage(`${error.line}: ${error.problem}`),
  });
  tally.files += 1;
  for await (const event of reader) {
    tally.events += 1;
    if (event.type === 'pass.start') {
      // A resumed pass appends a fresh start to its file; what came before it never ended.
      if (current !== undefined) last = finish(current);
      else if (orphan !== undefined) last = unreadable();
      current = new PassAcc(event);
    } else if (current === undefined) {
      orphan ??= `${reader.line}: ${event.type} before any pass.start`;
      continue;
    } else {
      const wrong = current.order.problem(event);
      if (wrong !== undefined) current.damage ??= `${reader.line}: ${wrong}`;
    }
    // A damaged pass is left out of every figure: nothing more of it is counted.
    if (current.damage === undefined) current.add(event);
  }
  if (reader.torn !== undefined) {
    tally.tornLines += 1;
    problem(`${file}:${reader.torn.line}: torn last line (${reader.torn.bytes} bytes) skipped`);
  }
  if (current !== undefined) {
    // A pass.end cut just short of its newline may not be whole: as the runner does, count it cut short.
    if (reader.unterminated) current.end = undefined;
    last = finish(current);
  } else if (orphan !== undefined) last = unreadable();
  tally.fileStates[last ?? 'empty'] += 1;
}

export function emptyTraceTally(): TraceTally {
  return {
    files: 0, events: 0, fileStates: { complete: 0, incomplete: 0, empty: 0, damaged: 0 }, incomplete: 0, duplicates: 0, damaged: 0,
    tornLines: 0, unfinishedSteps: 0, harnessErrors: 0,
    content: Object.fromEntries(CONTENT_LEVELS.map((level) => [level, 0])) as Record<ContentLevel, number>, problems: [],
  };
}
