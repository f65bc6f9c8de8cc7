// `ladder run --replay <run>`: a model that answers with the responses a recorded pass got,
// never with a provider's. Each request is matched to the recorded one by its step and round
// and checked against the recorded request's hash; a request the recording does not have, or
// one that differs, fails the step as `replay_diverged`, naming the first message that
// differs, instead of being answered by anything live.
import { canonicalJson } from '../reliability/callKey.ts';
import { maskNumbers, requestHash } from '../trace/index.ts';
import type { ModelResponse as ResponseEvent, RebuiltRequest, Scrubber } from '../trace/index.ts';
import { externalDifference } from './replayExternal.ts';
import { ProviderError } from './retry.ts';
import type { Adaptation, ChatMessage, ModelAdapter, ModelRequest, ModelResponse, Provider, StopReason, ToolCall } from './types.ts';

/** One request of the recorded pass and what answered it. */
export interface RecordedExchange {
  request: RebuiltRequest;
  response: ResponseEvent;
  /** The recorded step's `error` line, for a provider failure replayed as such. */
  stepError?: string;
}

export interface ReplayOptions {
  /** The recorded model, e.g. `openai:gpt-4o-mini`: what the replay answers as. */
  spec: string;
  provider: string;
  model: string;
  /** The recorded pass's exchanges by `step/round`. */
  exchanges: ReadonlyMap<string, RecordedExchange>;
  /** The replaying pass's scrubber: its requests are hashed as the recording's were. */
  scrubber?: Scrubber;
  /** Names the recorded pass in messages: `results/x: rung on pass 2`. */
  source: string;
  /** Why the recording has nothing for this pass (no such pass, a damaged trace). */
  missing?: string;
}

export const REPLAY_DIVERGED = 'replay_diverged';

/** A step's error line that says a replay diverged (the words ReplayModel.complete writes). */
export function isReplayDivergence(line: string): boolean {
  return line.startsWith('replay of ') && line.includes(' diverged at step ');
}
const QUOTE_CHARS = 60; // enough either side of a difference to recognise the text

/** Step and round of a request, as the agent loop numbers them: from its own messages. */
export function stepAndRound(messages: readonly ChatMessage[]): { step: number; round: number } {
  const users = messages.filter((m) => m.role === 'user').length;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const answered = messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
  return { step: Math.max(users - 1, 0), round: answered + 1 };
}

/** A message as the request hash sees it: scrubbed, numbers of a tool result masked. */
function comparable(message: unknown, scrubber: Scrubber | undefined): Record<string, unknown> {
  const scrubbed = (scrubber === undefined ? message : scrubber.deep(message)) as Record<string, unknown>;
  return scrubbed['role'] === 'tool' && typeof scrubbed['content'] === 'string' ? { ...scrubbed, content: maskNumbers(scrubbed['content']) } : scrubbed;
}

/** Where two messages differ: in their text when only that differs, else in their JSON. */
function messageDifference(was: Record<string, unknown>, is: Record<string, unknown>): string | undefined {
  const whole = [canonicalJson(was), canonicalJson(is)] as const;
  if (whole[0] === whole[1]) return undefined;
  const a = was['content'];
  const b = is['content'];
  if (typeof a === 'string' && typeof b === 'string' && canonicalJson({ ...was, content: '' }) === canonicalJson({ ...is, content: '' })) {
    return around(a, b);
  }
  return around(...whole);
}

/** The two texts around their first difference. */
function around(recorded: string, now: string): string {
  // The texts differ (every caller compared them first), so the comparison alone stops by the
  // end of the shorter; the bound is there so a text compared with itself cannot loop forever.
  let i = 0;
  while (i < recorded.length && recorded[i] === now[i]) i += 1;
  const from = Math.max(0, i - QUOTE_CHARS / 2);
  const cut = (text: string): string => `${from > 0 ? '...' : ''}${text.slice(from, i + QUOTE_CHARS / 2)}${text.length > i + QUOTE_CHARS / 2 ? '...' : ''}`;
  return `recorded ${JSON.stringify(cut(recorded))}, now ${JSON.stringify(cut(now))}`;
}

function describe(message: unknown, index: number): string {
  const m = message as { role?: string; toolName?: string };
  return `message ${index + 1} (${m.role ?? '?'}${m.toolName === undefined ? '' : ` ${m.toolName}`})`;
}

