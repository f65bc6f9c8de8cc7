// What the three formats share about tools: arguments as text, the call's result naming the
// tool it answers, and one tool per name.
import { parseToolArguments } from '../../models/arguments.ts';
import type { BodyReader } from './check.ts';

/** A call's arguments: a JSON object as `args`, anything else kept as the text the model wrote. */
export const parseArguments = parseToolArguments;

/** The arguments text a call goes back to the agent with. */
export function argumentsText(call: { args: Readonly<Record<string, unknown>>; rawArgs?: string }): string {
  return call.rawArgs ?? JSON.stringify(call.args);
}

/**
 * Two offered tools under one name: a call could not be mapped back to one of them. Anthropic
 * documents it ("Tool names must be unique", Messages API); for the OpenAI formats it is what a
 * flattened namespace name could collide with.
 */
export function uniqueTools(reader: BodyReader, offered: readonly { readonly name: string; readonly field: string }[], refuse?: () => never): void {
  const seen = new Map<string, string>();
  for (const { name, field } of offered) {
    const first = seen.get(name);
    // `refuse`: the provider's own words, where it has them; else Ladder's, naming both fields
    if (first !== undefined) (refuse ?? (() => reader.fail(field, `tool name ${JSON.stringify(name)} is offered twice (first at ${first}); tool names must be unique`)))();
    seen.set(name, field);
  }
}
