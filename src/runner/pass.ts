// One pass: a fresh workspace, the rung's own server processes, the steps through the agent
// loop, every check judged, and a trace written as it happens. Everything the pass started is
// torn down before it returns, whatever happened; a pass that ends by interruption says so and
// leaves no pass.end, so it is incomplete and --resume makes it again.
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { runStep } from '../agent/index.ts';
import type { StepResult, StepSpec, ToolLane } from '../agent/index.ts';
import { ARM_ON, Lane, LaneConfigError, parseArm, stepValue } from '../lane/index.ts';
import type { Arm, CallResult } from '../lane/index.ts';
import type { JudgeFn } from '../judge/judge.ts';
import type { ChatMessage } from '../models/index.ts';
import { answerCheckOf, runChecks } from '../rungs/checks.ts';
import type { Rung, RungStep } from '../rungs/schema.ts';
import { Scrubber, TraceWriter } from '../trace/index.ts';
import type { Emit, JudgedCheck, Secret } from '../trace/index.ts';
import type { AgentFactory } from './agents.ts';
import { ExternalSteps } from './external.ts';
import { oneshotPrompt } from './oneshot.ts';
import type { PassId } from './plan.ts';
import { databasePath, passServers, serverSecrets } from './servers.ts';
import { keepWorkspace, snapshotFile } from './snapshot.ts';
import { startServers } from './started.ts';
import { callTimeouts, CONNECT_TIMEOUT_MS, plainTimeouts, stepTimeLimitMs } from './timing.ts';
import { makePassFolder } from './workspace.ts';

export interface PassInput {
  rung: Rung;
  id: PassId;
  /** The trace file; replaced if it exists. */
  tracePath: string;
  agent: AgentFactory;
  timeFactor: number;
  mode: 'steps' | 'oneshot';
  /** Where the pass's temporary folder is made. */
  tempRoot: string;
  signal?: AbortSignal;
  /** Sees every tool list the lane offers (rungs validate: which tools exist). */
  onTools?: (names: readonly string[]) => void;
  /** `redacted`: hashes and byte counts instead of the conversation (`--redact content`). */
  content?: 'full' | 'redacted';
  /** Values scrubbed from the trace besides the rung's own server env and headers (API keys). */
  secrets?: readonly Secret[];
  /** Sees every call's result as the model got it (rungs validate: a failing reference call's own words). */
  onCall?: (name: string, result: CallResult) => void;
  /** `--keep-workspaces`: the folder where each step's workspace snapshot goes (replaced). */
  snapshots?: string;
  /** What answers the rung's judge checks (the run's judgements); without it they fail saying so. */
  judge?: JudgeFn;
}

export interface StepOutcome {
  step: number;
  passed: boolean;
  reason: StepResult['reason'];
  /** Every check with its result, in the rung's order. */
  checks: { check: string; passed: boolean; why?: string; judgedBy?: string; judgeUsd?: number | null }[];
  /** An errored step (a provider that kept failing): its one line, and the cause in a few words. */
  error?: { line: string; cause: string };
}

export interface PassOutcome {
  passed: boolean;
  interrupted: boolean;
  steps: StepOutcome[];
  /** A harness failure (a server that did not start), not a model failure. */
  error?: string;
  /** A server answered and refused Ladder's protocol (lane/refusal.ts): every pass would end the same. */
  refused?: true;
}

/** A step passes when it ended by answering and every one of its checks passed. */
function stepPassed(result: StepResult, checks: readonly { passed: boolean }[]): boolean {
  return result.reason === 'answered' && checks.every((c) => c.passed);
}

