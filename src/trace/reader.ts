// Streams a trace back, one event at a time, without holding the file in memory.
import { createReadStream } from 'node:fs';
import { TRACE_VERSION, isEventType } from './events.ts';
import type { TraceEvent } from './events.ts';

/** The last line of a file whose writer was killed mid-write: skipped, and reported here. */
export interface TornLine {
  path: string;
  /** 1-based line number. */
  line: number;
  bytes: number;
}

/** A line that is not an event, anywhere but at the torn end of the file. */
export class TraceFormatError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    problem: string,
  ) {
    super(`${path}:${line}: ${problem}`);
    this.name = 'TraceFormatError';
  }
}

export interface ReadOptions {
  /** Called once, after the last event, when the final line was torn. */
  onTorn?: (torn: TornLine) => void;
}

export class TraceReader implements AsyncIterable<TraceEvent> {
  /** Set once iteration has reached the end of a file whose final line was torn. */
  torn: TornLine | undefined;

  constructor(
    readonly path: string,
    private readonly options: ReadOptions = {},
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<TraceEvent> {
    let pending = '';
    let line = 0;
    for await (const chunk of createReadStream(this.path, { encoding: 'utf8' })) {
      const lines = (pending + (chunk as string)).split('\n');
      pending = lines.pop()!;
      for (const text of lines) {
        line += 1;
        if (text.trim() !== '') yield this.#event(text, line);
      }
    }
    if (pending.trim() === '') return;
    line += 1;
    // Events are written as whole lines, with their newlines, so only an interrupted write
    // leaves a last line without one; if what is there still parses, it is a whole event.
    const event = this.#tryParse(pending);
    if (event === undefined) {
      this.torn = { path: this.path, line, bytes: Buffer.byteLength(pending) };
      this.options.onTorn?.(this.torn);
      return;
    }
    yield this.#event(pending, line, event);
  }

  #tryParse(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  #event(text: string, line: number, parsed: unknown = this.#tryParse(text)): TraceEvent {
    const fail = (problem: string): never => {
      throw new TraceFormatError(this.path, line, problem);
    };
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return fail('not a JSON object; the trace is damaged here');
    }
    const { v, type, t } = parsed as Record<string, unknown>;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return fail(`expected a format version "v", got ${JSON.stringify(v)}`);
    if (v > TRACE_VERSION) {
      return fail(`format version ${v} is newer than this Ladder reads (${TRACE_VERSION}); upgrade Ladder`);
    }
    if (!isEventType(type)) return fail(`unknown event type ${JSON.stringify(type)}`);
    if (typeof t !== 'number') return fail(`expected a time "t" in ms, got ${JSON.stringify(t)}`);
    return parsed as TraceEvent;
  }
}

export function readTrace(path: string, options: ReadOptions = {}): TraceReader {
  return new TraceReader(path, options);
}

/** The whole trace at once, for small files and tests. */
export async function readTraceAll(path: string): Promise<{ events: TraceEvent[]; torn: TornLine | undefined }> {
  const reader = readTrace(path);
  const events: TraceEvent[] = [];
  for await (const event of reader) events.push(event);
  return { events, torn: reader.torn };
}
