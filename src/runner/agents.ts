// The agent a pass drives. Synthetic agents follow the rung's reference solution with their
// policy's pathology (src/models/synthetic/); real models get the same seed the pass has.
import { createModel, passSampling } from '../models/index.ts';
import type { AdapterOptions, ModelAdapter, ModelFlags, ModelResponse, ModelSettings, SamplingOptions } from '../models/index.ts';
import { createSyntheticModel } from '../models/synthetic/index.ts';
import type { SyntheticScript } from '../models/synthetic/index.ts';
import type { AgentFile } from '../agents/index.ts';
import type { Rung } from '../rungs/schema.ts';
import type { Scrubber } from '../trace/index.ts';
import type { ModelChoice } from './model.ts';
import type { PassId } from './plan.ts';
import { substituteDeep } from './servers.ts';

export interface PassAgent {
  model: ModelAdapter;
  sampling?: SamplingOptions;
  /** `--agent`: the external agent that runs the steps, answered by `model` through the model gateway. */
  external?: AgentFile;
}

/** What a pass's agent is made for. */
export interface PassAgentInput {
  rung: Rung;
  id: PassId;
  /** The pass's folder: fills `{workspace}` in reference arguments. */
  workspace: string;
  oneShot: boolean;
  /** What the pass's trace scrubs; a replay hashes requests with it, as the recording did. */
  scrubber: Scrubber;
}

/** Makes the agent of one pass. */
export type AgentFactory = (input: PassAgentInput) => PassAgent | Promise<PassAgent>;

export function scriptOf(rung: Rung, workspace: string): SyntheticScript {
  return {
    steps: rung.steps.map((step) => ({
      calls: step.reference.calls.map((call) => ({
        tool: call.tool,
        args: substituteDeep(call.args, workspace) as Record<string, unknown>,
        ...(rung.deterministic.includes(call.tool) ? { deterministic: true } : {}),
      })),
      answer: step.reference.answer,
    })),
  };
}

/**
 * `flags` are --base-url, --thinking and --num-ctx; `ladder doctor` makes its adapter from the
 * same flags through the same createModel, and sends the same passSampling. `world`: seams for
 * tests (the retry policy's sleep).
 */
export function agentFactory(choice: ModelChoice, flags: ModelFlags = {}, world: AdapterOptions = {}): AgentFactory {
  if (choice.synthetic) {
    return ({ rung, id, workspace, oneShot }) => {
      const policy = choice.policy === 'mix' || choice.policy === undefined ? rung.syntheticPolicy : choice.policy;
      const p = choice.p === undefined ? {} : { p: choice.p };
      return { model: createSyntheticModel(policy, { script: scriptOf(rung, workspace), seed: id.seed, oneShot, workspace, ...p }) };
    };
  }
  // Fails now, before any folder exists, when a key or URL is missing.
  createModel(choice.spec, { ...world, ...flags });
  return ({ id }) => ({ model: createModel(choice.spec, { ...world, ...flags }), sampling: passSampling(id.seed) });
}

/** What a real model's adapter resolved from the flags, for the manifest; none for synthetic agents. */
export function modelSettings(choice: ModelChoice, flags: ModelFlags = {}): ModelSettings | undefined {
  return choice.synthetic ? undefined : createModel(choice.spec, flags).settings;
}

/**
 * The agent that does nothing: answers '' at once and calls no tool. `ladder rungs validate`
 * requires every step's outcome checks to fail on it, so no check passes by default.
 */
export const idleAgent: AgentFactory = () => ({ model: new IdleModel() });

class IdleModel implements ModelAdapter {
  readonly spec = 'synthetic:idle';
  readonly provider = 'synthetic' as const;
  readonly model = 'idle';

  async complete(): Promise<ModelResponse> {
    return {
      text: '', toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, attempts: 1, retryWaitMs: 0,
      stopReason: 'end', providerStopReason: null, ignoredOptions: [], details: { provider: 'synthetic', policy: 'idle', seed: 0 },
    };
  }
}
