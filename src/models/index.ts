// The model layer's front door: parse a spec, make its adapter.
import { AnthropicAdapter } from './anthropic.ts';
import { ModelConfigError } from './call.ts';
import type { AdapterOptions } from './call.ts';
import { OllamaAdapter } from './ollama.ts';
import { OpenAIAdapter } from './openai.ts';
import { parseModelSpec } from './spec.ts';
import type { ModelSpec } from './spec.ts';
import { createSyntheticModel } from './synthetic/index.ts';
import type { SyntheticScript } from './synthetic/index.ts';
import type { AssistantMessage, ModelAdapter, ModelResponse } from './types.ts';

export type * from './types.ts';
export { parseModelSpec, ModelSpecError, SYNTHETIC_POLICIES, REAL_PROVIDERS } from './spec.ts';
export type { ModelSpec, RealProvider, SyntheticPolicy } from './spec.ts';
export { ProviderError, DEFAULT_RETRY } from './retry.ts';
export type { ProviderErrorKind, RetryPolicy } from './retry.ts';
export { ModelConfigError, DEFAULT_TIMEOUT_MS } from './call.ts';
export type { AdapterOptions } from './call.ts';
export { OllamaAdapter, AnthropicAdapter, OpenAIAdapter };
export { buildOllamaRequest, DEFAULT_NUM_CTX } from './ollama.ts';
export type { OllamaSettings } from './ollama.ts';
export { buildOpenAIRequest } from './openai.ts';
export type { OpenAISettings } from './openai.ts';
export { buildAnthropicRequest } from './anthropic.ts';
export type { AnthropicSettings } from './anthropic.ts';
export { parseThinking, flagProblems, flagsFromSettings, passSampling, recordableUrl, MIN_THINKING_BUDGET } from './settings.ts';
export type { ModelFlags, ThinkingSetting } from './settings.ts';
export { createSyntheticModel, IMPATIENT_TIMEOUT_MS, MAX_RESENDS } from './synthetic/index.ts';
export type { SyntheticOptions, SyntheticScript, ScriptStep, ScriptCall } from './synthetic/index.ts';

/** Options of createModel: the real adapters' own, plus what a synthetic agent follows. */
export interface ModelOptions extends AdapterOptions {
  /** Synthetic agents only: the rung's reference solution, built by the runner. */
  readonly script?: SyntheticScript;
  /** Synthetic agents only: the pass's seed. */
  readonly seed?: number;
  /** Synthetic agents only: every step's prompt arrives in one user message. */
  readonly oneShot?: boolean;
}

/**
 * An adapter for a spec. A synthetic agent needs a rung's reference solution (`script`) and a
 * seed, which only the runner has; without them it cannot be made here.
 */
export function createModel(spec: string | ModelSpec, options: ModelOptions = {}): ModelAdapter {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  switch (parsed.provider) {
    case 'ollama':
      return new OllamaAdapter(parsed.model, options);
    case 'openai':
      return new OpenAIAdapter(parsed.model, options);
    case 'anthropic':
      return new AnthropicAdapter(parsed.model, options);
    case 'synthetic':
      if (options.script === undefined || options.seed === undefined) {
        throw new ModelConfigError(`${parsed.spec}: synthetic agents are built from a rung's reference solution and a seed, not by createModel alone`);
      }
      return createSyntheticModel(parsed.policy, {
        script: options.script,
        seed: options.seed,
        ...(options.oneShot === undefined ? {} : { oneShot: options.oneShot }),
        ...(options.now === undefined ? {} : { now: options.now }),
      });
  }
}

/** The model's turn as it goes back into the conversation: tool-call ids, thinking and refusal included. */
export function assistantMessage(response: ModelResponse): AssistantMessage {
  return {
    role: 'assistant',
    content: response.text,
    ...(response.toolCalls.length > 0 ? { toolCalls: response.toolCalls } : {}),
    ...(response.thinking?.length ? { thinking: response.thinking } : {}),
    ...(response.refusal === undefined ? {} : { refusal: response.refusal }),
  };
}
