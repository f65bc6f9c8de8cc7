// Rules of /v1/chat/completions as hosted OpenAI enforces them, and of two compatible servers
// that differ: Ollama's /v1 (parses the history's tool-call arguments) and servers that refuse
// unknown fields (Mistral's API, Azure AI model inference). Error bodies as they send them.
import { isObject } from './rules.ts';
import type { Refusal, Rule } from './rules.ts';

const REFERENCE = 'https://platform.openai.com/docs/api-reference/chat/create';

function openaiError(message: string, param: string | null, code: string | null, status = 400): Refusal {
  return { status, json: { error: { message, type: 'invalid_request_error', param, code } } };
}

type Tool = { i: number; name: string; parameters: any };

function tools(body: any): Tool[] {
  return (Array.isArray(body?.tools) ? body.tools : []).map((t: any, i: number) => ({ i, name: t?.function?.name, parameters: t?.function?.parameters }));
}

function eachTool(check: (tool: Tool) => Refusal | undefined): Rule['check'] {
  return (body) => {
    for (const tool of tools(body)) {
      const refusal = check(tool);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

const UNIONS_AND_MORE = ['oneOf', 'anyOf', 'allOf', 'enum', 'const', 'not'];

export const OPENAI_RULES: readonly Rule[] = [
  {
    id: 'messages-not-empty',
    source: `${REFERENCE} (messages: "A list of messages comprising the conversation so far", minimum one)`,
    check: (body) =>
      Array.isArray(body?.messages) && body.messages.length > 0
        ? undefined
        : openaiError("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array'),
  },
  {
    id: 'function-name-pattern',
    source: `${REFERENCE} (tools[].function.name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes"); openai-node src/resources/shared.ts FunctionDefinition.name`,
    check: eachTool(({ i, name }) =>
      typeof name === 'string' && /^[a-zA-Z0-9_-]+$/.test(name)
        ? undefined
        : openaiError(
          `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
          `tools[${i}].function.name`, 'invalid_value',
        )),
  },
  {
    id: 'function-name-length',
    source: `${REFERENCE} (tools[].function.name: "with a maximum length of 64"); openai-node src/resources/shared.ts FunctionDefinition.name`,
    check: eachTool(({ i, name }) =>
      name.length <= 64
        ? undefined
        : openaiError(
          `Invalid 'tools[${i}].function.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
          `tools[${i}].function.name`, 'string_above_max_length',
        )),
  },
  {
    id: 'parameters-type-object',
    source: 'https://platform.openai.com/docs/guides/function-calling (parameters: "described as a JSON Schema object")',
    check: eachTool(({ i, name, parameters }) =>
      parameters === undefined || parameters?.type === 'object'
        ? undefined
        : openaiError(
          `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${parameters?.type ?? 'None'}"'.`,
          `tools[${i}].function.parameters`, 'invalid_function_parameters',
        )),
  },
  {
    id: 'parameters-top-level-keywords',
    source: 'https://platform.openai.com/docs/guides/function-calling (the top-level schema is an object; the API answers "not have \'oneOf\'/\'anyOf\'/\'allOf\'/\'enum\'/\'const\'/\'not\' at the top level")',
    check: eachTool(({ i, name, parameters }) =>
      !isObject(parameters) || !UNIONS_AND_MORE.some((k) => k in parameters)
        ? undefined
        : openaiError(
          `Invalid schema for function '${name}': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'const'/'not' at the top level.`,
          `tools[${i}].function.parameters`, 'invalid_function_parameters',
        )),
  },
  {
    id: 'parameters-properties',
    source: 'https://platform.openai.com/docs/guides/function-calling (an object schema lists its properties; the API answers "object schema missing properties")',
    check: eachTool(({ i, name, parameters }) =>
      !isObject(parameters) || isObject(parameters.properties)
        ? undefined
        : openaiError(`Invalid schema for function '${name}': In context=(), object schema missing properties.`, `tools[${i}].function.parameters`, 'invalid_function_parameters'),
    ),
  },
  {
    id: 'tool-answers-tool-calls',
    source: 'https://platform.openai.com/docs/guides/function-calling ("Handling function calls": each result is a tool message with the call\'s tool_call_id, after the assistant message that made the calls)',
    check: (body) => {
      let open = new Set<string>();
      for (const [i, m] of (body.messages as any[]).entries()) {
        if (m?.role === 'tool') {
          if (!open.has(m.tool_call_id)) {
            return openaiError("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`, null);
          }
          open.delete(m.tool_call_id);
          continue;
        }
        if (open.size > 0) {
          return openaiError(
            `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
            `messages.[${i}].role`, null,
          );
        }
        open = new Set(m?.role === 'assistant' ? (m.tool_calls ?? []).map((c: any) => c.id) : []);
      }
      if (open.size > 0) {
        return openaiError(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
          `messages.[${body.messages.length - 1}].role`, null,
        );
      }
      return undefined;
    },
  },
];

/** Ollama's /v1: the OpenAI rules it shares (it checks few), plus the history's arguments. */
export const OLLAMA_OPENAI_RULES: readonly Rule[] = [
  {
    id: 'tool-call-arguments-json',
    source: 'ollama openai/openai.go FromCompletionToolCall: json.Unmarshal of function.arguments, else errors.New("invalid tool call arguments"), sent as 400 by middleware/openai.go',
    check: (body) => {
      for (const m of body?.messages ?? []) {
        for (const c of m?.tool_calls ?? []) {
          try {
            const value = JSON.parse(c?.function?.arguments);
            if (!isObject(value)) throw new Error('not an object');
          } catch {
            return openaiError('invalid tool call arguments', null, null);
          }
        }
      }
      return undefined;
    },
  },
];

/** A compatible API that refuses fields it does not define, `seed` among them. */
export const EXTRA_FORBIDDEN_RULES: readonly Rule[] = [
  {
    id: 'seed-extra-forbidden',
    source: 'https://docs.mistral.ai/api/#tag/chat (no `seed`; `random_seed` instead) and its 422 "extra_forbidden" for unknown fields, as Azure AI model inference answers too',
    check: (body) =>
      body !== null && typeof body === 'object' && 'seed' in body
        ? {
          status: 422,
          json: {
            object: 'error',
            message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'seed'], msg: 'Extra inputs are not permitted', input: body.seed }] },
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        }
        : undefined,
  },
];
