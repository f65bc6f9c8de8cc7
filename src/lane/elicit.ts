// A server's requests for input, answered as a rung declares (`elicit:`). A harness has no user
// to ask, so a request is answered from the declared answers, the first whose `message` occurs
// in what the server asked, and declined when none does: a server that needs input it was not
// given sees a decline, as it would from a user who said no. Every request is recorded
// (`elicitation` events) with what was asked and how it was answered.
import type { ElicitationAnswer, ElicitationAsked } from '../mcp/client.ts';

/** One declared answer: `message` is a part of what the server asks that picks this answer. */
export interface DeclaredAnswer {
  message: string;
  action: ElicitationAnswer['action'];
  content?: ElicitationAnswer['content'];
}

/** The answer to `asked`, and whether a declared one gave it. */
export function answerFor(asked: ElicitationAsked, declared: readonly DeclaredAnswer[]): { answer: ElicitationAnswer; declared: boolean } {
  const found = declared.find((d) => asked.message.includes(d.message));
  if (found === undefined) return { answer: { action: 'decline' }, declared: false };
  const answer: ElicitationAnswer = found.action === 'accept' ? { action: 'accept', content: found.content ?? {} } : { action: found.action };
  return { answer, declared: true };
}
