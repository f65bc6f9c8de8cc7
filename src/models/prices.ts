// What a run's tokens cost. The price table ships as data (data/prices.json: each price with
// its source and the date it was read) and a user's file (--prices FILE) overrides it entry by
// entry. A model the table does not price has no cost, said as such, never a guess; a model
// that runs locally (Ollama, a local OpenAI-compatible server) or a synthetic agent costs
// nothing, and says why.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import shipped from '../../data/prices.json' with { type: 'json' };
import { isLocalUrl } from './settings.ts';

// The file's shape, made where a file is read rather than when this module loads, so that no
// mutant of it can break the import of every module that prices (the mutation battery cannot
// count a test file that fails to load).
function shapes() {
  const usd = z.number().nonnegative();
  const entry = z.object({
    /** A model spec, `openai:gpt-4o-mini`. */
    model: z.string().regex(/^[a-z]+:.+/, 'expected a model spec such as openai:gpt-4o-mini'),
    /** Other specs for the same model (dated snapshots). */
    aliases: z.array(z.string()).optional(),
    /** Only for runs against this endpoint (an OpenAI-compatible service, a proxy); else the provider's own. */
    baseUrl: z.string().url().optional(),
    /** US dollars per million tokens. */
    input: usd,
    output: usd,
    /** Input read from the provider's cache; absent: billed as input. */
    cachedInput: usd.optional(),
    /** Input written to the provider's cache (Anthropic); absent: billed as input. */
    cacheWrite: usd.optional(),
    /** Where the price was published. */
    source: z.string().optional(),
    note: z.string().optional(),
  }).strict();
  const table = z.object({
    format: z.literal(1).optional(),
    /** When the prices were read (YYYY-MM-DD). */
    read: z.string().optional(),
    note: z.string().optional(),
    prices: z.array(entry),
  }).strict();
  return { entry, table };
}

export type PriceEntry = z.infer<ReturnType<typeof shapes>['entry']>;

export interface PriceTable {
  /** Where it came from: `shipped`, or the user's file. */
  readonly from: string;
  readonly read: string | null;
  /** User entries first: the first match wins. */
  readonly entries: readonly (PriceEntry & { from: string; read: string | null })[];
}

/**
 * The price of a run's model, as the report and the manifest record it. `free`: it calls no
 * paid service (synthetic agents, a replay, a local model); `unpriced`: no price is known, so
 * there is no cost, and `why` says what to do.
 */
export type Pricing =
  | {
    status: 'priced'; model: string;
    /** US dollars per million tokens; null where the entry has no separate price (billed as input). */
    usdPerMillion: { input: number; output: number; cachedInput: number | null; cacheWrite: number | null };
    source: string | null; read: string | null; from: string;
  }
  | { status: 'free'; model: string; why: string }
  | { status: 'unpriced'; model: string; why: string };

/** A price file that cannot be used; the message is one line: where, what, what to do. */
export class PriceFileError extends Error {
  override readonly name = 'PriceFileError';
}

function table(from: string, value: unknown): PriceTable {
  const parsed = shapes().table.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length === 0 ? '(root)' : issue.path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    throw new PriceFileError(`${from}: ${where}: ${issue.message}; see docs/report.md, "Cost", for the format`);
  }
  const read = parsed.data.read ?? null;
  return { from, read, entries: parsed.data.prices.map((entry) => ({ ...entry, from, read })) };
}

/** The shipped table (data/prices.json). */
export function shippedPrices(): PriceTable {
  return table('shipped', shipped);
}

