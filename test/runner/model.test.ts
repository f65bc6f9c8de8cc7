import { describe, expect, it } from 'vitest';
import { ModelSpecError } from '../../src/models/index.ts';
import { chooseModel, findOllamaModel, ollamaHost, resolveSpec } from '../../src/runner/model.ts';

type Route = (body: unknown) => unknown;

/** A fetch that answers Ollama's endpoints from a table, and fails for anything else. */
function fakeOllama(routes: Record<string, Route>): typeof fetch {
  return (async (url: string | URL, init?: RequestInit) => {
    const path = new URL(String(url)).pathname;
    const route = routes[path];
    if (route === undefined) throw new TypeError('fetch failed');
    const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    return new Response(JSON.stringify(route(body)), { status: 200 });
  }) as typeof fetch;
}

describe('chooseModel', () => {
  it('takes --model first, then LADDER_MODEL, and says why', async () => {
    expect(await chooseModel('ollama:qwen3:8b', { env: { LADDER_MODEL: 'synthetic:looper' } })).toMatchObject({ spec: 'ollama:qwen3:8b', reason: '--model was given', synthetic: false });
    expect(await chooseModel(undefined, { env: { LADDER_MODEL: 'synthetic:looper' } })).toMatchObject({ spec: 'synthetic:looper', reason: 'LADDER_MODEL is set', policy: 'looper' });
  });

  it('picks the first pulled Ollama model that reports tools', async () => {
    const fetch = fakeOllama({
      '/api/tags': () => ({ models: [{ name: 'gemma3:4b' }, { name: 'qwen3:8b' }] }),
      '/api/show': (body) => ({ capabilities: (body as { model: string }).model === 'qwen3:8b' ? ['completion', 'tools'] : ['completion'] }),
    });
    const choice = await chooseModel(undefined, { env: { OLLAMA_HOST: '127.0.0.1:11434' }, fetch });
    expect(choice).toMatchObject({ spec: 'ollama:qwen3:8b', synthetic: false });
    expect(choice.reason).toContain('Ollama at http://127.0.0.1:11434 has qwen3:8b');
  });

  it('judges by model family when Ollama reports no capabilities', async () => {
    const fetch = fakeOllama({ '/api/tags': () => ({ models: [{ name: 'phi3:mini' }, { name: 'llama3.1:8b' }] }), '/api/show': () => ({}) });
    expect((await findOllamaModel('http://x:1', fetch)).model).toBe('llama3.1:8b');
  });

  it('falls back to synthetic:mix and says that nothing answered', async () => {
    const choice = await chooseModel(undefined, { env: {}, fetch: fakeOllama({}) });
    expect(choice).toMatchObject({ spec: 'synthetic:mix', synthetic: true, policy: 'mix' });
    expect(choice.reason).toContain('no Ollama answered at http://127.0.0.1:11434');
    expect(choice.reason).toContain('do not measure a model');
  });

  it('falls back when no pulled model calls tools', async () => {
    const fetch = fakeOllama({ '/api/tags': () => ({ models: [{ name: 'phi3:mini' }] }), '/api/show': () => ({ capabilities: ['completion'] }) });
    expect((await chooseModel(undefined, { env: {}, fetch })).reason).toContain('none of the 1 models pulled');
  });
});

describe('resolveSpec', () => {
  it('lists the supported specs, synthetic:mix included, for an unknown one', () => {
    expect(() => resolveSpec('gpt4', 'x')).toThrow(ModelSpecError);
    expect(() => resolveSpec('bogus:model', 'x')).toThrow(/use ollama:<model>, openai:<model>, anthropic:<model> or synthetic:<reference\|looper\|retrier\|impatient\|oblivious>\[\?p=0\.\.1\], or synthetic:mix/);
  });

  it('reads a probability on a synthetic spec, synthetic:mix included', () => {
    expect(resolveSpec('synthetic:retrier?p=0.4', 'x')).toMatchObject({ synthetic: true, policy: 'retrier', p: 0.4 });
    expect(resolveSpec('synthetic:mix?p=1', 'x')).toMatchObject({ synthetic: true, policy: 'mix', p: 1 });
    expect(resolveSpec('synthetic:mix', 'x')).not.toHaveProperty('p');
    expect(() => resolveSpec('synthetic:mix?p=2', 'x')).toThrow(/"\?p=2" is not a probability/);
  });
});

describe('ollamaHost', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['0.0.0.0:11500', 'http://0.0.0.0:11500'],
    ['ollama.lan', 'http://ollama.lan:11434'],
    ['https://ollama.example.com/', 'https://ollama.example.com'],
  ])('reads %j as %s', (value, expected) => {
    expect(ollamaHost(value)).toBe(expected);
  });
});
