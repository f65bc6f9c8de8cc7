// Rules of Anthropic's /v1/messages, with its error bodies. Consecutive turns of one role are
// combined first, as the API documents, and the tool and thinking rules are checked on the
// combined turns. Thinking blocks this server hands out carry a signature made from their text,
// so a block sent back altered (or made up) is refused as the real API refuses it.
import { createHash } from 'node:crypto';
import { isObject } from './rules.ts';
import type { Refusal, Rule } from './rules.ts';

const MESSAGES_REFERENCE = 'https://platform.claude.com/docs/en/api/messages';
const TOOL_USE = 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use';
const THINKING = 'https://platform.claude.com/docs/en/build-with-claude/extended-thinking';

function anthropicError(message: string): Refusal {
  return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_fake' } };
}

const mac = (text: string) => createHash('sha256').update(`ladder-fake-anthropic:${text}`).digest('base64url').slice(0, 43);

/** A thinking block as this server returns it: its signature is only valid for this text. */
export function thinkingBlock(thinking: string) {
  return { type: 'thinking' as const, thinking, signature: `sig_${mac(thinking)}` };
}

/** A redacted-thinking block as this server returns it: opaque data it can verify. */
export function redactedBlock(payload: string) {
  const data = Buffer.from(payload).toString('base64');
  return { type: 'redacted_thinking' as const, data: `${data}.${mac(data)}` };
}

function validRedacted(data: unknown): boolean {
  if (typeof data !== 'string') return false;
  const [payload, tag] = data.split('.');
  return payload !== undefined && tag === mac(payload);
}

interface Turn {
  readonly role: string;
  readonly blocks: any[];
  /** Index of the first request message of the turn, for error paths. */
  readonly at: number;
}

/** Messages as the API reads them: string content as one text block, same-role runs combined. */
function turns(body: any): Turn[] {
  const out: { role: string; blocks: any[]; at: number }[] = [];
  for (const [i, m] of (Array.isArray(body?.messages) ? body.messages : []).entries()) {
    const blocks = typeof m?.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m?.content) ? m.content : [];
    const last = out.at(-1);
    if (last !== undefined && last.role === m?.role) last.blocks.push(...blocks);
    else out.push({ role: m?.role, blocks: [...blocks], at: i });
  }
  return out;
}

