// The adapter every synthetic policy shares. It keeps no state between requests: each request
// is answered by replaying the current step from the conversation it carries (the user
// messages say which step, the tool messages what the tools answered), so the same seed and
// the same tool answers always give the same calls, whatever ran before.
import type { Clock } from '../../reliability/clock.ts';
import type { SyntheticPolicy } from '../spec.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, ToolCall } from '../types.ts';
import { draw, strikes } from './chance.ts';
import { follow } from './follow.ts';
import type { Answer, Policy } from './follow.ts';
import type { SyntheticScript } from './script.ts';

/** The usual rule of thumb for English and JSON; the synthetic agents run no tokenizer. */
const BYTES_PER_TOKEN = 4;
/** Width of the seeded offset on token counts: visible in a trace, small beside real counts. */
const TOKEN_JITTER = 64;


/** The answers to the tool calls made since the step's prompt, in the order they were asked. */
function answersSincePrompt(messages: readonly ChatMessage[]): { answers: Answer[]; rounds: number } {
  const start = messages.findLastIndex((m) => m.role === 'user') + 1;
  const since = messages.slice(start);
  const answers: Answer[] = [];
  let rounds = 0;
  for (const message of since) {
    if (message.role !== 'assistant') continue;
    rounds += 1;
    for (const call of message.toolCalls ?? []) {
      const result = since.find((m) => m.role === 'tool' && m.toolCallId === call.id);
      answers.push(result?.role === 'tool' ? { text: result.content, isError: result.isError === true } : { text: '', isError: true });
    }
  }
  return { answers, rounds };
}

function setOptions(options: SamplingOptions | undefined): (keyof SamplingOptions)[] {
  return Object.entries(options ?? {}).filter(([, v]) => v !== undefined).map(([k]) => k as keyof SamplingOptions);
}

export class SyntheticModel implements ModelAdapter {
  readonly spec: string;
  readonly provider = 'synthetic' as const;
  readonly model: SyntheticPolicy;
  readonly #policy: Policy;
  readonly #script: SyntheticScript;
  readonly #seed: number;
  readonly #now: Clock;
  readonly #workspace: string | undefined;
  /** The probability per decision that the policy's pathology strikes. */
  readonly p: number;

  constructor(policy: Policy, script: SyntheticScript, seed: number, now: Clock = () => performance.now(), workspace?: string, p = policy.p) {
    this.spec = `synthetic:${policy.name}`;
    this.p = p;
    this.model = policy.name;
    this.#policy = policy;
    this.#script = script;
    this.#seed = seed;
    this.#now = now;
    this.#workspace = workspace;
  }

  /**
   * UTF-8 bytes of a value's JSON as the token estimate counts them: the workspace path as the
   * token `{workspace}`, and every number as one digit. A tool that reads a clock (a job's
   * `elapsedMs`) answers with other numbers each run; counted by their width, they made two
   * runs of the same seed, or a run and its resumed passes, report different token totals.
   */
  #bytes(value: unknown): number {
    let json = JSON.stringify(value);
    const workspace = this.#workspace === undefined ? '' : JSON.stringify(this.#workspace).slice(1, -1);
    if (workspace !== '') json = json.replaceAll(workspace, '{workspace}');
    return Buffer.byteLength(json.replace(/\d+/g, '0'));
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    const started = this.#now();
    const stepIndex = request.messages.filter((m) => m.role === 'user').length - 1;
    const step = this.#script.steps[stepIndex];
    if (step === undefined) {
      // The runner sent more prompts than the script has steps (or none): a bug, said plainly.
      throw new Error(`${this.spec}: request has ${stepIndex + 1} user messages, the script has ${this.#script.steps.length} steps`);
    }
    const { answers, rounds } = answersSincePrompt(request.messages);
    const steps = follow(this.#policy, step, new Set(request.tools.map((t) => t.name)),
      (call) => strikes(this.#seed, stepIndex, call, this.p));
    let next = steps.next();
    for (const answer of answers) {
      if (next.done === true) break;
      next = steps.next(answer);
    }
    const asked = request.messages.filter((m) => m.role === 'assistant').length;
    const toolCalls: ToolCall[] = next.done === true ? [] : [{ id: `synthetic_${asked + 1}`, name: next.value.tool, args: next.value.args }];
    const text = next.done === true ? step.answer : '';
    const jitter = (salt: number): number => draw(this.#seed, stepIndex, rounds, salt) % TOKEN_JITTER;
    const inBytes = this.#bytes(request.messages) + this.#bytes(request.tools);
    const outBytes = this.#bytes(text) + this.#bytes(toolCalls);
    return {
      text,
      toolCalls,
      usage: {
        inputTokens: Math.ceil(inBytes / BYTES_PER_TOKEN) + jitter(1),
        outputTokens: Math.ceil(outBytes / BYTES_PER_TOKEN) + jitter(2),
      },
      latencyMs: this.#now() - started,
      attempts: 1,
      retryWaitMs: 0,
      stopReason: toolCalls.length > 0 ? 'tool_calls' : 'end',
      providerStopReason: null,
      ignoredOptions: setOptions(request.options),
      details: { provider: 'synthetic', policy: this.#policy.name, seed: this.#seed },
    };
  }
}
