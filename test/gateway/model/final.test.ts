// A replay that diverged, answered through the model gateway to the clients agents are built on:
// final (400 with `x-should-retry: false`), so the SDK does not ask again and the first
// divergence stays the one the step names. A 502 for contrast: the same SDKs retry it.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/models/retry.ts';
import { gatewayAnswering, TOKEN } from './fixture.ts';

const DIVERGED = 'replay of results/a: r on pass 0 diverged at step 0 round 4: tool result 1 differs: recorded "x", now "y"';
const diverged = (): never => {
  throw new ProviderError(DIVERGED, 'replay_diverged', undefined, 1);
};
const failed = (): never => {
  throw new ProviderError('the provider failed', 'server', 500, 1);
};

// Back-off of the SDKs' retries kept short: what is counted is whether they retry.
const openai = (baseURL: string) => new OpenAI({ baseURL, apiKey: TOKEN, maxRetries: 2, timeout: 10_000 });
const anthropic = (baseURL: string) => new Anthropic({ baseURL, apiKey: TOKEN, maxRetries: 2, timeout: 10_000 });

async function thrown(work: Promise<unknown>): Promise<{ status?: number; message: string; headers?: Headers }> {
  try {
    await work;
  } catch (error) {
    return error as { status?: number; message: string; headers?: Headers };
  }
  throw new Error('expected the request to fail');
}

describe('a replay that diverged, answered through the gateway', () => {
  it('is final to the OpenAI client: one request, 400, x-should-retry false, the divergence in its message', async () => {
    await using fx = await gatewayAnswering([diverged]);
    const client = openai(fx.gateway.openaiBaseUrl);
    const error = await thrown(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(fx.seen).toHaveLength(1);
    expect(error.status).toBe(400);
    expect(error.headers?.get('x-should-retry')).toBe('false');
    expect(error.message).toContain('diverged at step 0 round 4: tool result 1 differs');
    // Streamed, the same: the failure comes before the stream opens.
    const streamed = await thrown(client.responses.create({ model: 'm', input: 'hi', stream: true }));
    expect([fx.seen.length, streamed.status]).toEqual([2, 400]);
  });

  it('is final to the Anthropic client, streamed or not', async () => {
    await using fx = await gatewayAnswering([diverged]);
    const client = anthropic(fx.gateway.anthropicBaseUrl);
    const error = await thrown(client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    expect([fx.seen.length, error.status]).toEqual([1, 400]);
    expect(error.message).toContain('diverged at step 0 round 4');
    const streamed = await thrown(client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect([fx.seen.length, streamed.status]).toEqual([2, 400]);
  });

  it('is unlike a provider failure, which both clients retry (502)', async () => {
    await using fx = await gatewayAnswering([failed]);
    const error = await thrown(openai(fx.gateway.openaiBaseUrl).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect([fx.seen.length, error.status]).toEqual([3, 502]);
    const again = await thrown(anthropic(fx.gateway.anthropicBaseUrl).messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    expect([fx.seen.length, again.status]).toEqual([6, 502]);
  });
});
