// How the gateway's tool names are found among the names an external agent offers its model.
// Each agent names MCP tools its own way: Codex offers a namespace `mcp__<server>` that the
// model gateway flattens to `mcp__ladder__wb__files_read`, Claude Code writes
// `mcp__ladder__wb__files_read`, others `ladder_wb__files_read` or the bare name. The rule
// (docs/agent.md, "How names are matched"): an offered name matches a gateway tool G when it is
// G, or ends with G right after a separator (`_`, `.`, `/`, `-`, `:`); when several gateway
// tools match one name, the longest wins (`wb__files_read` over `files_read`). A name that
// matches none is one of the agent's own tools (its shell, its file editor).
import type { ChatMessage, ModelRequest, ToolSpec } from '../models/types.ts';

const SEPARATORS = ['_', '.', '/', '-', ':'];

export interface NameMap {
  /** Offered name -> gateway name, for the tools that are the gateway's. */
  toGateway: ReadonlyMap<string, string>;
  /** Gateway name -> the name the agent offered it under. */
  toAgent: ReadonlyMap<string, string>;
}

export function matchGatewayName(offered: string, gateway: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const name of gateway) {
    const fits = offered === name
      || (offered.endsWith(name) && SEPARATORS.includes(offered.charAt(offered.length - name.length - 1)));
    if (fits && (best === undefined || name.length > best.length)) best = name;
  }
  return best;
}

export function gatewayNames(offered: readonly string[], gateway: readonly string[]): NameMap {
  const toGateway = new Map<string, string>();
  const toAgent = new Map<string, string>();
  for (const name of offered) {
    const match = matchGatewayName(name, gateway);
    if (match === undefined || toAgent.has(match)) continue;
    toGateway.set(name, match);
    toAgent.set(match, name);
  }
  return { toGateway, toAgent };
}

/**
 * The request a synthetic policy reads. A policy knows its step by the count of user messages
 * and its progress by the tool answers since the last one (src/models/synthetic/model.ts); an
 * agent's conversation has user messages of its own (Codex sends its environment as one). So the
 * policy gets as user messages the step prompts the agent's request carries (`prompts` are the
 * rung's so far, the current step's last, which the agent was just given), then what the agent
 * sent since its last user message, under the gateway's names, and only the gateway's tools: it
 * follows the rung's reference whatever the agent wraps round it. An agent that dropped the
 * earlier steps shows the policy fewer prompts, and the policy does what a model that lost them
 * would: it takes the step for the first and follows that step's reference, so the step's checks
 * see it. A tool message the gateway answered is shown as the lane answered it (`resultFor`), so
 * the policy reads failures and a capped wait's `remainingMs` whatever the agent's format kept.
 */
export function syntheticView(request: ModelRequest, prompts: readonly string[], names: NameMap,
  resultFor: (id: string) => { text: string; isError: boolean } | undefined = () => undefined): ModelRequest {
  const rename = (name: string): string => names.toGateway.get(name) ?? name;
  const sent = request.messages.flatMap((m) => (m.role === 'user' ? [m.content] : []));
  const carried = prompts.slice(0, -1).filter((prompt) => sent.some((text) => text.includes(prompt)));
  const since = request.messages.slice(request.messages.findLastIndex((m) => m.role === 'user') + 1);
  const tail = since.flatMap((message): ChatMessage[] => {
    if (message.role === 'assistant') {
      return [{ ...message, ...(message.toolCalls === undefined ? {} : { toolCalls: message.toolCalls.map((c) => ({ ...c, name: rename(c.name) })) }) }];
    }
    if (message.role === 'tool') {
      const own = resultFor(message.toolCallId);
      return [{ ...message, toolName: rename(message.toolName), ...(own === undefined ? {} : { content: own.text, isError: own.isError }) }];
    }
    return [];
  });
  const tools: ToolSpec[] = request.tools.flatMap((tool) => {
    const name = names.toGateway.get(tool.name);
    return name === undefined ? [] : [{ ...tool, name }];
  });
  return { messages: [...[...carried, ...prompts.slice(-1)].map((content): ChatMessage => ({ role: 'user', content })), ...tail], tools };
}
