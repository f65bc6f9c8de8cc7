// What a pass spent, read back from its trace: the tokens of every model response of its last
// attempt, priced. The runner reads it after each pass (the progress line, --max-cost) and, on
// --resume, for the passes already made.
import type { AimdLimiter } from '../models/pace.ts';
import { costOf, formatUsd } from '../models/prices.ts';
import type { Pricing, TokenCounts } from '../models/prices.ts';
import { readTrace } from '../trace/index.ts';

export interface PassSpend {
  tokens: TokenCounts;
  /** Responses that reported no token count: the cost is then a lower bound. */
  missing: number;
}

export async function passTokens(file: string): Promise<PassSpend> {
  let spend: PassSpend = { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0 };
  try {
    for await (const event of readTrace(file)) {
      // A resumed pass appended to its file: only the last attempt is the pass.
      if (event.type === 'pass.start') spend = { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0 };
      if (event.type !== 'model.response' || event['error.type'] !== undefined) continue;
      const input = event['gen_ai.usage.input_tokens'];
      const output = event['gen_ai.usage.output_tokens'];
      if (input === null || output === null) spend.missing += 1;
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

/** US dollars a pass spent at `pricing`: 0 when the model is free, null when it is unpriced. */
export async function passCost(file: string, pricing: Pricing): Promise<number | null> {
  if (pricing.status !== 'priced') return costOf(pricing, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  return costOf(pricing, (await passTokens(file)).tokens);
}

/** The progress line's say on money and pace: `$0.42 spent of $5 max, concurrency 3/8`. */
export function spendText(pricing: Pricing, spentUsd: number | null, maxUsd: number | undefined, pace: AimdLimiter | undefined): string {
  const parts: string[] = [];
  if (pricing.status === 'priced') parts.push(`${formatUsd(spentUsd ?? 0)} spent${maxUsd === undefined ? '' : ` of ${formatUsd(maxUsd)} max`}`);
  else if (pricing.status === 'unpriced') parts.push('cost unknown (no price)');
  if (pace !== undefined && pace.max > 1) parts.push(`concurrency ${pace.level}/${pace.max}`);
  return parts.join(', ');
}
