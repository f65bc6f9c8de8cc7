// Model specs as users type them: `<provider>:<model>`. Only the first colon separates, so
// Ollama tags (`qwen3:8b`) and router paths (`meta-llama/llama-3.3-70b`) stay in the model.

export const REAL_PROVIDERS = ['ollama', 'openai', 'anthropic'] as const;
export type RealProvider = (typeof REAL_PROVIDERS)[number];

export const SYNTHETIC_POLICIES = ['reference', 'looper', 'retrier', 'impatient', 'oblivious'] as const;
export type SyntheticPolicy = (typeof SYNTHETIC_POLICIES)[number];

export type ModelSpec =
  | { readonly spec: string; readonly provider: RealProvider; readonly model: string }
  | { readonly spec: string; readonly provider: 'synthetic'; readonly policy: SyntheticPolicy; readonly p?: number };

const FORMS =
  'ollama:<model>, openai:<model>, anthropic:<model> or synthetic:<' + SYNTHETIC_POLICIES.join('|') + '>[?p=0..1]';

/** A spec the user typed that Ladder cannot read; the message is one line with the fix. */
export class ModelSpecError extends Error {
  override readonly name = 'ModelSpecError';
}

function fail(text: string, why: string): never {
  throw new ModelSpecError(`model spec ${JSON.stringify(text)}: ${why}; use ${FORMS}`);
}

export function parseModelSpec(text: string): ModelSpec {
  const colon = text.indexOf(':');
  if (colon < 0) fail(text, 'no provider');
  const provider = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (rest === '') fail(text, 'no model after the colon');
  if (/\s/.test(text)) fail(text, 'contains whitespace');
  if (provider === 'synthetic') {
    const { name, p } = syntheticOptions(text, rest);
    if (!(SYNTHETIC_POLICIES as readonly string[]).includes(name)) fail(text, `unknown synthetic policy "${name}"`);
    return { spec: text, provider, policy: name as SyntheticPolicy, ...(p === undefined ? {} : { p }) };
  }
  if (!(REAL_PROVIDERS as readonly string[]).includes(provider)) fail(text, `unknown provider "${provider}"`);
  return { spec: text, provider: provider as RealProvider, model: rest };
}

/**
 * `retrier?p=0.4`: a synthetic policy and the probability per decision that its pathology
 * strikes (src/models/synthetic/chance.ts); without `?p=` each policy's own default.
 */
export function syntheticOptions(text: string, rest: string): { name: string; p?: number } {
  const at = rest.indexOf('?');
  if (at < 0) return { name: rest };
  const query = rest.slice(at + 1);
  const match = /^p=(\d+(?:\.\d+)?)$/.exec(query);
  const p = match === null ? NaN : Number(match[1]);
  if (!(p >= 0 && p <= 1)) fail(text, `"?${query}" is not a probability; write ?p= and a number from 0 to 1`);
  return { name: rest.slice(0, at), p };
}
