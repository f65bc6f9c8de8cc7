// `--redact content`: for people whose prompts or data are private. A redacted trace keeps
// what version 1 kept (every count, time, outcome and call-key hash) plus a hash and a byte
// count for each message, and drops the text: the prompts, the model's words and arguments,
// the tool results, and the tool descriptions and schemas offered. Every figure of a report
// is the same on a redacted run; a transcript shows sizes instead of words, and a replay can
// still check each request against its hash but cannot say which message differs.
import { hash } from 'node:crypto';
import type { TraceEventInput } from './events.ts';

/** First 16 hex digits of sha256: the width of every hash in a trace. */
export function hash16(text: string): string {
  return hash('sha256', text, 'hex').slice(0, 16);
}

/** The event as a redacted trace records it; events without content come back as they are. */
export function redactEvent(event: TraceEventInput): TraceEventInput {
  switch (event.type) {
    case 'message': {
      const { content, ...rest } = event.message;
      return content === undefined ? event : { ...event, message: rest, bytes: Buffer.byteLength(content), hash: hash16(content) };
    }
    case 'model.response': {
      const { message: _dropped, adaptations, ...rest } = event;
      // An adaptation can quote what the model wrote (arguments that were not JSON): its kind and tool stay.
      return adaptations === undefined ? rest : { ...rest, adaptations: adaptations.map(({ kind, tool }) => ({ kind, ...(tool === undefined ? {} : { tool }) })) };
    }
    case 'tools.list': {
      if (event.offered === undefined) return event;
      const { offered: _dropped, ...rest } = event;
      return rest;
    }
    case 'elicitation': {
      // What the server asked and what was answered are content: the hash of the question stays.
      const { content: _dropped, message, ...rest } = event;
      return { ...rest, message: `sha256:${hash16(message)}` };
    }
    case 'pass.start':
    case 'run.start':
      return { ...event, content: 'redacted' };
    default:
      return event;
  }
}
