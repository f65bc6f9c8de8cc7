// The model behind the model gateway in a matrix scenario: no language model, a script that
// decides from what the agent sent (which of the scenario's tools it offered, what their calls
// answered) and asks for the calls the scenario needs, then answers. Each request is recorded as
// the model saw it, the scenario's tools found among the agent's by the marker each tool's
// description carries (`[mx:<name>]`), so a tool the agent renamed or cut is still found; by
// name when the description did not survive.
import { performance } from 'node:perf_hooks';
import type { GatewayRequest } from '../gateway/model/index.ts';
import type { ModelResponse, ToolCall } from '../models/types.ts';
import { matchGatewayName } from '../runner/externalNames.ts';

/** A tool as the agent offered it to the model. */
export interface OfferedTool {
  /** The scenario's name for it. */
  readonly tool: string;
  /** The name the agent gave the model. */
  readonly as: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** A tool result the model got, by the scenario's name for the tool. */
export interface SeenResult {
  readonly tool: string;
  readonly isError: boolean;
  /** Characters of the text the model got. */
  readonly length: number;
  /** The first and last 300 characters (all of it when shorter): what the cells read. */
  readonly head: string;
  readonly tail: string;
}

/** One model request, as the model saw it. */
export interface ModelTurn {
  readonly t: number;
  readonly step: number;
  readonly format: string;
  /** The scenario's tools offered, in the agent's order. */
  readonly offered: readonly OfferedTool[];
  /** Every tool name the agent offered, its own included. */
  readonly names: readonly string[];
  /** The results since the step's prompt, in order. */
  readonly results: readonly SeenResult[];
  /** Calls asked since the step's prompt, by the scenario's names. */
  readonly asked: readonly string[];
  /** Whether the request carried the step's prompt (an agent's side request, a session title, may not). */
  readonly hasPrompt: boolean;
  /** What the script answered: calls, or the answer's text. */
  readonly reply: { readonly calls: readonly string[] } | { readonly answer: string };
}

export interface ScriptView {
  readonly step: number;
  readonly offered: ReadonlyMap<string, OfferedTool>;
  readonly results: readonly SeenResult[];
  readonly asked: readonly string[];
  /** This step's earlier requests that carried its prompt. */
  readonly turn: number;
}

export type ScriptAction =
  | { readonly calls: readonly { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }[]; readonly delayMs?: number }
  | { readonly answer: string; readonly delayMs?: number };

export type Script = (view: ScriptView) => ScriptAction;

/** More requests than this in one step: the script answers, whatever it would do (an agent in a loop of its own). */
const MAX_TURNS_PER_STEP = 40;
const EDGE = 300;

export const marker = (tool: string): string => `[mx:${tool}]`;

/** The scenario's tool an offered name and description stand for, if any. */
export function scenarioTool(name: string, description: string, tools: readonly string[]): string | undefined {
  const marked = /\[mx:([^\]]+)\]/.exec(description)?.[1];
  if (marked !== undefined && tools.includes(marked)) return marked;
  return matchGatewayName(name, tools);
}

export interface ScriptedModel {
  readonly turns: readonly ModelTurn[];
  /** The step the runner is on; requests are counted in it. */
  step: number;
  answer(request: GatewayRequest, signal: AbortSignal): Promise<ModelResponse>;
}

export function scriptedModel(script: Script, tools: () => readonly string[], prompts: readonly string[], started: number): ScriptedModel {
  const turns: ModelTurn[] = [];
  let ids = 0;
  const model: ScriptedModel = {
    turns,
    step: 0,
    async answer(wire, signal) {
      const t0 = performance.now();
      const known = tools();
      const { messages } = wire.request;
      const prompt = prompts[model.step] ?? '';
      const at = messages.findLastIndex((m) => m.role === 'user' && m.content.includes(prompt));
      const since = at < 0 ? [] : messages.slice(at + 1);
      // By marker first, then by name among the tools no marker found: an agent's own tool whose
      // name happens to end like a scenario tool's (view_image, image) is not taken for it.
      const found = new Map<string, OfferedTool>();
      for (const byMarker of [true, false]) {
        for (const spec of wire.request.tools) {
          const marked = /\[mx:([^\]]+)\]/.exec(spec.description)?.[1];
          const tool = byMarker ? (marked !== undefined && known.includes(marked) ? marked : undefined) : marked === undefined ? matchGatewayName(spec.name, known) : undefined;
          if (tool !== undefined && !found.has(tool) && ![...found.values()].some((o) => o.as === spec.name)) found.set(tool, { tool, as: spec.name, description: spec.description, inputSchema: spec.inputSchema });
        }
      }
      const offered = wire.request.tools.flatMap((spec) => [...found.values()].filter((o) => o.as === spec.name));
      const byName = (name: string): string => scenarioTool(name, '', known) ?? offered.find((o) => o.as === name)?.tool ?? name;
      const asked: string[] = [];
      const callTool = new Map<string, string>();
      const results: SeenResult[] = [];
      for (const m of since) {
        if (m.role === 'assistant') for (const c of m.toolCalls ?? []) {
          asked.push(byName(c.name));
          callTool.set(c.id, byName(c.name));
        }
        if (m.role === 'tool') {
          results.push({
            tool: callTool.get(m.toolCallId) ?? byName(m.toolName), isError: m.isError === true, length: m.content.length,
            head: m.content.slice(0, EDGE), tail: m.content.length > EDGE ? m.content.slice(-EDGE) : m.content,
          });
        }
      }
      const turn = turns.filter((x) => x.step === model.step && x.hasPrompt).length;
      const hasPrompt = at >= 0;
      const action: ScriptAction = !hasPrompt || wire.request.tools.length === 0
        ? { answer: 'Matrix scenario' }
        : turn >= MAX_TURNS_PER_STEP ? { answer: 'Stopping: too many requests in this step.' }
        : script({ step: model.step, offered: new Map(offered.map((o) => [o.tool, o])), results, asked, turn });
      const calls: ToolCall[] = 'calls' in action
        ? action.calls.map((c) => ({ id: `call_mx${(ids += 1)}`, name: offered.find((o) => o.tool === c.tool)?.as ?? c.tool, args: c.args }))
        : [];
      turns.push({
        t: Math.round(t0 - started), step: model.step, format: wire.format, offered, names: wire.request.tools.map((s) => s.name), results, asked, hasPrompt,
        reply: 'calls' in action ? { calls: action.calls.map((c) => c.tool) } : { answer: action.answer },
      });
      if (action.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, action.delayMs).unref());
      signal.throwIfAborted();
      const text = 'answer' in action ? action.answer : '';
      return {
        text, toolCalls: calls, usage: { inputTokens: 100, outputTokens: 10 }, latencyMs: performance.now() - t0, attempts: 1, retryWaitMs: 0,
        stopReason: calls.length > 0 ? 'tool_calls' : 'end', providerStopReason: null, ignoredOptions: [],
        details: { provider: 'synthetic', policy: 'matrix', seed: 0 },
      };
    },
  };
  return model;
}
