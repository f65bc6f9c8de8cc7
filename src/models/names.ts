// Tool names as a provider accepts them. OpenAI and Anthropic take function names of
// [a-zA-Z0-9_-] up to 64 characters and reject the whole request otherwise; qualified MCP names
// (`server__tool`) outgrow that easily. A name that breaks the rule is sent under a name made
// from it alone, the same every time (so a trace rebuilds the same request), and a call under
// that name maps back to the exact tool. Two tools that would go out under one name are a fatal
// configuration error naming both, as a roster collision is.
import { createHash } from 'node:crypto';
import { ModelConfigError } from './call.ts';
import type { Adaptation, ToolSpec } from './types.ts';

export interface NameRule {
  /** Characters the provider refuses in a name. */
  readonly refused: RegExp;
  readonly maxLength: number;
}

// OpenAI: "Invalid 'tools[0].function.name': string does not match pattern ... '^[a-zA-Z0-9_-]+$'"
// and "string too long. Expected a string with maximum length 64" (function name rules in the
// API reference, platform.openai.com/docs/api-reference/chat/create). Anthropic: tool `name`
// "must match the regex ^[a-zA-Z0-9_-]{1,64}$" (docs.anthropic.com, tool use, "Specifying client
// tools"). One rule serves both.
export const FUNCTION_NAME_RULE: NameRule = { refused: /[^a-zA-Z0-9_-]/g, maxLength: 64 };

// 8 hex digits of sha256 tell apart the tools of any roster Ladder meets; a collision anyway is
// caught below and fatal, never a silent swap.
const HASH_CHARS = 8;

/** The name `name` goes out under: itself when the rule allows it, else a readable prefix and a hash. */
export function wireName(name: string, rule: NameRule | undefined): string {
  if (rule === undefined) return name;
  const clean = name.replace(rule.refused, '_');
  if (clean.length <= rule.maxLength && clean.length > 0) return clean;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_CHARS);
  return `${clean.slice(0, rule.maxLength - HASH_CHARS - 1)}_${hash}`;
}

/** The offered tools' names both ways, for one request. */
export class ToolNames {
  private readonly back = new Map<string, string>();
  readonly adaptations: Adaptation[] = [];

  constructor(
    tools: readonly ToolSpec[],
    private readonly rule: NameRule | undefined,
  ) {
    for (const tool of tools) {
      const sent = wireName(tool.name, rule);
      const other = this.back.get(sent);
      if (other !== undefined && other !== tool.name) {
        throw new ModelConfigError(
          `tools ${JSON.stringify(other)} and ${JSON.stringify(tool.name)} would both be sent to the provider as ` +
            `${JSON.stringify(sent)}; rename one of them or remove its server`,
        );
      }
      this.back.set(sent, tool.name);
      if (sent !== tool.name) this.adaptations.push({ kind: 'name', tool: tool.name, sent });
    }
  }

  /** The name a tool (offered or from the history) goes out under. */
  toWire(name: string): string {
    return wireName(name, this.rule);
  }

  /** The tool a name from the provider means; a name nothing was offered under stays as it is. */
  fromWire(name: string): string {
    return this.back.get(name) ?? name;
  }
}
