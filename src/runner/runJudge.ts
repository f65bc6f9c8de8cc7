// Which model answers a run's judge checks, and how it is throttled. A check's own `model` wins;
// otherwise the run's model judges, through the run's own adapter settings and limiter, so the
// judge's requests take their turn with the agent's. Another judge model gets a limiter of its
// own at one request at a time. A synthetic run has no default judge; a replay asks no model,
// and serves the verdicts the recorded run kept.
import { join } from 'node:path';
import { createModel } from '../models/index.ts';
import type { AdapterOptions, ModelAdapter, ModelFlags } from '../models/index.ts';
import { AimdLimiter } from '../models/pace.ts';
import type { PriceTable } from '../models/prices.ts';
import type { Rung } from '../rungs/schema.ts';
import { JUDGEMENTS } from '../judge/judge.ts';
import type { JudgeOptions } from '../judge/judge.ts';

export interface RunJudgeInput {
  /** The run's model spec, and whether it is a synthetic agent. */
  spec: string;
  synthetic: boolean;
  flags: ModelFlags;
  world: AdapterOptions;
  pace?: AimdLimiter;
  /** A replay's source folder: its judgements answer, and no model is asked. */
  replayDir?: string;
  /** What the verdicts bought are priced at (the run's --prices over the shipped table). */
  prices?: PriceTable;
}

/** The judge options of a run writing to `out`, for openJudge. */
export function runJudgeOptions(out: string, input: RunJudgeInput): JudgeOptions {
  if (input.replayDir !== undefined) {
    return {
      file: join(out, JUDGEMENTS), also: [join(input.replayDir, JUDGEMENTS)],
      ...(input.synthetic ? {} : { defaultModel: input.spec }),
      offline: 'a replay asks no model (the recorded run kept no verdict for it)',
    };
  }
  // openJudge makes one adapter per judge model, so each other model gets one limiter of its own here.
  const adapter = (spec: string): ModelAdapter => {
    if (spec === input.spec && !input.synthetic) return createModel(spec, { ...input.world, ...input.flags, ...(input.pace ? { pace: input.pace } : {}) });
    return createModel(spec, { ...input.world, pace: new AimdLimiter({ max: 1, now: () => performance.now() }) });
  };
  return { file: join(out, JUDGEMENTS), adapter, ...(input.synthetic ? {} : { defaultModel: input.spec }), ...(input.prices === undefined ? {} : { prices: input.prices }) };
}

/** The judge models the rungs name, each with where it is named, to be made (and refused) before the run starts. */
export function namedJudgeModels(rungs: readonly { rung: Rung; file: string }[]): { spec: string; where: string }[] {
  return rungs.flatMap(({ rung, file }) => rung.steps.flatMap((step, s) => step.checks.flatMap((check, c) =>
    'judge' in check && check.judge.model !== undefined ? [{ spec: check.judge.model, where: `${file}: steps.${s}.checks.${c}.judge.model` }] : [])));
}
