// Rules of Ollama's native /api/chat, from its server source (github.com/ollama/ollama), with its
// error bodies (`{"error": "..."}`). Ollama also changes some requests without a word; those
// are not refusals, so `quietly` returns them as notes the tests can read.
import { isObject, roughTokens } from './rules.ts';
import type { Refusal, Rule, ServerModel } from './rules.ts';

const ollamaError = (status: number, error: string): Refusal => ({ status, json: { error } });

const numCtx = (body: any, model: ServerModel): number => body?.options?.num_ctx ?? model.defaultNumCtx;

/** What the rendered prompt costs: the messages and the tools, as the fakes measure it. */
const promptTokens = (body: any) => roughTokens({ messages: body?.messages, tools: body?.tools });

export const OLLAMA_RULES: readonly Rule[] = [
  {
    id: 'decode-tool-call-arguments',
    source: 'ollama api/types.go: ToolCallFunction.Arguments is ToolCallFunctionArguments (an ordered map), decoded by ChatHandler\'s ShouldBindJSON; a decode error is a 400 (server/routes.go)',
    check: (body) => {
      for (const m of body?.messages ?? []) {
        for (const c of m?.tool_calls ?? []) {
          const args = c?.function?.arguments;
          if (args !== undefined && !isObject(args)) {
            const kind = Array.isArray(args) ? 'array' : args === null ? 'null' : typeof args;
            return ollamaError(400, `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
          }
        }
      }
      return undefined;
    },
  },
  {
    id: 'decode-parameters-type',
    source: 'ollama api/types.go: ToolFunctionParameters.Type is a string; decoding any other JSON type is a 400 (server/routes.go ChatHandler)',
    check: (body) => {
      for (const t of body?.tools ?? []) {
        const type = t?.function?.parameters?.type;
        if (type !== undefined && typeof type !== 'string') {
          return ollamaError(400, `json: cannot unmarshal ${Array.isArray(type) ? 'array' : typeof type} into Go struct field ToolFunctionParameters.tools.function.parameters.type of type string`);
        }
      }
      return undefined;
    },
  },
  {
    id: 'think-needs-capability',
    source: 'ollama server/routes.go ChatHandler: think true for a model without the thinking capability is 400 "%q does not support thinking"',
    check: (body, model) => {
      const asked = body?.think === true || typeof body?.think === 'string';
      return asked && !model.thinks ? ollamaError(400, `"${body.model}" does not support thinking`) : undefined;
    },
  },
  {
    id: 'prompt-fits-context',
    source: 'ollama api/types.go ChatRequest.Truncate ("when set to true, truncates the chat history messages if the rendered prompt exceeds the context length"); with false the prompt goes whole to llama-server, whose 400 llm/llama_server.go passes on',
    check: (body, model) => {
      if (body?.truncate !== false) return undefined;
      const tokens = promptTokens(body);
      const limit = numCtx(body, model);
      if (tokens <= limit) return undefined;
      const inner = {
        error: {
          code: 400,
          message: `request (${tokens} tokens) exceeds the available context size (${limit} tokens), try increasing it`,
          type: 'exceed_context_size_error',
          n_prompt_tokens: tokens,
          n_ctx: limit,
        },
      };
      return ollamaError(400, JSON.stringify(inner));
    },
  },
];

// Keys Ollama decodes from parameters and properties (api/types.go); the rest are dropped.
const TOP = new Set(['type', '$defs', 'items', 'required', 'properties']);
const PROPERTY = new Set(['anyOf', 'type', 'items', 'description', 'enum', 'properties', 'required']);

function droppedKeys(schema: unknown, keep: ReadonlySet<string>, path: string, out: string[]): void {
  if (!isObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (!keep.has(key)) out.push(`${path}${key}`);
    if (key === 'properties' && isObject(value)) {
      for (const [name, def] of Object.entries(value)) droppedKeys(def, PROPERTY, `${path}properties.${name}.`, out);
    }
  }
}

/**
 * What Ollama does to a request it accepts without saying so: keys of a tool schema it does not
 * decode are gone (a top-level anyOf leaves the model no arguments at all), and without
 * `truncate: false` a prompt over num_ctx loses its oldest messages (server/prompt.go chatPrompt).
 */
export function quietly(body: any, model: ServerModel): string[] {
  const notes: string[] = [];
  for (const t of body?.tools ?? []) {
    const dropped: string[] = [];
    droppedKeys(t?.function?.parameters, TOP, '', dropped);
    if (dropped.length > 0) notes.push(`${t.function.name}: dropped ${dropped.join(', ')}`);
  }
  if (body?.truncate !== false && promptTokens(body) > numCtx(body, model)) {
    notes.push(`truncated: the prompt (${promptTokens(body)} tokens) is over num_ctx ${numCtx(body, model)}; the oldest messages were dropped`);
  }
  return notes;
}