export async function runPass(input: PassInput): Promise<PassOutcome> {
  const { rung, id } = input;
  const started = performance.now();
  const content = input.content ?? 'full';
  if (input.snapshots !== undefined) await rm(input.snapshots, { recursive: true, force: true });
  await using folder = await makePassFolder(input.tempRoot, rung.setup.files);
  const scrubber = new Scrubber({ secrets: [...(input.secrets ?? []), ...serverSecrets(rung)], workspace: folder.workspace });
  using trace = TraceWriter.open(input.tracePath, { startedAt: started, now: () => performance.now(), scrubber, content });
  const emit = trace.emit;
  emit({ type: 'pass.start', rung: id.rung, arm: id.arm, pass: id.pass, seed: id.seed, time: new Date().toISOString(), content });
  const end = (outcome: PassOutcome): PassOutcome => {
    if (!outcome.interrupted) {
      emit({
        type: 'pass.end', passed: outcome.passed, steps: outcome.steps.length, ms: Math.round(performance.now() - started), error: outcome.error,
      });
    }
    return outcome;
  };

  // Servers that fail to start because the run was interrupted meanwhile (a connection the
  // signal aborted) are the interruption, not a harness fault: the pass ends as interrupted,
  // without pass.end, so --resume makes it again.
  const startFailed = (errors: readonly string[], refused: boolean): PassOutcome =>
    end(input.signal?.aborted === true
      ? { passed: false, interrupted: true, steps: [] }
      : { passed: false, interrupted: false, steps: [], error: errors.join('; '), ...(refused ? { refused: true as const } : {}) });

  const arm = parseArm(id.arm);
  // Remote servers the pass runs itself (`{url, start}`) are up before the lane connects.
  await using remote = await startServers(rung, folder.workspace, CONNECT_TIMEOUT_MS, { signal: input.signal, protocol: arm.protocol });
  if (remote.errors.length > 0) return startFailed(remote.errors, remote.refused);
  let lane: Lane;
  try {
    lane = await Lane.connect({
      servers: passServers({ rung, workspace: folder.workspace, seed: id.seed, timeFactor: input.timeFactor, waitCap: arm.cap, ports: remote.ports }),
      arm,
      emit,
      deterministic: (name) => rung.deterministic.includes(name),
      trustServerHints: rung.trustServerHints,
      // Declared, even empty: a server may ask, and what no answer matches is declined.
      elicit: rung.elicit,
      ...callTimeouts(input.timeFactor),
      plainTimeoutMs: plainTimeouts(rung.servers, input.timeFactor),
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      signal: input.signal,
    });
  } catch (error) {
    if (!(error instanceof LaneConfigError)) throw error;
    return end({ passed: false, interrupted: false, steps: [], error: error.message });
  }
  await using _lane = lane;
  if (lane.startErrors.length > 0) return startFailed(lane.startErrors.map((e) => e.message), lane.startErrors.some((e) => e.refusal !== undefined));
  const toolLane: ToolLane = {
    openTurn: async () => {
      const turn = await lane.openTurn();
      input.onTools?.(turn.tools.map((t) => t.name));
      return turn;
    },
    call: async (name, args, at) => {
      const result = await lane.call(name, args, at);
      input.onCall?.(name, result);
      return result;
    },
  };
  const agent = await input.agent({ rung, id, workspace: folder.workspace, oneShot: input.mode === 'oneshot', scrubber });
  const judge = async (step: RungStep, index: number, result: StepResult): Promise<StepOutcome> => {
    const checks = await runChecks(step.checks, {
      // The arguments as the trace records them, so `ladder rescore` judges what the run judged.
      answer: result.answer, calls: result.calls.map((c) => ({ ...c, args: scrubber.deep(c.args) })),
      rounds: result.rounds, toolsOfferedPerRound: result.toolsOfferedPerRound,
      serversConfigured: Object.keys(rung.servers).length, workspace: folder.workspace,
      databasePath: databasePath(rung, folder.workspace),
      prompt: step.prompt, judge: input.judge,
      at: { rung: id.rung, arm: id.arm, pass: id.pass, step: index },
    });
    const passed = stepPassed(result, checks);
    emit({
      type: 'step.end', step: index, passed, reason: result.reason,
      // A check says why exactly when it failed.
      failedChecks: checks.flatMap((c) => (c.why === undefined ? [] : [{ check: c.check, why: c.why }])),
      ...judgedOf(checks),
      rounds: result.rounds, calls: result.calls.length, ms: Math.round(result.ms),
      ...(result.answeredAt === undefined ? {} : { answeredAt: Math.round(result.answeredAt * 1000) / 1000 }),
      error: result.error,
      ...(result.agentStartupMs === undefined ? {} : { agentStartupMs: Math.round(result.agentStartupMs) }),
      // Absent (undefined, left out of the JSON line) for a first step and the built-in loop.
      carried: result.carried,
      ...(result.agentNotes === undefined ? {} : { agentNotes: result.agentNotes.map((note) => scrubber.text(note)) }),
    });
    // Only an errored step has an error line (runStep's contract); an external agent's own
    // failure is said on step.end, and is the agent's, not a harness's or a provider's.
    const error = result.error === undefined || result.reason !== 'errored' ? {} : { error: { line: result.error, cause: result.cause ?? result.error } };
    return { step: index, passed, reason: result.reason, checks, ...error };
  };
  const context = {
    model: agent.model, lane: toolLane, emit, scrubber, signal: input.signal, adaptationsSeen: new Set<string>(),
    clock: () => performance.now() - started,
    sampling: agent.sampling,
  };
  const specs = stepSpecs(rung, input.timeFactor, input.mode, arm);
  const conversation: ChatMessage[] = [];
  const steps: StepOutcome[] = [];
  // An external agent (--agent) runs each step through the pass's gateways instead of the
  // built-in loop; the steps, checks and trace around it are the same.
  // A gateway that cannot start throws ExternalStartError: a harness error of the pass, as the runner records any.
  const external = agent.external === undefined ? undefined : await ExternalSteps.open({
    file: agent.external, lane, model: agent.model, sampling: agent.sampling,
    emit, scrubber, workspace: folder.workspace, scratch: folder.dir, prompts: specs.map((s) => s.prompt),
    signal: input.signal, clock: context.clock,
  });
  await using _external = external;
  for (const spec of specs) {
    emitStart(emit, spec, referenceTools(rung, input.mode, spec.index));
    const result = external === undefined ? await runStep(context, conversation, spec) : await external.runStep(spec);
    if (result.error === 'interrupted') return end({ passed: false, interrupted: true, steps });
    // One-shot: one run of the agent, judged against every step's checks. Each later step gets
    // its step.start just before its step.end, so every step.end in a trace has its start.
    const judged = input.mode === 'oneshot' ? rung.steps.map((_, i) => i) : [spec.index];
    for (const index of judged) {
      if (index !== spec.index) {
        const own = rung.steps[index]!;
        emit({ type: 'step.start', step: index, ceiling: own.ceiling, timeLimitMs: stepTimeLimitMs(own.timeLimitS, input.timeFactor) });
      }
      steps.push(await judge(rung.steps[index]!, index, result));
    }
    if (input.snapshots !== undefined) {
      await keepWorkspace({
        file: snapshotFile(input.snapshots, spec.index), workspace: folder.workspace,
        databasePath: databasePath(rung, folder.workspace), scratch: folder.dir,
      });
    }
  }
  return end({ passed: steps.every((s) => s.passed), interrupted: false, steps });
}

