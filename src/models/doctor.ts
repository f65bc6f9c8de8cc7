// `ladder doctor`: one model, end to end, in three requests, sent as a run sends them (the same
// adapter settings, the same sampling options). It answers; offered one tool it calls it; and
// its provider accepts the tool result back with the call's id, which is the part of a
// multi-round conversation most likely to be wrong on a new endpoint. The tool is of the kinds
// providers refuse as MCP servers list them (a name over 64 characters, a top-level union with
// no properties), so the check covers what the adapter does about them.
import { ModelConfigError } from './call.ts';
import { assistantMessage } from './index.ts';
import { ProviderError } from './retry.ts';
import { passSampling } from './settings.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, ToolSpec } from './types.ts';

export interface DoctorResult {
  readonly ok: boolean;
  /** The one-line verdict, starting with OK or FAIL. */
  readonly line: string;
  readonly requests: number;
}

export const ECHO_TOOL: ToolSpec = {
  name: 'ladder-doctor__echo_the_given_text_back_unchanged_so_the_round_trip_is_checked',
  description: 'Returns the given text unchanged.',
  inputSchema: {
    type: 'object',
    anyOf: [
      { properties: { text: { type: 'string', description: 'The text to return' } }, required: ['text'] },
      { properties: { message: { type: 'string', description: 'The text to return, under its older name' } }, required: ['message'] },
    ],
  },
};

/** The seed of every doctor request: a run's requests carry their pass's seed the same way. */
export const DOCTOR_SEED = 1;

const ASK_ANSWER = 'Reply with one word: ready.';
const ASK_TOOL = 'Call the one tool you are offered, with the text "ping". Do not answer in prose.';

// Quoted replies are cut so a chatty model cannot turn the verdict into a paragraph.
const QUOTE_CHARS = 60;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat);
}

function summary(responses: readonly ModelResponse[]): string {
  const seconds = (responses.reduce((t, r) => t + r.latencyMs, 0) / 1000).toFixed(1);
  const inTokens = responses.map((r) => r.usage.inputTokens);
  const outTokens = responses.map((r) => r.usage.outputTokens);
  const known = [...inTokens, ...outTokens].every((n) => n !== null);
  const sum = (ns: (number | null)[]) => ns.reduce<number>((t, n) => t + (n ?? 0), 0);
  const tokens = known ? `${sum(inTokens)} tokens in, ${sum(outTokens)} out` : 'tokens not reported';
  return `${responses.length} requests, ${seconds} s, ${tokens}`;
}

/** Errors a user can cause are one line already (ProviderError, ModelConfigError); bugs keep their stack. */
function failure(err: unknown, requests: number, stage: string): DoctorResult {
  if (!(err instanceof ProviderError || err instanceof ModelConfigError)) throw err;
  return { ok: false, line: `FAIL ${err.message} (request ${requests} of 3${stage})`, requests };
}

/** What the adapter did about the tool, in words for the OK line. */
function adapted(responses: readonly ModelResponse[]): string {
  const kinds = new Set(responses.flatMap((r) => (r.adaptations ?? []).filter((a) => 'tool' in a && a.tool === ECHO_TOOL.name).map((a) => a.kind)));
  const words = [
    ...(kinds.has('name') ? [`its ${ECHO_TOOL.name.length}-character name shortened`] : []),
    ...(kinds.has('schema') ? ['its union schema flattened'] : []),
  ];
  return words.length > 0 ? ` (${words.join(', ')})` : '';
}

/**
 * The doctor's first request alone: the model can be reached and answers. `ladder run` makes it
 * before its first pass, so a stopped Ollama or a wrong key costs seconds, not a run of errors.
 */
export async function reachModel(
  model: ModelAdapter,
  signal?: AbortSignal,
  sampling: SamplingOptions = passSampling(DOCTOR_SEED),
): Promise<{ ok: true; response: ModelResponse } | { ok: false; error: ProviderError | ModelConfigError }> {
  try {
    return { ok: true, response: await model.complete({ messages: [{ role: 'user', content: ASK_ANSWER }], tools: [], options: sampling }, signal) };
  } catch (err) {
    if (!(err instanceof ProviderError || err instanceof ModelConfigError)) throw err;
    return { ok: false, error: err };
  }
}

export async function checkModel(model: ModelAdapter, signal?: AbortSignal, sampling: SamplingOptions = passSampling(DOCTOR_SEED)): Promise<DoctorResult> {
  const done: ModelResponse[] = [];
  const fail = (why: string): DoctorResult => ({ ok: false, line: `FAIL ${model.spec}: ${why}`, requests: done.length });
  const ask = (messages: ChatMessage[], tools: ToolSpec[]): ModelRequest => ({ messages, tools, options: sampling });

  const reached = await reachModel(model, signal, sampling);
  if (!reached.ok) return failure(reached.error, 1, '');
  done.push(reached.response);
  if (done[0]!.text.trim() === '' && done[0]!.toolCalls.length === 0) return fail('reachable, but answered with nothing');

  const asked: ChatMessage[] = [{ role: 'user', content: ASK_TOOL }];
  let called: ModelResponse;
  try {
    called = await model.complete(ask(asked, [ECHO_TOOL]), signal);
    done.push(called);
  } catch (err) {
    return failure(err, done.length + 1, ', the one offering a tool');
  }
  if (called.toolCalls.length === 0) return fail(`answers, but made no tool call when offered one (replied ${quote(called.text)})`);
  const stray = called.toolCalls.find((c) => c.name !== ECHO_TOOL.name);
  if (stray) return fail(`answers, but called ${JSON.stringify(stray.name)}, a tool it was not offered`);

  const results: ChatMessage[] = called.toolCalls.map((c) => ({
    role: 'tool',
    toolCallId: c.id,
    toolName: c.name,
    content: [c.args.text, c.args.message].find((v): v is string => typeof v === 'string') ?? 'ping',
  }));
  try {
    done.push(await model.complete(ask([...asked, assistantMessage(called), ...results], [ECHO_TOOL]), signal));
  } catch (err) {
    return failure(err, done.length + 1, ', the one carrying the tool result');
  }
  return {
    ok: true,
    line: `OK ${model.spec}: answers, calls a tool${adapted(done)} and accepts its result (${summary(done)})`,
    requests: done.length,
  };
}