/** The shipped table, with a user's file (read relative to `cwd`) over it when one is given. */
export function loadPrices(file: string | undefined, cwd = process.cwd()): PriceTable {
  if (file === undefined) return shippedPrices();
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? (error as Error).message})`;
    throw new PriceFileError(`--prices ${file}: ${why}; give a JSON price file (docs/report.md, "Cost")`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PriceFileError(`--prices ${file}: not valid JSON (${(error as Error).message})`);
  }
  const own = table(file, value);
  return { from: file, read: own.read, entries: [...own.entries, ...shippedPrices().entries] };
}

/** The run's model as its manifest records it. */
export interface PricedModel {
  readonly spec: string;
  readonly synthetic?: boolean;
  readonly settings?: Readonly<Record<string, string | number | boolean>>;
}

/** Where each provider itself answers: a spec's price applies there unless the entry names another endpoint. */
const PROVIDER_HOSTS: Record<string, string> = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' };

const trimmed = (url: string): string => url.replace(/\/+$/, '');

function hostOf(url: string): string | undefined {
  return URL.parse(url)?.hostname;
}

/** The price of `model`'s tokens; `replayOf` names the run a replay served its responses from. */
export function priceOf(model: PricedModel, prices: PriceTable, replayOf?: string): Pricing {
  const spec = model.spec;
  if (model.synthetic === true) return { status: 'free', model: spec, why: 'synthetic agents call no model' };
  if (replayOf !== undefined) return { status: 'free', model: spec, why: `replayed from ${replayOf}: no provider was called` };
  const baseUrl = typeof model.settings?.['baseUrl'] === 'string' ? model.settings['baseUrl'] : undefined;
  const provider = spec.slice(0, spec.indexOf(':'));
  const named = (e: PriceEntry): boolean => e.model === spec || e.aliases?.includes(spec) === true;
  const own = baseUrl !== undefined && hostOf(baseUrl) === PROVIDER_HOSTS[provider];
  const entry = prices.entries.find((e) => named(e) && (e.baseUrl === undefined
    ? own
    : baseUrl !== undefined && trimmed(e.baseUrl) === trimmed(baseUrl)));
  if (entry !== undefined) {
    return {
      status: 'priced', model: spec,
      usdPerMillion: { input: entry.input, output: entry.output, cachedInput: entry.cachedInput ?? null, cacheWrite: entry.cacheWrite ?? null },
      source: entry.source ?? null, read: entry.read, from: entry.from,
    };
  }
  if (provider === 'ollama') return { status: 'free', model: spec, why: 'a local model (Ollama) has no per-token price' };
  if (baseUrl !== undefined && isLocalUrl(baseUrl)) {
    return { status: 'free', model: spec, why: `a local server (${baseUrl}) has no per-token price` };
  }
  const where = baseUrl === undefined ? 'an endpoint the run did not record' : own ? baseUrl : `${baseUrl}, which is not ${provider}'s own API`;
  return { status: 'unpriced', model: spec, why: `no price for ${spec} at ${where}; give one with --prices FILE` };
}

/** Token counts summed over responses, as the report and the runner keep them. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * US dollars for `tokens` at `pricing`: cached reads and writes at their own price (the input
 * price where the entry has none), the rest of the input at the input price. Null when the
 * model is unpriced; 0 when it is free.
 */
export function costOf(pricing: Pricing, tokens: TokenCounts): number | null {
  if (pricing.status === 'unpriced') return null;
  if (pricing.status === 'free') return 0;
  const p = pricing.usdPerMillion;
  const cached = Math.min(tokens.input, tokens.cacheRead + tokens.cacheWrite);
  const uncached = tokens.input - cached;
  // Reads first: a count of cached tokens above the input (a provider's rounding) is held to the input.
  const read = Math.min(tokens.cacheRead, cached);
  const write = cached - read;
  return (uncached * p.input + read * (p.cachedInput ?? p.input) + write * (p.cacheWrite ?? p.input) + tokens.output * p.output) / 1_000_000;
}

/** A cost as people read one: `$0.42`, `$0.0031`, `$12.40`; `-` for none. */
export function formatUsd(value: number | null): string {
  if (value === null) return '-';
  if (value === 0) return '$0';
  const abs = Math.abs(value);
  const digits = Math.max(2, 1 - Math.floor(Math.log10(abs))); // cents from $0.10 up, two significant digits below
  return `${value < 0 ? '-' : ''}$${abs.toFixed(Math.min(digits, 6))}`;
}

/** A price per million tokens: `$1`, `$0.10`, `$0.075`. */
export const perMillion = (usd: number): string => formatUsd(usd).replace(/\.00$/, '');

type Priced = Extract<Pricing, { status: 'priced' }>;

/** A priced model's rates as every output says them: `$1 in, $0.10 cached in, $1.25 cache write, $5 out per million tokens`. */
export function priceText(u: Priced['usdPerMillion']): string {
  const parts = [`${perMillion(u.input)} in`, ...(u.cachedInput === null ? [] : [`${perMillion(u.cachedInput)} cached in`]),
    ...(u.cacheWrite === null ? [] : [`${perMillion(u.cacheWrite)} cache write`]), `${perMillion(u.output)} out`];
  return `${parts.join(', ')} per million tokens`;
}

/** Where a price comes from (its source, else the table that held it) and when it was read. */
export function priceSource(p: Priced): string {
  return [p.source ?? (p.from === 'shipped' ? 'the shipped table' : p.from), ...(p.read === null ? [] : [`read ${p.read}`])].join(', ');
}

/** One line on what a model's tokens cost and where the price comes from. */
export function pricingLine(p: Pricing): string {
  if (p.status === 'free') return `none: ${p.why}`;
  if (p.status === 'unpriced') return `unknown: ${p.why}`;
  return `${p.model} at ${priceText(p.usdPerMillion)} (${priceSource(p)}; prices change)`;
}