/** The step's judged verdicts for its step.end; nothing when it has no judge check. */
function judgedOf(checks: StepOutcome['checks']): { judged?: JudgedCheck[] } {
  // A verdict bought for this step carries its cost, which the run's spending reads (spend.ts);
  // one served kept has none (undefined is not written).
  const judged = checks.flatMap((c) => (c.judgedBy === undefined ? [] : [{ check: c.check, passed: c.passed, model: c.judgedBy, usd: c.judgeUsd }]));
  return judged.length === 0 ? {} : { judged };
}

function emitStart(emit: Emit, spec: StepSpec, reference: string[]): void {
  emit({ type: 'step.start', step: spec.index, ceiling: spec.ceiling, timeLimitMs: spec.timeLimitMs, reference });
}

/**
 * The tools the reference solution calls in the step the agent runs: its own step's, or under
 * one-shot every step's, in order, since the one run does them all. A one-shot step judged
 * after it records none, so the selection metrics leave it out: it made no call of its own.
 */
export function referenceTools(rung: Rung, mode: 'steps' | 'oneshot', index: number): string[] {
  const steps = mode === 'oneshot' ? rung.steps : [rung.steps[index]!];
  return steps.flatMap((step) => step.reference.calls.map((call) => call.tool));
}

/**
 * Step by step, one spec per step; one-shot, one spec carrying every prompt, ceiling and limit.
 * The arm may set the ceiling and the time limit (`ceiling=x2`), each step's own otherwise.
 */
export function stepSpecs(rung: Rung, timeFactor: number, mode: 'steps' | 'oneshot', arm: Arm = ARM_ON): StepSpec[] {
  const specs = rung.steps.map((step, index): StepSpec => {
    return {
      index, prompt: step.prompt, ceiling: stepValue(arm, 'ceiling', step.ceiling),
      timeLimitMs: stepTimeLimitMs(stepValue(arm, 'timeLimit', step.timeLimitS), timeFactor),
      answerCheck: answerCheckOf(step.checks),
    };
  });
  if (mode === 'steps') return specs;
  const checks = specs.flatMap((s) => (s.answerCheck === undefined ? [] : [s.answerCheck]));
  return [{
    index: 0,
    prompt: oneshotPrompt(specs.map((s) => s.prompt)),
    ceiling: specs.reduce((sum, s) => sum + s.ceiling, 0),
    timeLimitMs: specs.reduce((sum, s) => sum + s.timeLimitMs, 0),
    ...(checks.length === 0 ? {} : { answerCheck: (text: string) => checks.every((check) => check(text)) }),
  }];
}