function eachTool(check: (tool: any, i: number) => Refusal | undefined): Rule['check'] {
  return (body) => {
    for (const [i, tool] of (Array.isArray(body?.tools) ? body.tools : []).entries()) {
      const refusal = check(tool, i);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

const thinkingOn = (body: any) => body?.thinking?.type === 'enabled' || body?.thinking?.type === 'adaptive';

/** The last assistant turn, when it is followed only by the user turn that answers it. */
function finalAssistant(all: Turn[]): { turn: Turn; index: number } | undefined {
  const index = all.findLastIndex((t) => t.role === 'assistant');
  return index < 0 ? undefined : { turn: all[index]!, index };
}

export const ANTHROPIC_RULES: readonly Rule[] = [
  {
    id: 'max-tokens-required',
    source: `${MESSAGES_REFERENCE} (max_tokens: required); @anthropic-ai/sdk MessageCreateParamsBase.max_tokens is not optional`,
    check: (body) => (typeof body?.max_tokens === 'number' ? undefined : anthropicError('max_tokens: Field required')),
  },
  {
    id: 'tool-name',
    source: `${TOOL_USE} (name: "must match the regex ^[a-zA-Z0-9_-]{1,64}$")`,
    check: eachTool((tool, i) =>
      typeof tool?.name === 'string' && /^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)
        ? undefined
        : anthropicError(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`)),
  },
  {
    id: 'input-schema-object',
    source: `${TOOL_USE} (input_schema: "A JSON Schema object"); @anthropic-ai/sdk Tool.InputSchema.type: 'object'`,
    check: eachTool((tool, i) => {
      if (!isObject(tool?.input_schema) || tool.input_schema.type === undefined) return anthropicError(`tools.${i}.custom.input_schema.type: Field required`);
      return tool.input_schema.type === 'object' ? undefined : anthropicError(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    }),
  },
  {
    id: 'input-schema-top-level-union',
    source: `${TOOL_USE} (input_schema is one object schema; the API answers "does not support oneOf, allOf, or anyOf at the top level")`,
    check: eachTool((tool, i) =>
      ['oneOf', 'allOf', 'anyOf'].some((k) => k in tool.input_schema)
        ? anthropicError(`tools.${i}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`)
        : undefined),
  },
  {
    id: 'thinking-budget',
    source: `${THINKING} (budget_tokens "must be ≥1024 and less than max_tokens"); @anthropic-ai/sdk ThinkingConfigEnabled.budget_tokens`,
    check: (body) => {
      if (body?.thinking?.type !== 'enabled') return undefined;
      const budget = body.thinking.budget_tokens;
      if (!(budget >= 1024)) return anthropicError('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
      if (budget >= body.max_tokens) {
        return anthropicError(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING}#max-tokens-and-context-window-size`);
      }
      return undefined;
    },
  },
  {
    id: 'thinking-type-for-model',
    source: '@anthropic-ai/sdk ThinkingConfigParam ("Which `type` values are accepted, and what happens when you omit `thinking`, depend on the model"); https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking',
    check: (body, model) => {
      const type = body?.thinking?.type ?? 'disabled';
      if (model.adaptiveOnly && type === 'enabled') {
        return anthropicError('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
      }
      if (model.mustThink && type === 'disabled') return anthropicError('"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive".');
      return undefined;
    },
  },
  {
    id: 'text-not-blank',
    source: `${MESSAGES_REFERENCE} (text blocks carry text); the API answers "text content blocks must be non-empty" and "must contain non-whitespace text"`,
    check: (body) => {
      for (const turn of turns(body)) {
        for (const block of turn.blocks) {
          if (block?.type !== 'text') continue;
          if (block.text === '') return anthropicError('messages: text content blocks must be non-empty');
          if (String(block.text).trim() === '') return anthropicError('messages: text content blocks must contain non-whitespace text');
        }
      }
      return undefined;
    },
  },
  {
    id: 'error-result-not-empty',
    source: `${TOOL_USE} ("Handling errors": an error result says what went wrong, in content, with is_error true)`,
    check: (body) => {
      for (const turn of turns(body)) {
        for (const [j, block] of turn.blocks.entries()) {
          const content = block?.content;
          const empty = content === undefined || content === '' || (Array.isArray(content) && content.length === 0);
          if (block?.type === 'tool_result' && block.is_error === true && empty) {
            return anthropicError(`messages.${turn.at}.content.${j}.tool_result: content cannot be empty if \`is_error\` is true`);
          }
        }
      }
      return undefined;
    },
  },
  {
    id: 'tool-result-follows-tool-use',
    source: `${TOOL_USE} ("tool_result blocks must immediately follow their corresponding tool_use blocks", "must come FIRST in the content array")`,
    check: (body) => {
      const all = turns(body);
      for (const [k, turn] of all.entries()) {
        const previous = all[k - 1];
        const asked = previous?.role === 'assistant' ? previous.blocks.filter((b) => b?.type === 'tool_use').map((b) => b.id) : [];
        const answered = turn.blocks.filter((b) => b?.type === 'tool_result').map((b) => b.tool_use_id);
        const stray = answered.filter((id) => !asked.includes(id));
        if (turn.role === 'user' && stray.length > 0) {
          const j = turn.blocks.findIndex((b) => b?.type === 'tool_result' && stray.includes(b.tool_use_id));
          return anthropicError(
            `messages.${turn.at}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
        if (asked.length === 0) continue;
        const missing = asked.filter((id) => !answered.includes(id));
        if (turn.role !== 'user' || missing.length > 0) {
          return anthropicError(
            `messages.${previous!.at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          );
        }
        const leading = turn.blocks.findIndex((b) => b?.type !== 'tool_result');
        if (leading >= 0 && leading < asked.length) {
          return anthropicError(
            `messages.${turn.at}: Did not find ${asked.length} tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.`,
          );
        }
      }
      const last = all.at(-1);
      if (last?.role === 'assistant' && last.blocks.some((b) => b?.type === 'tool_use')) {
        const ids = last.blocks.filter((b) => b?.type === 'tool_use').map((b) => b.id);
        return anthropicError(
          `messages.${last.at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      return undefined;
    },
  },
  {
    id: 'thinking-unmodified',
    source: `${THINKING} ("Preserving thinking blocks": pass them back unmodified); @anthropic-ai/sdk ThinkingBlockParam: "a modified block results in a 400 invalid_request_error"`,
    check: (body) => {
      for (const turn of turns(body)) {
        for (const [j, block] of turn.blocks.entries()) {
          if (block?.type === 'thinking' && block.signature !== `sig_${mac(String(block.thinking))}`) {
            return anthropicError(`messages.${turn.at}.content.${j}: Invalid \`signature\` in \`thinking\` block`);
          }
          if (block?.type === 'redacted_thinking' && !validRedacted(block.data)) {
            return anthropicError(`messages.${turn.at}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`);
          }
        }
      }
      return undefined;
    },
  },
  {
    id: 'thinking-starts-final-tool-turn',
    source: `${THINKING} ("Extended thinking with tool use": the last assistant turn's thinking blocks go back with the tool results)`,
    check: (body) => {
      const final = finalAssistant(turns(body));
      if (!thinkingOn(body) || final === undefined || !final.turn.blocks.some((b) => b?.type === 'tool_use')) return undefined;
      const first = final.turn.blocks[0];
      if (first?.type === 'thinking' || first?.type === 'redacted_thinking') return undefined;
      return anthropicError(
        `messages.${final.turn.at}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING}`,
      );
    },
  },
  {
    id: 'no-thinking-when-off',
    source: `${THINKING} (thinking blocks belong to requests with thinking on); the API answers "When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`"`,
    check: (body) => {
      const final = finalAssistant(turns(body));
      if (thinkingOn(body) || final === undefined) return undefined;
      const j = final.turn.blocks.findIndex((b) => b?.type === 'thinking' || b?.type === 'redacted_thinking');
      return j < 0
        ? undefined
        : anthropicError(
          `messages.${final.turn.at}.content.${j}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`,
        );
    },
  },
];
