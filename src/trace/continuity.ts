// Whether a step's first model request carried the earlier steps of its pass. A rung is one
// conversation in several steps ("Tag that commit" leans on the commit step 1 found), so an
// external agent that starts each step as a new conversation is measured on a different task
// from the built-in loop. The request is read, not the agent's word: it carried the earlier
// steps when every earlier step's prompt is in one of its user messages and every tool result
// the agent's requests of those steps sent back is among its tool messages (as many times as
// it was sent). An agent that keeps its conversation re-sends all of it; one that starts again
// has only its own prompt. Pure: the runner reads it when the request arrives (it records the
// answer on step.end as `carried`), and a test can read it from any conversation.

/** What an earlier step put into the conversation, as the agent's own requests of that step held it. */
export interface EarlierStep {
  /** The step's prompt, as the rung gives it (the agent may wrap it in text of its own). */
  readonly prompt: string;
  /** The tool results the step's requests carried after its prompt, as the agent sent them. */
  readonly toolResults: readonly string[];
}

/** A message of a request in the neutral shape: only role and text content are read. */
export interface ReadMessage {
  readonly role: string;
  readonly content?: unknown;
}

export type Continuity = { readonly carried: true } | { readonly carried: false; readonly missing: string };

function texts(messages: readonly ReadMessage[], role: string): string[] {
  return messages.flatMap((m) => (m.role === role && typeof m.content === 'string' ? [m.content] : []));
}

/**
 * Reads whether `messages` (a step's first request) carried every step in `earlier`, and if
 * not, the first thing it lost: `step 1's prompt` or `a tool result of step 2` (1-based, as
 * reports number steps).
 */
export function carriedOver(earlier: readonly EarlierStep[], messages: readonly ReadMessage[]): Continuity {
  const prompts = texts(messages, 'user');
  const results = new Map<string, number>();
  for (const text of texts(messages, 'tool')) results.set(text, (results.get(text) ?? 0) + 1);
  for (const [i, step] of earlier.entries()) {
    if (!prompts.some((text) => text.includes(step.prompt))) return { carried: false, missing: `step ${i + 1}'s prompt` };
    for (const result of step.toolResults) {
      const left = results.get(result) ?? 0;
      if (left === 0) return { carried: false, missing: `a tool result of step ${i + 1}` };
      results.set(result, left - 1);
    }
  }
  return { carried: true };
}

/**
 * What a step put into the conversation, read from its last request: its prompt, and the tool
 * results after the last user message that holds it. A step whose agent never asked the model
 * (`last` undefined) put nothing in and is left out: there was no conversation to carry.
 */
export function earlierStep(prompt: string, last: readonly ReadMessage[] | undefined): EarlierStep | undefined {
  if (last === undefined) return undefined;
  const from = last.findLastIndex((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(prompt));
  return { prompt, toolResults: from < 0 ? [] : texts(last.slice(from + 1), 'tool') };
}
