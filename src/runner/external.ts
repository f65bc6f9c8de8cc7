// A pass run by an external agent (`ladder run --agent`): the agent is pointed at two gateways
// the pass serves on 127.0.0.1, each with the pass's own token, and Ladder stays in the middle
// of everything it measures (docs/agent.md):
// - the MCP gateway serves the pass's lane, one step a turn (src/gateway/mcp/step.ts), so the
//   arm's mechanisms apply and tools.list and tool.call are recorded as in the built-in loop;
// - the model gateway answers the agent's model requests through the run's model adapter (a
//   provider, a synthetic policy, a replay), recorded as model.request, model.response and
//   message, so tokens, cost and --max-cost count as they do for the built-in loop.
// The real provider key stays here: the agent's API key is the pass token.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { StepResult, StepSpec } from '../agent/index.ts';
import { addMessage, failedResponseEvent, requestEvent, responseEvent } from '../agent/events.ts';
import { StepLimits } from '../agent/limits.ts';
import type { AgentFile, AgentPassValues, AgentSession } from '../agents/index.ts';
import { STARTUP_ALLOWANCE_MS, startupMs, stepDeadline } from '../agents/startup.ts';
import type { StartupMarks } from '../agents/startup.ts';
import { gatewayServer } from '../gateway/mcp/server.ts';
import { serveGatewayHttp } from '../gateway/mcp/http.ts';
import type { GatewayHttp } from '../gateway/mcp/http.ts';
import { StepGateway } from '../gateway/mcp/step.ts';
import type { StepLane } from '../gateway/mcp/step.ts';
import { startModelGateway } from '../gateway/model/index.ts';
import type { GatewayRequest, ModelGateway } from '../gateway/model/index.ts';
import { assistantMessage } from '../models/index.ts';
import { PACKAGE_ROOT } from '../lane/index.ts';
import { REPLAY_DIVERGED, ReplayModel } from '../models/replay.ts';
import { ProviderError } from '../models/retry.ts';
import type { ChatMessage, ModelAdapter, ModelResponse, SamplingOptions } from '../models/types.ts';
import { carriedOver, earlierStep } from '../trace/index.ts';
import type { EarlierStep, Emit, Scrubber } from '../trace/index.ts';
import { gatewayNames, syntheticView } from './externalNames.ts';
import type { NameMap } from './externalNames.ts';

export interface ExternalPassInput {
  file: AgentFile;
  lane: StepLane;
  model: ModelAdapter;
  sampling?: SamplingOptions | undefined;
  emit: Emit;
  scrubber: Scrubber;
  workspace: string;
  /** The pass's scratch folder (removed with the pass): the agent's home goes in it. */
  scratch: string;
  /** Every step's prompt, in order: a synthetic policy reads its step from them. */
  prompts: readonly string[];
  signal?: AbortSignal | undefined;
  /** ms since the pass started, for answeredAt. */
  clock: () => number;
}

interface OpenStep {
  spec: StepSpec;
  limits: StepLimits;
  /** performance.now() when the step started; the start-up marks are ms after it. */
  startedAt: number;
  marks: StartupMarks;
  rounds: number;
  toolsOfferedPerRound: number[];
  answeredAt?: number;
  /** ms of start-up not charged to the time limit, at most (the agent file's, else STARTUP_ALLOWANCE_MS). */
  allowanceMs: number;
  /** The step's last request's messages, once it made one: what it put into the conversation. */
  last?: readonly ChatMessage[];
  /** Whether the step's first request carried the earlier steps; unread on the first step. */
  carried?: boolean;
  /** A provider failure that persisted: the step ends errored, as in the built-in loop. */
  providerError?: ProviderError;
  ownCalls: number;
}

/** Ladder's own failure before the agent ran (a gateway that could not start): the pass errors. */
export class ExternalStartError extends Error {
  override readonly name = 'ExternalStartError';
}

export class ExternalSteps implements AsyncDisposable {
  readonly #input: ExternalPassInput;
  readonly #gateway: StepGateway;
  #mcp: GatewayHttp | undefined;
  #models: ModelGateway | undefined;
  #session: AgentSession | undefined;
  #step: OpenStep | undefined;
  /**
   * The conversation as recorded so far in the pass (the last request's messages and its
   * answer), so each request records only what it adds to it: a step's too, when the agent
   * goes on from the last step's conversation.
   */
  #recorded: ChatMessage[] = [];
  /** What each earlier step that asked the model put into the conversation, for the continuity reading. */
  readonly #earlier: EarlierStep[] = [];
  /** What the agent's failure of a step said, for the pass's record. */
  readonly notes: string[] = [];

  private constructor(input: ExternalPassInput) {
    this.#input = input;
    this.#gateway = new StepGateway(input.lane);
  }

  static async open(input: ExternalPassInput): Promise<ExternalSteps> {
    const steps = new ExternalSteps(input);
    try {
      await steps.#start();
    } catch (error) {
      await steps.close();
      throw new ExternalStartError(`agent ${input.file.name}: the gateways did not start: ${(error as Error).message}`);
    }
    return steps;
  }

