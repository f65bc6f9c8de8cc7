// `ladder doctor`: one model, end to end, in three requests. It answers; offered one trivial
// tool it calls it; and its provider accepts the tool result back with the call's id, which
// is the part of a multi-round conversation most likely to be wrong on a new endpoint.
import { ModelConfigError } from './call.ts';
import { assistantMessage } from './index.ts';
import { ProviderError } from './retry.ts';
import type { ChatMessage, ModelAdapter, ModelResponse, ToolSpec } from './types.ts';

export interface DoctorResult {
  readonly ok: boolean;
  /** The one-line verdict, starting with OK or FAIL. */
  readonly line: string;
  readonly requests: number;
}

export const ECHO_TOOL: ToolSpec = {
  name: 'ladder_echo',
  description: 'Returns the given text unchanged.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to return' } },
    required: ['text'],
  },
};

const ASK_ANSWER = 'Reply with one word: ready.';
const ASK_TOOL = `Call the ${ECHO_TOOL.name} tool with the text "ping". Do not answer in prose.`;

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

export async function checkModel(model: ModelAdapter, signal?: AbortSignal): Promise<DoctorResult> {
  const done: ModelResponse[] = [];
  const fail = (why: string): DoctorResult => ({ ok: false, line: `FAIL ${model.spec}: ${why}`, requests: done.length });

  try {
    done.push(await model.complete({ messages: [{ role: 'user', content: ASK_ANSWER }], tools: [] }, signal));
  } catch (err) {
    return failure(err, done.length + 1, '');
  }
  if (done[0]!.text.trim() === '' && done[0]!.toolCalls.length === 0) return fail('reachable, but answered with nothing');

  const ask: ChatMessage[] = [{ role: 'user', content: ASK_TOOL }];
  let called: ModelResponse;
  try {
    called = await model.complete({ messages: ask, tools: [ECHO_TOOL] }, signal);
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
    content: typeof c.args.text === 'string' ? c.args.text : 'ping',
  }));
  try {
    done.push(await model.complete({ messages: [...ask, assistantMessage(called), ...results], tools: [ECHO_TOOL] }, signal));
  } catch (err) {
    return failure(err, done.length + 1, ', the one carrying the tool result');
  }
  return { ok: true, line: `OK ${model.spec}: answers, calls a tool and accepts its result (${summary(done)})`, requests: done.length };
}
