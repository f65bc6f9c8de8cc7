import { describe, expect, it } from 'vitest';
import { ModelSpecError, parseModelSpec, SYNTHETIC_POLICIES } from '../../src/models/spec.ts';

const FORMS = 'use ollama:<model>, openai:<model>, anthropic:<model> or synthetic:<reference|looper|retrier|impatient|oblivious>[?p=0..1]';

describe('parseModelSpec', () => {
  it('splits on the first colon only, so Ollama tags stay in the model', () => {
    expect(parseModelSpec('ollama:qwen3:8b')).toStrictEqual({ spec: 'ollama:qwen3:8b', provider: 'ollama', model: 'qwen3:8b' });
  });

  it('keeps router paths whole', () => {
    expect(parseModelSpec('openai:meta-llama/llama-3.3-70b')).toStrictEqual({
      spec: 'openai:meta-llama/llama-3.3-70b',
      provider: 'openai',
      model: 'meta-llama/llama-3.3-70b',
    });
    expect(parseModelSpec('anthropic:claude-x')).toMatchObject({ provider: 'anthropic', model: 'claude-x' });
  });

  it('reads each of the five synthetic policies', () => {
    expect(SYNTHETIC_POLICIES).toStrictEqual(['reference', 'looper', 'retrier', 'impatient', 'oblivious']);
    for (const policy of SYNTHETIC_POLICIES) {
      expect(parseModelSpec(`synthetic:${policy}`)).toStrictEqual({ spec: `synthetic:${policy}`, provider: 'synthetic', policy });
    }
  });

  it('reads the probability per decision that a synthetic pathology strikes', () => {
    expect(parseModelSpec('synthetic:retrier?p=0.4')).toStrictEqual({ spec: 'synthetic:retrier?p=0.4', provider: 'synthetic', policy: 'retrier', p: 0.4 });
    expect(parseModelSpec('synthetic:looper?p=1')).toMatchObject({ policy: 'looper', p: 1 });
    expect(parseModelSpec('synthetic:looper?p=0')).toMatchObject({ policy: 'looper', p: 0 });
  });

  it.each([
    ['gpt-4o', 'model spec "gpt-4o": no provider'],
    ['ollama:', 'model spec "ollama:": no model after the colon'],
    ['groq:llama', 'model spec "groq:llama": unknown provider "groq"'],
    ['synthetic:lazy', 'model spec "synthetic:lazy": unknown synthetic policy "lazy"'],
    ['ollama:qwen3 8b', 'model spec "ollama:qwen3 8b": contains whitespace'],
    [':m', 'model spec ":m": unknown provider ""'],
    ['synthetic:retrier?p=1.5', 'model spec "synthetic:retrier?p=1.5": "?p=1.5" is not a probability; write ?p= and a number from 0 to 1'],
    ['synthetic:retrier?p=-1', 'model spec "synthetic:retrier?p=-1": "?p=-1" is not a probability; write ?p= and a number from 0 to 1'],
    ['synthetic:retrier?q=1', 'model spec "synthetic:retrier?q=1": "?q=1" is not a probability; write ?p= and a number from 0 to 1'],
    ['synthetic:retrier?', 'model spec "synthetic:retrier?": "?" is not a probability; write ?p= and a number from 0 to 1'],
    ['synthetic:lazy?p=0.5', 'model spec "synthetic:lazy?p=0.5": unknown synthetic policy "lazy"'],
  ])('rejects %j in one line that lists the supported forms', (text, start) => {
    let err: unknown;
    try {
      parseModelSpec(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelSpecError);
    expect((err as Error).message).toBe(`${start}; ${FORMS}`);
    expect((err as Error).message).not.toContain('\n');
  });
});