  async #start(): Promise<void> {
    const token = randomBytes(24).toString('base64url');
    const gateway = this.#gateway;
    this.#mcp = await serveGatewayHttp({ newServer: () => gatewayServer({ backend: gateway }), token });
    this.#models = await startModelGateway({ token, answer: (request, options) => this.#answer(request, options.signal) });
    const home = join(this.#input.scratch, 'home');
    await mkdir(home, { recursive: true });
    this.#values = {
      workspace: this.#input.workspace, home, model: this.#input.model.model, mcpUrl: this.#mcp.url, mcpToken: token,
      openaiBaseUrl: this.#models.openaiBaseUrl, anthropicBaseUrl: this.#models.anthropicBaseUrl, geminiBaseUrl: this.#models.geminiBaseUrl, apiKey: token,
      // For an ACP agent that takes only stdio MCP servers: the bridge, with the token in its env.
      mcpStdio: { command: process.execPath, args: [join(PACKAGE_ROOT, 'bin', 'ladder.js'), 'gateway', 'bridge', '--url', this.#mcp.url] },
    };
  }

  #values: AgentPassValues | undefined;

  /** Runs one step: the agent gets the prompt; the step ends when it answers, fails or runs out. */
  async runStep(spec: StepSpec): Promise<StepResult> {
    const started = performance.now();
    const limits = new StepLimits(spec.timeLimitMs, this.#input.signal);
    const allowanceMs = this.#input.file.startupAllowance === undefined ? STARTUP_ALLOWANCE_MS : this.#input.file.startupAllowance * 1000;
    const step: OpenStep = { spec, limits, startedAt: started, marks: {}, allowanceMs, rounds: 0, toolsOfferedPerRound: [], ownCalls: 0 };
    // The limit leaves the agent's start-up out, up to the allowance: moved when the agent starts
    // and again when its first model request arrives (#answer).
    const onSpawn = (at: number): void => {
      step.marks.spawnedAt = at - started;
      this.#moveDeadline(step);
    };
    try {
      await limits.race(this.#gateway.openStep({ index: spec.index, ceiling: spec.ceiling, signal: limits.signal }));
      this.#step = step;
      // An ACP agent's session opens with the first step, once the first turn's tools are fixed.
      // Loaded with the first external step: the drivers bring the ACP SDK.
      this.#session ??= await (await import('../agents/index.ts')).startAgentSession(this.#input.file, this.#values!);
      const result = await this.#session.runStep(spec.prompt, { timeLimitMs: spec.timeLimitMs, signal: limits.signal, timeUp: limits.timeUp, onSpawn });
      const { calls, ceilingReached } = await this.#gateway.endStep();
      this.#step = undefined;
      const agentStartupMs = startupMs(step.marks, performance.now() - started);
      const end = (reason: StepResult['reason'], error?: string): StepResult => ({
        reason, answer: result.answer, rounds: step.rounds, calls, toolsOfferedPerRound: step.toolsOfferedPerRound,
        ...(step.answeredAt === undefined ? {} : { answeredAt: step.answeredAt }),
        ...(error === undefined ? {} : { error, cause: error }),
        ...(agentStartupMs === undefined ? {} : { agentStartupMs }),
        ...(step.carried === undefined ? {} : { carried: step.carried }),
        ...(result.notes.length === 0 ? {} : { agentNotes: result.notes }),
        ms: performance.now() - started,
      });
      this.notes.push(...result.notes);
      if (limits.stopped === 'interrupted') return end('errored', 'interrupted');
      if (step.providerError !== undefined) return { ...end('errored', step.providerError.message), cause: step.providerError.detail };
      if (result.timedOut || limits.stopped === 'time_limit') return end('time_limit');
      if (ceilingReached) return end('ceiling');
      if (result.stoppedItself !== undefined) return end('agent_stopped', result.stoppedItself);
      if (result.failure !== undefined) return end('agent_failed', result.failure);
      return end('answered');
    } catch (error) {
      const { calls } = await this.#gateway.endStep();
      this.#step = undefined;
      if (limits.stopped === undefined) throw error;
      const agentStartupMs = startupMs(step.marks, performance.now() - started);
      return {
        reason: limits.stopped === 'interrupted' ? 'errored' : 'time_limit', answer: '', rounds: step.rounds, calls,
        toolsOfferedPerRound: step.toolsOfferedPerRound,
        ...(limits.stopped === 'interrupted' ? { error: 'interrupted', cause: 'interrupted' } : {}),
        ...(agentStartupMs === undefined ? {} : { agentStartupMs }),
        ...(step.carried === undefined ? {} : { carried: step.carried }),
        ms: performance.now() - started,
      };
    } finally {
      limits[Symbol.dispose]();
      const put = earlierStep(spec.prompt, step.last);
      if (put !== undefined) this.#earlier.push(put);
    }
  }

  /** One model request from the agent, answered by the run's model and recorded. */
  async #answer(wire: GatewayRequest, agentSignal: AbortSignal): Promise<ModelResponse> {
    const step = this.#step;
    if (step === undefined) {
      throw new Error('no step is open: the agent asked the model between steps');
    }
    if (step.marks.firstRequestAt === undefined) {
      step.marks.firstRequestAt = performance.now() - step.startedAt;
      this.#moveDeadline(step);
    }
    const { model, emit, scrubber } = this.#input;
    const index = step.spec.index;
    step.rounds += 1;
    const round = step.rounds;
    const names: NameMap = gatewayNames(wire.request.tools.map((t) => t.name), (await this.#gateway.tools()).map((t) => t.name));
    step.toolsOfferedPerRound.push(names.toGateway.size);
    // What the agent sent, recorded as the conversation: each request adds what is new since
    // the last request of the pass. A request that does not go on from it (an agent started
    // again for a step, or history re-sent changed) is recorded whole and marked `restart`, so
    // the conversation rebuilt from the trace is the one sent (src/trace/conversation.ts).
    const messages = wire.request.messages;
    const goesOn = this.#recorded.length <= messages.length
      && JSON.stringify(messages.slice(0, this.#recorded.length)) === JSON.stringify(this.#recorded);
    const fresh = goesOn ? messages.slice(this.#recorded.length) : messages;
    for (const message of fresh) addMessage([], emit, index, message);
    this.#recorded = [...messages];
    step.last = messages;
    if (round === 1 && this.#earlier.length > 0) step.carried = carriedOver(this.#earlier, messages).carried;
    const gatewayTools = (await this.#gateway.tools()).map((t) => t.name);
    const at = { step: index, round, gatewayTools, prompt: step.spec.prompt };
    // A synthetic policy reads its step from the conversation; a replay of one answers as recorded.
    const synthetic = model.provider === 'synthetic' && !(model instanceof ReplayModel);
    const request = synthetic
      ? syntheticView(wire.request, this.#input.prompts.slice(0, index + 1), names, (id) => this.#gateway.resultFor(id))
      : { ...wire.request, ...(this.#input.sampling === undefined ? {} : { options: this.#input.sampling }), at };
    const started = performance.now();
    emit({ ...requestEvent(model, index, round, wire.request, scrubber), wire: wire.format, ...(goesOn ? {} : { restart: true as const }) });
    let response: ModelResponse;
    try {
      // A replay that diverged stays diverged: a request after it (a client's retry, the agent
      // going on) gets the first divergence again, which is the one the step's error names.
      const diverged = step.providerError?.kind === REPLAY_DIVERGED ? step.providerError : undefined;
      if (diverged !== undefined) throw diverged;
      response = await step.limits.race(model.complete(request, AbortSignal.any([step.limits.signal, agentSignal])));
    } catch (error) {
      const type = error instanceof ProviderError ? error.kind : step.limits.stopped ?? (error as Error).name;
      emit(failedResponseEvent(index, round, performance.now() - started, error instanceof ProviderError ? error.attempts : 1, type));
      // The first failure is the step's: a later one is a consequence of it.
      if (error instanceof ProviderError) step.providerError ??= error;
      throw error;
    }
    if (synthetic) {
      // A policy numbers its calls within the step it reads (synthetic_1, ...); an agent that keeps
      // one conversation a pass needs them unique in the pass, or a later step's call reads as an
      // earlier one's (Claude Code, over exec and through Zed's ACP adapter, then sent its result
      // as "(no content)" and the policy asked the same call until the step's limit).
      response = { ...response, toolCalls: response.toolCalls.map((call) => ({ ...call, id: `${call.id}_step${index + 1}`, name: names.toAgent.get(call.name) ?? call.name })) };
    }
    const message = assistantMessage(response);
    const event = responseEvent(index, round, response, message);
    const own = response.toolCalls.filter((call) => !names.toGateway.has(call.name));
    step.ownCalls += own.length;
    emit({
      ...event,
      toolCalls: event.toolCalls.map((call, i) => (names.toGateway.has(response.toolCalls[i]!.name) ? call : { ...call, own: true })),
    });
    this.#recorded.push(message);
    if (step.answeredAt === undefined && step.spec.answerCheck?.(response.text) === true) step.answeredAt = this.#input.clock();
    this.#gateway.setRound(round, response.toolCalls.flatMap((call) => {
      const tool = names.toGateway.get(call.name);
      return tool === undefined ? [] : [{ id: call.id, tool, args: call.args }];
    }));
    return response;
  }

  /** The step's time limit, with the start-up credit it has earned so far. */
  #moveDeadline(step: OpenStep): void {
    step.limits.moveDeadline(stepDeadline(step.spec.timeLimitMs, step.allowanceMs, step.marks));
  }

  async close(): Promise<void> {
    await this.#session?.close();
    await this.#models?.close();
    await this.#mcp?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
