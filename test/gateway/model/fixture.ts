// A model gateway on a real port with an answer callback the test scripts, and every request
// the callback saw, in order.
import { startModelGateway } from '../../../src/gateway/model/index.ts';
import type { AnswerOptions, GatewayRequest, ModelGateway, ModelGatewayOptions } from '../../../src/gateway/model/index.ts';
import type { ModelResponse } from '../../../src/models/types.ts';

export const TOKEN = 'pass-token-7f3a';

export type Answer = (request: GatewayRequest, options: AnswerOptions) => ModelResponse | Promise<ModelResponse>;

/** A neutral answer: the fields a test names, the rest as a synthetic agent's. */
export function modelResponse(fields: Partial<ModelResponse> = {}): ModelResponse {
  return {
    text: '',
    toolCalls: [],
    usage: { inputTokens: 21, outputTokens: 8 },
    latencyMs: 1,
    attempts: 1,
    retryWaitMs: 0,
    stopReason: 'end',
    providerStopReason: 'stop',
    ignoredOptions: [],
    details: { provider: 'synthetic', policy: 'reference', seed: 0 },
    ...fields,
  };
}

export interface Fixture extends AsyncDisposable {
  readonly gateway: ModelGateway;
  readonly seen: GatewayRequest[];
}

/** A gateway whose callback answers each request with the next of `answers` (the last repeats). */
export async function gatewayAnswering(answers: Answer[], options: Partial<ModelGatewayOptions> = {}): Promise<Fixture> {
  const seen: GatewayRequest[] = [];
  const gateway = await startModelGateway({
    token: TOKEN,
    answer: async (request, answerOptions) => {
      seen.push(request);
      const next = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      return next(request, answerOptions);
    },
    ...options,
  });
  return { gateway, seen, [Symbol.asyncDispose]: () => gateway.close() };
}

/** A promise and its resolve, for a test to say when something happened: no timers. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The events of an SSE body: each `event:` name (or null) and its parsed `data:`. */
export function sseEvents(text: string): { event: string | null; data: unknown }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? null;
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { event, data: data === '[DONE]' ? '[DONE]' : JSON.parse(data) };
    });
}
