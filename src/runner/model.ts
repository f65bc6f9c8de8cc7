// Which model a run drives (the README's first command): the first of --model, LADDER_MODEL, a
// reachable Ollama with a tool-capable model pulled, else the synthetic agents. The choice and
// the reason are printed and recorded, so a result never hides what produced it.
import { ModelSpecError, parseModelSpec, syntheticOptions } from '../models/spec.ts';
import type { SyntheticPolicy } from '../models/spec.ts';

/** Each rung's own `syntheticPolicy`: the pathology that rung exists to measure. */
export const SYNTHETIC_MIX = 'synthetic:mix';
const DEFAULT_OLLAMA = 'http://127.0.0.1:11434';
/** Ollama answers locally within milliseconds; a second means nothing is there. */
const OLLAMA_PROBE_MS = 1_500;
/** /api/show per model until one has tools; a machine with more models pulled still starts fast. */
const MAX_MODELS_SHOWN = 12;
/**
 * Families known to call tools, for an Ollama too old to report `capabilities`
 * (ollama.com/search?c=tools).
 */
const TOOL_FAMILIES = /^(qwen2\.5|qwen3|llama3\.[123]|mistral|mistral-nemo|mistral-small|command-r|firefunction|granite3|hermes3|smollm2|gpt-oss|devstral|nemotron)/;

export interface ModelChoice {
  spec: string;
  reason: string;
  synthetic: boolean;
  /** For synthetic specs: one policy for every rung, or 'mix' for each rung's own. */
  policy?: SyntheticPolicy | 'mix';
  /** For synthetic specs with `?p=`: the probability per decision that the pathology strikes. */
  p?: number;
}

/** Parses a spec the user gave; ModelSpecError lists the supported forms, mix included. */
export function resolveSpec(spec: string, reason: string): ModelChoice {
  try {
    if (spec === SYNTHETIC_MIX || spec.startsWith(`${SYNTHETIC_MIX}?`)) {
      const { p } = syntheticOptions(spec, spec.slice('synthetic:'.length));
      return { spec, reason, synthetic: true, policy: 'mix', ...(p === undefined ? {} : { p }) };
    }
    const parsed = parseModelSpec(spec);
    return parsed.provider === 'synthetic'
      ? { spec, reason, synthetic: true, policy: parsed.policy, ...(parsed.p === undefined ? {} : { p: parsed.p }) }
      : { spec, reason, synthetic: false };
  } catch (error) {
    if (!(error instanceof ModelSpecError)) throw error;
    throw new ModelSpecError(`${error.message}, or ${SYNTHETIC_MIX} (each rung's own policy)`);
  }
}

export interface ChooseWorld {
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
}

export async function chooseModel(flag: string | undefined, world: ChooseWorld): Promise<ModelChoice> {
  if (flag !== undefined) return resolveSpec(flag, '--model was given');
  const fromEnv = world.env['LADDER_MODEL'];
  if (fromEnv !== undefined && fromEnv !== '') return resolveSpec(fromEnv, 'LADDER_MODEL is set');
  const host = ollamaHost(world.env['OLLAMA_HOST']);
  const found = await findOllamaModel(host, world.fetch ?? fetch);
  if (found.model !== undefined) {
    return { spec: `ollama:${found.model}`, reason: `no --model or LADDER_MODEL; Ollama at ${host} has ${found.model}, which calls tools`, synthetic: false };
  }
  return {
    spec: SYNTHETIC_MIX,
    reason:
      `no --model or LADDER_MODEL, and ${found.why}; falling back to the synthetic agents, each rung's own ` +
      'pathology (they exercise the harness, they do not measure a model)',
    synthetic: true,
    policy: 'mix',
  };
}

/** OLLAMA_HOST as Ollama itself reads it: `host:port`, a bare host, or a URL. */
export function ollamaHost(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_OLLAMA;
  const text = value.trim().replace(/\/+$/, '');
  const schemed = /^https?:\/\//.test(text);
  const url = URL.parse(schemed ? text : `http://${text}`);
  if (url === null) return DEFAULT_OLLAMA;
  // As Ollama reads it: a bare host gets 11434, a URL with a scheme its scheme's own port.
  if (!schemed && url.port === '') url.port = '11434';
  return url.origin;
}

async function getJson(fetcher: typeof fetch, url: string, body?: unknown): Promise<unknown> {
  const response = await fetcher(url, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(OLLAMA_PROBE_MS),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

export async function findOllamaModel(host: string, fetcher: typeof fetch): Promise<{ model?: string; why: string }> {
  let names: string[];
  try {
    const tags = (await getJson(fetcher, `${host}/api/tags`)) as { models?: { name?: unknown }[] };
    names = (tags.models ?? []).map((m) => m.name).filter((n): n is string => typeof n === 'string');
  } catch (error) {
    return { why: `no Ollama answered at ${host} (${(error as Error).message})` };
  }
  if (names.length === 0) return { why: `Ollama at ${host} has no models pulled` };
  for (const name of names.slice(0, MAX_MODELS_SHOWN)) {
    try {
      const show = (await getJson(fetcher, `${host}/api/show`, { model: name })) as { capabilities?: unknown };
      if (Array.isArray(show.capabilities)) {
        if (show.capabilities.includes('tools')) return { model: name, why: '' };
        continue;
      }
    } catch {
      // An older Ollama without /api/show capabilities: judge by the model's family.
    }
    if (TOOL_FAMILIES.test(name)) return { model: name, why: '' };
  }
  return { why: `none of the ${names.length} models pulled in Ollama at ${host} calls tools` };
}
