// What a pass spent, read back from its trace: the tokens of every model response of its last
// attempt, priced, and the verdicts its judge checks bought (step.end's `judged`, priced when
// bought). The runner reads it after each pass (the progress line, --max-cost) and, on
// --resume, for the passes already made.
//
// The rule the report keeps too (src/report/passes.ts, docs/report.md "Cost"): a response
// slot with no token count is missing, whatever the reason: a reply without usage, or a request
// that got no reply (cut off by the step's time limit, interrupted, failed after its retries).
// A cut-off request may still be billed, at a count no one reported, so it is never read as
// free: the spending is then a lower bound, as the report's cost is, and the report leaves the
// pass out of the cost comparison.
import type { AimdLimiter } from '../models/pace.ts';
import { costOf, formatUsd } from '../models/prices.ts';
import type { Pricing, TokenCounts } from '../models/prices.ts';
import { readTrace } from '../trace/index.ts';
import type { CostLimit } from './costLimit.ts';

export interface PassSpend {
  tokens: TokenCounts;
  /** Responses with no token count (a request that got no reply among them): the cost is then a lower bound. */
  missing: number;
  /**
   * The verdicts its judge checks bought (step.end's `judged`, those with a cost): their US
   * dollars, and how many had no price (the judge model is unpriced), which also makes the
   * cost a lower bound. A verdict served kept cost this pass nothing.
   */
  judges: { usd: number; unpriced: number };
}

const nothingSpent = (): PassSpend => ({ tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0, judges: { usd: 0, unpriced: 0 } });

export async function passTokens(file: string): Promise<PassSpend> {
  let spend = nothingSpent();
  try {
    for await (const event of readTrace(file)) {
      // A resumed pass appended to its file: only the last attempt is the pass.
      if (event.type === 'pass.start') spend = nothingSpent();
      if (event.type === 'step.end') {
        for (const { usd } of event.judged ?? []) {
          if (usd === null) spend.judges.unpriced += 1;
          else spend.judges.usd += usd ?? 0;
        }
      }
      if (event.type !== 'model.response') continue;
      const input = event['gen_ai.usage.input_tokens'];
      const output = event['gen_ai.usage.output_tokens'];
      if (typeof input !== 'number' || typeof output !== 'number') spend.missing += 1;
      spend.tokens.input += input ?? 0;
      spend.tokens.output += output ?? 0;
      spend.tokens.cacheRead += event['gen_ai.usage.cache_read.input_tokens'] ?? 0;
      spend.tokens.cacheWrite += event['gen_ai.usage.cache_creation.input_tokens'] ?? 0;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return spend;
    throw error;
  }
  return spend;
}

/** What a pass cost: US dollars, and its responses with no token count (with any, a lower bound). */
export interface PassCost {
  usd: number;
  missing: number;
}

/**
 * What a pass spent: its model's tokens at `pricing`, and what its judges bought. Null when the
 * model is unpriced (the run keeps no total); a free model's pass spent only on its judges, and
 * its trace is read only when the rung has judge checks (`judges`).
 */
export async function passCost(file: string, pricing: Pricing, judges = false): Promise<PassCost | null> {
  if (pricing.status === 'unpriced') return null;
  if (pricing.status === 'free' && !judges) return { usd: 0, missing: 0 };
  const spend = await passTokens(file);
  const model = pricing.status === 'free' ? { usd: 0, missing: 0 } : { usd: costOf(pricing, spend.tokens)!, missing: spend.missing };
  return { usd: model.usd + spend.judges.usd, missing: model.missing + spend.judges.unpriced };
}

/** A run's spending as the progress line reads it (src/runner/costLimit.ts). */
export type Spent = Pick<CostLimit, 'spentUsd' | 'maxUsd' | 'lowerBound'>;

/** The progress line's say on money and pace: `$0.42 spent of $5 max, concurrency 3/8`; `$0.42+` when a lower bound. */
export function spendText(pricing: Pricing, spent: Spent | undefined, pace: AimdLimiter | undefined): string {
  const parts: string[] = [];
  // A free model's run says what it spent once its judges spent something.
  if (pricing.status === 'priced' || (spent?.spentUsd ?? 0) > 0) {
    const max = spent?.maxUsd;
    parts.push(`${formatUsd(spent?.spentUsd ?? 0)}${spent?.lowerBound === true ? '+' : ''} spent${max === undefined ? '' : ` of ${formatUsd(max)} max`}`);
  }
  else if (pricing.status === 'unpriced') parts.push('cost unknown (no price)');
  if (pace !== undefined && pace.max > 1) parts.push(`concurrency ${pace.level}/${pace.max}`);
  return parts.join(', ');
}
