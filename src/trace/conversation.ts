// The conversation of a pass, rebuilt from its events: every request the model was sent, in
// Ladder's provider-neutral form, exactly as the agent loop built it. An adapter turns such a
// request into its provider's wire body, so the bodies are rebuilt too (tested byte for byte
// against what the local provider servers received).
//
// The rule that makes it exact: a request's messages are every `message` event and every
// assistant message (on a `model.response`) before it in the pass, in trace order; its tools
// are the last `offered` list of a `tools.list` before it; its options are its own. An external
// agent's request marked `restart` (it did not go on from what was recorded before it: an agent
// started again for a step) is only the messages recorded since the last `model.response`, and
// the requests after it go on from there.
import { canonicalJson } from '../reliability/callKey.ts';
import type { RecordedAssistantMessage, RecordedMessage, RecordedToolSpec, TraceEvent } from './events.ts';
import { hash16 } from './redact.ts';
import type { Scrubber } from './scrub.ts';

export type ConversationMessage = RecordedMessage | RecordedAssistantMessage;

/** The neutral request, as the agent loop hands it to a model adapter. */
export interface RequestContent {
  readonly messages: readonly unknown[];
  readonly tools: readonly unknown[];
  readonly options?: unknown;
}

/**
 * A tool result with its numbers masked. A tool that reads a clock answers with other numbers
 * every run (a job's `elapsedMs`); a replay must not diverge on them, or no run with such a
 * tool could be replayed. Prompts, the model's own turns and the tools offered match exactly.
 */
export function maskNumbers(text: string): string {
  return text.replace(/\d+/g, '0');
}

function masked(message: unknown): unknown {
  const m = message as { role?: unknown; content?: unknown };
  return m.role === 'tool' && typeof m.content === 'string' ? { ...m, content: maskNumbers(m.content) } : message;
}

/**
 * The hash a `model.request` records and a replay checks: of the request's canonical JSON
 * (keys sorted), after the same scrubbing the trace gets (so another machine's temporary
 * folder hashes the same), with the numbers in tool results masked (maskNumbers).
 */
export function requestHash(request: RequestContent, scrubber?: Scrubber): string {
  const content = { messages: request.messages, tools: request.tools, options: request.options ?? {} };
  // Scrubbed first: a temporary path has digits of its own.
  const scrubbed = scrubber === undefined ? content : scrubber.deep(content);
  return hash16(canonicalJson({ ...scrubbed, messages: scrubbed.messages.map(masked) }));
}

export interface RebuiltRequest {
  step: number;
  round: number;
  /** `t` of the model.request event. */
  t: number;
  messages: ConversationMessage[];
  tools: RecordedToolSpec[];
  options?: Record<string, unknown>;
  /** The recorded hash (version 2). */
  hash?: string;
  /** False when some content was not recorded (a version-1 or redacted trace). */
  complete: boolean;
}

/** Feeds on one pass's events in order and yields each request as it is reached. */
export class ConversationBuilder {
  readonly messages: ConversationMessage[] = [];
  #tools: RecordedToolSpec[] = [];
  #toolsKnown = false;
  #complete = true;
  /** How many messages there were at the last model.response: where a `restart` request begins. */
  #answered = 0;

  /** The request a model.request event stands for, or undefined for any other event. */
  add(event: TraceEvent): RebuiltRequest | undefined {
    switch (event.type) {
      case 'pass.start':
        if (event.content !== 'full') this.#complete = false;
        return undefined;
      case 'message':
        if (event.message.content === undefined) this.#complete = false;
        this.messages.push(event.message);
        return undefined;
      case 'model.response':
        if (event.message !== undefined) this.messages.push(event.message);
        else if (event['error.type'] === undefined) this.#complete = false;
        this.#answered = this.messages.length;
        return undefined;
      case 'tools.list':
        if (event.offered !== undefined) {
          this.#tools = event.offered;
          this.#toolsKnown = true;
        } else if (!this.#toolsKnown && event.tools > 0) {
          this.#complete = false;
        }
        return undefined;
      case 'model.request':
        if (event.restart === true) {
          this.messages.splice(0, this.#answered);
          this.#answered = 0;
        }
        return {
          step: event.step,
          round: event.round,
          t: event.t,
          messages: [...this.messages],
          tools: event.tools === 0 ? [] : this.#tools,
          ...(event.options === undefined ? {} : { options: event.options }),
          ...(event.hash === undefined ? {} : { hash: event.hash }),
          complete: this.#complete,
        };
      default:
        return undefined;
    }
  }
}

/** Every request of one pass's events (events of one pass only, from its pass.start on). */
export function rebuildRequests(events: Iterable<TraceEvent>): RebuiltRequest[] {
  const builder = new ConversationBuilder();
  const requests: RebuiltRequest[] = [];
  for (const event of events) {
    const request = builder.add(event);
    if (request !== undefined) requests.push(request);
  }
  return requests;
}
