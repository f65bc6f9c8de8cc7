// Trace events (versioned, tagged by `type`, validated by their zod shapes), the JSONL writer
// with its scrubbing and redaction, the streaming reader, and the conversation rebuilt from it.
export * from './events.ts';
export * from './writer.ts';
export * from './reader.ts';
export * from './scrub.ts';
export * from './redact.ts';
export * from './conversation.ts';
export * from './continuity.ts';
export * from './passCheck.ts';
