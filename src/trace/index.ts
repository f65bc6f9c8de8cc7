// Trace events (versioned, tagged by `type`), the JSONL writer and the streaming reader.
export * from './events.ts';
export * from './writer.ts';
export * from './reader.ts';
