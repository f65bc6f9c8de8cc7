// A `judge` check's verdicts: asked of a model once per content, kept in the run's
// judgements.jsonl, and served from there ever after. The key is the judge model, the rubric and
// the transcript the judge read (verdict.ts), so `ladder rescore` and `ladder judge agreement`
// never pay twice for a verdict the run already bought, and a run whose judgements are kept
// re-judges offline. A verdict depends on the model's sampling, not only on the content: the
// first one bought stands for that content, which is what makes a rescore reproducible.
import { appendFile, readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { ModelAdapter } from '../models/types.ts';
import { costOf, priceOf, shippedPrices } from '../models/prices.ts';
import type { PriceTable } from '../models/prices.ts';
import { judgeRequest, readVerdict, transcriptText } from './verdict.ts';
import type { JudgedStep } from './verdict.ts';

/** The file in a run's folder that holds its judgements, one JSON object per line. */
export const JUDGEMENTS = 'judgements.jsonl';

/** Where a verdict was first asked for. */
export interface JudgedAt {
  rung: string;
  arm: string;
  pass: number;
  step: number;
}

/** One verdict as judgements.jsonl keeps it: what was judged, by which model, what it cost. */
export interface Judgement {
  type: 'judge';
  key: string;
  model: string;
  rubric: string;
  passed: boolean;
  why: string;
  inputTokens: number | null;
  outputTokens: number | null;
  /** US dollars at the price table; null when the model is unpriced. */
  costUsd: number | null;
  ms: number;
  time: string;
  /** The step-run it was first asked for; null when the asker named none. */
  at: JudgedAt | null;
}

export interface JudgeAsk {
  rubric: string;
  /** The check's own judge model; the judge's default otherwise. */
  model?: string;
  step: JudgedStep;
  at?: JudgedAt;
}

/**
 * A verdict, or why there is none. Bought: a model was asked for it this time, at `costUsd`
 * (null when the model is unpriced), which the asker's pass spent; `cached`: served from a kept
 * verdict, or from the one another asker bought at the same moment, at no cost.
 */
export type JudgeOutcome =
  | { passed: boolean; why: string; model: string; cached: false; costUsd: number | null }
  | { passed: boolean; why: string; model: string; cached: true }
  | { unknown: string };

export type JudgeFn = (ask: JudgeAsk) => Promise<JudgeOutcome>;

export interface JudgeOptions {
  /** The judgements file: read at open, appended to by every new verdict. */
  file: string;
  /** Other judgements files to serve verdicts from (a replayed run's); never written. */
  also?: readonly string[];
  /** The model that judges a check that names none; undefined when there is none (a synthetic run). */
  defaultModel?: string;
  /** Makes the adapter of a judge model; throws a one-line error for a spec it cannot make. */
  adapter?: (spec: string) => ModelAdapter;
  /** Why no model may be asked (offline re-judging); cached verdicts are still served. */
  offline?: string;
  prices?: PriceTable;
  now?: () => Date;
}

export function judgementKey(model: string, rubric: string, transcript: string): string {
  return createHash('sha256').update(JSON.stringify([model, rubric, transcript])).digest('hex').slice(0, 16);
}

/** Every judgement in a file, by key; a missing file holds none, a torn last line is dropped. */
export async function readJudgements(file: string): Promise<Map<string, Judgement>> {
  const found = new Map<string, Judgement>();
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw error;
  }
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as Judgement;
      // The first verdict bought for a content stands (see above).
      if (value.type === 'judge' && !found.has(value.key)) found.set(value.key, value);
    } catch {
      // A line cut short by a crash mid-write (or the empty one after the last): its verdict is asked for again.
    }
  }
  return found;
}

export async function openJudge(options: JudgeOptions): Promise<JudgeFn> {
  const known = await readJudgements(options.file);
  // What this run's own file holds; a verdict served from another file is copied into it, so
  // the run's judgements stand alone (a rescore of a replay finds them).
  const own = new Set(known.keys());
  if (options.also !== undefined) {
    for (const other of options.also) for (const [key, value] of await readJudgements(other)) if (!known.has(key)) known.set(key, value);
  }
  const asking = new Map<string, Promise<JudgeOutcome>>();
  const adapters = new Map<string, ModelAdapter>();
  const prices = options.prices ?? shippedPrices();
  const now = options.now ?? (() => new Date());

  const buy = async (model: string, ask: JudgeAsk, key: string, transcript: string): Promise<JudgeOutcome> => {
    let adapter = adapters.get(model);
    try {
      adapter ??= options.adapter!(model);
    } catch (error) {
      return { unknown: `judge model ${model}: ${(error as Error).message}` };
    }
    adapters.set(model, adapter);
    let response;
    try {
      response = await adapter.complete(judgeRequest(ask.rubric, transcript));
    } catch (error) {
      // A provider's failure is one line (src/models/retry.ts).
      return { unknown: `the judge model ${model} failed: ${(error as Error).message}` };
    }
    const verdict = readVerdict(response.text);
    if (typeof verdict === 'string') return { unknown: verdict };
    const { inputTokens, outputTokens } = response.usage;
    // Where the adapter sends its requests decides the price (a local server is free); a real adapter always says.
    const costUsd = costOf(priceOf({ spec: model, settings: adapter.settings ?? {} }, prices), {
      input: inputTokens ?? 0, output: outputTokens ?? 0, cacheRead: response.usage.cacheReadTokens ?? 0, cacheWrite: response.usage.cacheWriteTokens ?? 0,
    });
    const judgement: Judgement = {
      type: 'judge', key, model, rubric: ask.rubric, passed: verdict.passed, why: verdict.why, inputTokens, outputTokens,
      costUsd, ms: Math.round(response.latencyMs), time: now().toISOString(), at: ask.at ?? null,
    };
    known.set(key, judgement);
    own.add(key);
    await appendFile(options.file, `${JSON.stringify(judgement)}\n`);
    return { passed: verdict.passed, why: verdict.why, model, cached: false, costUsd };
  };

  return async (ask) => {
    const model = ask.model ?? options.defaultModel;
    if (model === undefined) {
      return { unknown: "no judge model: the run's model is synthetic; name one in the check (judge.model) or give --judge-model" };
    }
    const transcript = transcriptText(ask.step);
    const key = judgementKey(model, ask.rubric, transcript);
    const kept = known.get(key);
    if (kept !== undefined) {
      if (!own.has(key)) {
        own.add(key);
        await appendFile(options.file, `${JSON.stringify(kept)}\n`);
      }
      return { passed: kept.passed, why: kept.why, model, cached: true };
    }
    if (options.offline !== undefined || options.adapter === undefined) {
      return { unknown: `no kept verdict for this step from ${model}, and ${options.offline ?? 'no model may be asked'}` };
    }
    // Two passes judging the same content at once buy one verdict: the first pays for it, the
    // second is served it as from the file, so the run's spending counts it once.
    const pending = asking.get(key);
    if (pending !== undefined) {
      const shared = await pending;
      return 'unknown' in shared ? shared : { passed: shared.passed, why: shared.why, model: shared.model, cached: true };
    }
    const bought = buy(model, ask, key, transcript).finally(() => asking.delete(key));
    asking.set(key, bought);
    return bought;
  };
}
