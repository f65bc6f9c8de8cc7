// Replaying an external agent's pass. Its requests carry what changes between passes and
// machines: temporary paths, dates, session ids, the agent's own instructions and tool list
// (Codex sends its environment as a user message, and a date). Matching them whole, as the
// built-in loop's replay does by hash, would diverge every time. So a request is matched by
// the step and round the pass numbers it with (request.at), and only what the agent cannot
// vary is checked (docs/runner.md, "Replaying an external agent"):
// - the step's prompt is in one of its user messages;
// - the tool results it sends since its last user message are the recorded ones, in order
//   (scrubbed, numbers masked, as the built-in replay compares them);
// - the gateway's tools of the turn are the recorded ones.
// Everything else the agent sends (its system text, its own tools, message wrapping) is ignored.
import { canonicalJson } from '../reliability/callKey.ts';
import { maskNumbers } from '../trace/index.ts';
import type { RebuiltRequest, Scrubber } from '../trace/index.ts';
import type { ModelRequest } from './types.ts';

function resultsSinceUser(messages: readonly unknown[], scrubber: Scrubber | undefined): string[] {
  const list = messages as readonly { role?: string; content?: unknown }[];
  const from = list.findLastIndex((m) => m.role === 'user') + 1;
  return list.slice(from).filter((m) => m.role === 'tool').map((m) => {
    const text = typeof m.content === 'string' ? m.content : canonicalJson(m.content ?? null);
    return maskNumbers(scrubber === undefined ? text : scrubber.text(text));
  });
}

const QUOTE = 60;

function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE ? `${text.slice(0, QUOTE)}...` : text);
}

/** The first thing an external agent's request differs in from the recorded one, or undefined. */
export function externalDifference(recorded: RebuiltRequest, now: ModelRequest, scrubber?: Scrubber): string | undefined {
  const at = now.at;
  if (at === undefined) return 'the request has no step and round to match it by';
  const prompted = now.messages.some((m) => m.role === 'user' && m.content.includes(at.prompt));
  if (!prompted) return `no user message holds the step's prompt ${quote(at.prompt)}`;
  const was = resultsSinceUser(recorded.messages, scrubber);
  const is = resultsSinceUser(now.messages, scrubber);
  for (let i = 0; i < Math.max(was.length, is.length); i += 1) {
    if (was[i] === undefined) return `tool result ${i + 1} is new: the recorded request had ${was.length}`;
    if (is[i] === undefined) return `tool result ${i + 1} is missing: the request now has ${is.length}`;
    if (was[i] !== is[i]) return `tool result ${i + 1} differs: recorded ${quote(was[i]!)}, now ${quote(is[i]!)}`;
  }
  const names = (list: readonly string[]): string => [...list].sort().join(', ');
  const recordedTools = names(recorded.tools.map((t) => (t as { name: string }).name));
  if (recordedTools !== names(at.gatewayTools)) return `the gateway's tools differ: recorded ${recordedTools}, now ${names(at.gatewayTools)}`;
  return undefined;
}
