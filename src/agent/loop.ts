// The agent loop: one step is one lane turn. Rounds run (model request, then the tool calls it
// asked for, through the lane, in order) until the model answers without tool calls, the
// step's tool-call ceiling is spent, its time limit passes, or the provider keeps failing.
// There is no round cap on purpose: every round but the last makes at least one call, so the
// ceiling already bounds the rounds (the fix in docs/incidents.md, "A dead tool called six times
// in one turn", declined a round cap for the same reason).
import type { Lane } from '../lane/index.ts';
import { assistantMessage } from '../models/index.ts';
import { ProviderError } from '../models/retry.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, ToolSpec } from '../models/types.ts';
import type { Emit, Scrubber, StepEndReason } from '../trace/index.ts';
import { addMessage, failedResponseEvent, newAdaptations, requestEvent, responseEvent } from './events.ts';
import { StepLimits, StepStopped } from './limits.ts';
import { runCalls } from './calls.ts';
import type { StepCallRecord } from './calls.ts';

export type { StepCallRecord } from './calls.ts';

/** The part of the lane the loop uses. */
export type ToolLane = Pick<Lane, 'openTurn' | 'call'>;

export interface StepSpec {
  /** 0-based step index (the lane's turn is opened by runStep). */
  index: number;
  prompt: string;
  /** Tool calls allowed in the step. */
  ceiling: number;
  timeLimitMs: number;
  /** True when a response text would already pass the step's answer checks (for answeredAt). */
  answerCheck?: (text: string) => boolean;
}

export type { StepEndReason } from '../trace/index.ts';

export interface StepResult {
  reason: StepEndReason;
  /** Text of the last model response ('' if none). */
  answer: string;
  /** Model requests made. */
  rounds: number;
  /** Every tool call made (at most `ceiling`), in order, with the lane's outcome. */
  calls: StepCallRecord[];
  toolsOfferedPerRound: number[];
  /** clock() at the first response whose text passed answerCheck. */
  answeredAt?: number;
  /** One line, when reason is 'errored'. */
  error?: string;
  /** When reason is 'errored': what failed in a few words (`connection refused`), for progress lines and grouping. */
  cause?: string;
  /** An external agent's start-up within the step, when it was measured. */
  agentStartupMs?: number;
  /** An external agent's step after the first: whether its first model request carried the earlier steps (src/trace/continuity.ts). */
  carried?: boolean;
  /** What an external agent said beside its answer (stderr warnings, ACP notices and updates). */
  agentNotes?: string[];
  ms: number;
}

export interface AgentContext {
  model: ModelAdapter;
  lane: ToolLane;
  /** The loop emits message, model.request and model.response. */
  emit: Emit;
  /** What the trace scrubs (secrets, the workspace path): request hashes are of the scrubbed request. */
  scrubber?: Scrubber;
  /** Adaptations already recorded in this pass (keep one set per pass; see newAdaptations). */
  adaptationsSeen?: Set<string>;
  sampling?: SamplingOptions;
  /** Optional system prompt, added once at the start of the conversation. */
  system?: string;
  /** ms since pass start, for answeredAt; default performance.now based. */
  clock?: () => number;
  /** Ctrl-C: abort in-flight work, end the step as errored('interrupted'). */
  signal?: AbortSignal;
}

function checkStep(step: StepSpec): void {
  if (!Number.isInteger(step.ceiling) || step.ceiling < 0) {
    throw new RangeError(`step ${step.index}: ceiling must be an integer >= 0, got ${step.ceiling}`);
  }
  if (!(step.timeLimitMs > 0) || !Number.isFinite(step.timeLimitMs)) {
    throw new RangeError(`step ${step.index}: timeLimitMs must be a finite number > 0, got ${step.timeLimitMs}`);
  }
}

/**
 * One model request, its events, and a failure turned into what ends the step. The response's
 * assistant message is added to the conversation here, right after its event.
 */
async function ask(
  ctx: AgentContext, limits: StepLimits, conversation: ChatMessage[], step: number, round: number, request: ModelRequest,
): Promise<ModelResponse> {
  const started = performance.now();
  ctx.emit(requestEvent(ctx.model, step, round, request, ctx.scrubber));
  try {
    const response = await limits.race(ctx.model.complete(request, limits.signal));
    const message = assistantMessage(response);
    ctx.emit(responseEvent(step, round, response, message, newAdaptations(ctx.adaptationsSeen ?? new Set(), response.adaptations)));
    conversation.push(message);
    return response;
  } catch (error) {
    const attempts = error instanceof ProviderError ? error.attempts : 1;
    const type = error instanceof StepStopped ? error.why : error instanceof ProviderError ? error.kind : (error as Error)?.name ?? 'Error';
    ctx.emit(failedResponseEvent(step, round, performance.now() - started, attempts, type));
    throw error;
  }
}

/** Runs one step as one lane turn, appending every message to `conversation`. */
export async function runStep(ctx: AgentContext, conversation: ChatMessage[], step: StepSpec): Promise<StepResult> {
  checkStep(step);
  const started = performance.now();
  const clock = ctx.clock ?? (() => performance.now());
  const limits = new StepLimits(step.timeLimitMs, ctx.signal);
  const calls: StepCallRecord[] = [];
  const toolsOfferedPerRound: number[] = [];
  let rounds = 0;
  let answer = '';
  let answeredAt: number | undefined;
  const end = (reason: StepEndReason, error?: string, cause = error): StepResult => ({
    reason, answer, rounds, calls, toolsOfferedPerRound,
    ...(answeredAt === undefined ? {} : { answeredAt }),
    ...(error === undefined ? {} : { error }),
    ...(cause === undefined ? {} : { cause }),
    ms: performance.now() - started,
  });

  try {
    const add = (message: ChatMessage): void => addMessage(conversation, ctx.emit, step.index, message);
    if (ctx.system !== undefined && conversation.length === 0) add({ role: 'system', content: ctx.system });
    // The prompt goes in first, so a step cut short while its turn opens still counts as a step.
    add({ role: 'user', content: step.prompt });
    const turn = await limits.race(ctx.lane.openTurn());
    const tools: ToolSpec[] = turn.tools;
    for (;;) {
      rounds += 1;
      toolsOfferedPerRound.push(tools.length);
      const request: ModelRequest = { messages: [...conversation], tools, ...(ctx.sampling ? { options: ctx.sampling } : {}) };
      const response = await ask(ctx, limits, conversation, step.index, rounds, request);
      answer = response.text;
      if (answeredAt === undefined && step.answerCheck?.(response.text) === true) answeredAt = clock();
      if (response.toolCalls.length === 0) return end('answered');
      const spent = await runCalls({ lane: ctx.lane, limits, round: rounds, ceiling: step.ceiling, calls, add }, response.toolCalls);
      if (spent) return end('ceiling');
    }
  } catch (error) {
    if (error instanceof StepStopped) return error.why === 'time_limit' ? end('time_limit') : end('errored', 'interrupted');
    if (error instanceof ProviderError) return end('errored', error.message, error.detail);
    throw error;
  } finally {
    limits[Symbol.dispose]();
  }
}