/** The first thing that differs between the recorded request and the one the harness sends now. */
export function firstDifference(recorded: RebuiltRequest, now: ModelRequest, scrubber?: Scrubber): string {
  if (!recorded.complete) return 'the request hash differs (the recording holds no content to show which message)';
  const count = Math.max(recorded.messages.length, now.messages.length);
  for (let i = 0; i < count; i += 1) {
    const was = recorded.messages[i];
    const is = now.messages[i];
    if (was === undefined) return `${describe(is, i)} is new: the recorded request had ${recorded.messages.length} messages`;
    if (is === undefined) return `${describe(was, i)} is missing: the request now has ${now.messages.length} messages`;
    const differs = messageDifference(comparable(was, scrubber), comparable(is, scrubber));
    if (differs !== undefined) return `${describe(is, i)} differs: ${differs}`;
  }
  const tools = (list: readonly unknown[]): string => canonicalJson(scrubber === undefined ? list : scrubber.deep(list));
  if (tools(recorded.tools) !== tools(now.tools)) return `the tools offered differ: ${around(tools(recorded.tools), tools(now.tools))}`;
  return `the sampling options differ: recorded ${canonicalJson(recorded.options ?? {})}, now ${canonicalJson(now.options ?? {})}`;
}

/** The recorded finish reasons a replay gives back as they are; any other is `other`. */
const STOP_REASONS: readonly StopReason[] = ['end', 'tool_calls', 'max_tokens', 'refusal'];

export class ReplayModel implements ModelAdapter {
  readonly spec: string;
  readonly provider: Provider;
  readonly model: string;
  readonly #options: ReplayOptions;

  constructor(options: ReplayOptions) {
    this.spec = options.spec;
    // The recorded provider's name, so the replay's trace reads as the recording's does.
    this.provider = options.provider as Provider;
    this.model = options.model;
    this.#options = options;
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    const started = performance.now();
    // An external agent's request says where it stands; the loop's own conversation says it.
    const { step, round } = request.at ?? stepAndRound(request.messages);
    const where = `replay of ${this.#options.source} diverged at step ${step} round ${round}`;
    const recorded = this.#options.exchanges.get(`${step}/${round}`);
    if (recorded === undefined) {
      const why = this.#options.missing ?? 'the recorded pass made no such request';
      throw new ProviderError(`${where}: ${why}`, REPLAY_DIVERGED, undefined, 1);
    }
    if (request.at !== undefined) {
      const differs = externalDifference(recorded.request, request, this.#options.scrubber);
      if (differs !== undefined) throw new ProviderError(`${where}: ${differs}`, REPLAY_DIVERGED, undefined, 1);
    } else if (recorded.request.hash !== requestHash(request, this.#options.scrubber)) {
      throw new ProviderError(`${where}: ${firstDifference(recorded.request, request, this.#options.scrubber)}`, REPLAY_DIVERGED, undefined, 1);
    }
    const event = recorded.response;
    const failure = event['error.type'];
    if ((failure === 'time_limit' || failure === 'interrupted') && signal !== undefined) {
      // The recorded step ran out of time waiting for the model: so does this one, on its own
      // limit (a request with no limit to wait for fails at once, as recorded).
      await new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    }
    if (failure !== undefined) {
      throw new ProviderError(recorded.stepError ?? `the recorded provider failed here (${failure})`, failure as ProviderError['kind'], undefined, event.attempts);
    }
    const message = event.message!;
    const finish = event['gen_ai.response.finish_reasons'][0];
    return {
      text: message.content,
      toolCalls: (message.toolCalls ?? []) as readonly ToolCall[],
      usage: {
        inputTokens: event['gen_ai.usage.input_tokens'], outputTokens: event['gen_ai.usage.output_tokens'],
        ...(event['gen_ai.usage.cache_read.input_tokens'] === undefined ? {} : { cacheReadTokens: event['gen_ai.usage.cache_read.input_tokens'] }),
        ...(event['gen_ai.usage.cache_creation.input_tokens'] === undefined ? {} : { cacheWriteTokens: event['gen_ai.usage.cache_creation.input_tokens'] }),
      },
      latencyMs: performance.now() - started,
      attempts: event.attempts,
      retryWaitMs: 0,
      stopReason: STOP_REASONS.find((reason) => reason === finish) ?? 'other',
      providerStopReason: null,
      ignoredOptions: [],
      details: { provider: 'replay', source: this.#options.source },
      // What the recorded turn carried besides text and calls, so it goes back into the
      // conversation exactly as it did.
      ...(message.thinking === undefined ? {} : { thinking: message.thinking }),
      ...(message.refusal === undefined ? {} : { refusal: message.refusal }),
      // As recorded (each once per pass), so the replay's trace notes them where the recording did.
      ...(event.adaptations === undefined ? {} : { adaptations: event.adaptations as unknown as readonly Adaptation[] }),
    };
  }
}
