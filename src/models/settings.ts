// The model flags `ladder run` and `ladder doctor` share (--base-url, --thinking, --num-ctx),
// read in one place so that the doctor checks a model with exactly the requests a run sends.
import { ModelConfigError } from './call.ts';
import type { RealProvider } from './spec.ts';
import type { ModelSettings, SamplingOptions } from './types.ts';

/** `--thinking`: off, on (the provider decides how much), or a budget of thinking tokens. */
export type ThinkingSetting = 'off' | 'on' | number;

// Anthropic's floor for `budget_tokens` (@anthropic-ai/sdk, ThinkingConfigEnabled: "Must be
// ≥1024 and less than `max_tokens`").
export const MIN_THINKING_BUDGET = 1_024;

/** The flags as given; each undefined means the adapter's default. */
export interface ModelFlags {
  readonly baseUrl?: string;
  readonly thinking?: ThinkingSetting;
  readonly numCtx?: number;
}

/** Reads `--thinking`; a word it cannot read is a ModelConfigError saying what it takes. */
export function parseThinking(text: string): ThinkingSetting {
  const word = text.trim().toLowerCase();
  if (word === 'off' || word === 'on') return word;
  if (/^\d+$/.test(word)) {
    const budget = Number(word);
    if (budget >= MIN_THINKING_BUDGET) return budget;
    throw new ModelConfigError(`--thinking ${text}: a thinking budget must be at least ${MIN_THINKING_BUDGET} tokens`);
  }
  throw new ModelConfigError(`--thinking ${text}: use off, on, or a budget of thinking tokens (at least ${MIN_THINKING_BUDGET})`);
}

/** Flags that do not apply to the provider, one line each; synthetic agents take none. */
export function flagProblems(provider: RealProvider | 'synthetic', flags: ModelFlags): string[] {
  const problems: string[] = [];
  const named = (flag: string, applies: string) => `${flag} applies to ${applies}, not to ${provider}: models`;
  if (flags.baseUrl !== undefined && provider === 'synthetic') problems.push(named('--base-url', 'ollama:, openai: and anthropic: models'));
  if (flags.thinking !== undefined && (provider === 'openai' || provider === 'synthetic')) {
    problems.push(named('--thinking', 'anthropic: and ollama: models'));
  }
  if (typeof flags.thinking === 'number' && provider === 'ollama') {
    problems.push(`--thinking ${flags.thinking}: Ollama takes --thinking on or off, not a token budget`);
  }
  if (flags.numCtx !== undefined) {
    if (provider !== 'ollama') problems.push(named('--num-ctx', 'ollama: models'));
    else if (!Number.isInteger(flags.numCtx) || flags.numCtx < 1) problems.push(`--num-ctx ${flags.numCtx}: expected a positive integer`);
  }
  return problems;
}

/** The sampling options of every request of a pass: its seed, which adapters send where accepted. */
export function passSampling(seed: number): SamplingOptions {
  return { seed };
}

/** A URL as it may be written to a manifest: any user and password in it replaced. */
export function recordableUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
}

/**
 * The flags that make an adapter with `settings` again (a resumed run): every adapter records
 * its endpoint as `baseUrl`, and `thinking` and `numCtx` under those names when it has them.
 */
export function flagsFromSettings(settings: ModelSettings | undefined): ModelFlags {
  if (settings === undefined) return {};
  const { baseUrl, thinking, numCtx } = settings;
  return {
    ...(typeof baseUrl === 'string' && !baseUrl.includes('***@') ? { baseUrl } : {}),
    ...(thinking === 'on' || thinking === 'off' || typeof thinking === 'number' ? { thinking } : {}),
    ...(typeof numCtx === 'number' ? { numCtx } : {}),
  };
}

/** Hosts on this machine or the local network: local servers, which have no per-token price. */
export const LOCAL_HOST = /^(localhost|127(\.\d+){3}|\[::1\]|0\.0\.0\.0|10(\.\d+){3}|192\.168(\.\d+){2}|172\.(1[6-9]|2\d|3[01])(\.\d+){2}|[^.]+\.local)$/;

export function isLocalUrl(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && LOCAL_HOST.test(parsed.hostname);
}
