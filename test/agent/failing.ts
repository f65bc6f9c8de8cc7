// A model whose provider answers every attempt with a 503, retried by the real retry loop
// (with its sleep taken out), as an adapter does when a provider stays down.
import { AttemptFailure, resolveRetryPolicy, withRetry } from '../../src/models/retry.ts';
import type { ModelAdapter, ModelResponse } from '../../src/models/types.ts';

export function retryingModel(): ModelAdapter & { attempts: number } {
  const policy = resolveRetryPolicy({ sleep: async () => undefined, random: () => 0 });
  const model = {
    spec: 'fake:failing',
    provider: 'openai' as const,
    model: 'failing',
    attempts: 0,
    async complete(_request: unknown, signal?: AbortSignal): Promise<ModelResponse> {
      const { value } = await withRetry<ModelResponse>('failing', policy, async () => {
        model.attempts += 1;
        throw new AttemptFailure('server', 'HTTP 503: overloaded', 503);
      }, signal);
      return value;
    },
  };
  return model;
}
