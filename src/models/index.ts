// The model layer's front door: parse a spec, make its adapter.
import { AnthropicAdapter } from './anthropic.ts';
import { ModelConfigError } from './call.ts';
import type { AdapterOptions } from './call.ts';
import { OllamaAdapter } from './ollama.ts';
import { OpenAIAdapter } from './openai.ts';
import { parseModelSpec } from './spec.ts';
import type { ModelSpec } from './spec.ts';
import type { AssistantMessage, ModelAdapter, ModelResponse } from './types.ts';

export type * from './types.ts';
export { parseModelSpec, ModelSpecError, SYNTHETIC_POLICIES, REAL_PROVIDERS } from './spec.ts';
export type { ModelSpec, RealProvider, SyntheticPolicy } from './spec.ts';
export { ProviderError, DEFAULT_RETRY } from './retry.ts';
export type { ProviderErrorKind, RetryPolicy } from './retry.ts';
export { ModelConfigError, DEFAULT_TIMEOUT_MS } from './call.ts';
export type { AdapterOptions } from './call.ts';
export { OllamaAdapter, AnthropicAdapter, OpenAIAdapter };

/**
 * An adapter for one of the three real providers. Synthetic agents are not made here:
 * they need a rung's reference solution, which this layer does not see.
 */
export function createModel(spec: string | ModelSpec, options: AdapterOptions = {}): ModelAdapter {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  switch (parsed.provider) {
    case 'ollama':
      return new OllamaAdapter(parsed.model, options);
    case 'openai':
      return new OpenAIAdapter(parsed.model, options);
    case 'anthropic':
      return new AnthropicAdapter(parsed.model, options);
    case 'synthetic':
      throw new ModelConfigError(`${parsed.spec}: synthetic agents are built from a rung's reference solution, not by createModel`);
  }
}

/** The model's turn as it goes back into the conversation, tool-call ids included. */
export function assistantMessage(response: ModelResponse): AssistantMessage {
  return response.toolCalls.length > 0
    ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
    : { role: 'assistant', content: response.text };
}
