// Streams a trace back, one event at a time, without holding the file in memory.
import { createReadStream } from 'node:fs';
import { TRACE_VERSION, isEventType } from './events.ts';
import type { TraceEvent } from './events.ts';
import { EVENT_SHAPES, SINCE_V2 } from './schema.ts';

/** The last line of a file whose writer was killed mid-write: skipped, and reported here. */
export interface TornLine {
  path: string;
  /** 1-based line number. */
  line: number;
  bytes: number;
}

/** A line that is not an event of the format, anywhere but at the torn end of the file. */
export class TraceFormatError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${path}:${line}: ${problem}`);
    this.name = 'TraceFormatError';
  }
}

const MAX_QUOTED = 60; // enough of a bad value to recognise it, not a whole tool result

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Why a parsed line is not an event of the format, in one phrase naming the field, or
 * undefined when it is one. The shape for its `type` and version decides; nothing is changed.
 */
export function eventProblem(parsed: unknown): string | undefined {
  if (parsed === undefined) return 'not JSON';
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not a JSON object';
  const { v, type, t } = parsed as Record<string, unknown>;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) return `field "v": expected a format version, got ${quote(v)}`;
  if (v > TRACE_VERSION) return `format version ${v} is newer than this Ladder reads (${TRACE_VERSION}); upgrade Ladder`;
  if (!isEventType(type)) return `field "type": unknown event type ${quote(type)}`;
  if (v < 2 && SINCE_V2.has(type)) return `field "type": ${type} events do not exist in format version ${v}`;
  if (typeof t !== 'number') return `field "t": expected a time in ms, got ${quote(t)}`;
  const result = EVENT_SHAPES[type].safeParse(parsed);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const value = valueAt(parsed, issue.path);
  const what = value === undefined ? 'missing' : `${issue.message.replace(/^Invalid input: /, '')}, got ${quote(value)}`;
  return `${type} field "${field}": ${what}`;
}

export interface ReadOptions {
  /** Called once, after the last event, when the final line was torn. */
  onTorn?: (torn: TornLine) => void;
  /**
   * Called for each line that is not an event of the format, which is then skipped and the
   * reading goes on. Without it, such a line ends the reading with a TraceFormatError.
   */
  onDamaged?: (error: TraceFormatError) => void;
}

export class TraceReader implements AsyncIterable<TraceEvent> {
  /** Set once iteration has reached the end of a file whose final line was torn. */
  torn: TornLine | undefined;
  /** 1-based line number of the event yielded last. */
  line = 0;
  /**
   * Set when the last line parsed as an event but had no newline: the writer always ends a
   * line with one, so the write was cut just short of it. Readers that decide whether a pass
   * is complete count such a pass as cut short.
   */
  unterminated = false;

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
        if (text.trim() === '') continue;
        const event = this.#event(text, line);
        if (event === undefined) continue;
        this.line = line;
        yield event;
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
    const last = this.#event(pending, line, event);
    if (last === undefined) return;
    this.line = line;
    this.unterminated = true;
    yield last;
  }

  #tryParse(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }

  /** The line's event; undefined when it is damaged and onDamaged took the problem. */
  #event(text: string, line: number, parsed: unknown = this.#tryParse(text)): TraceEvent | undefined {
    const problem = eventProblem(parsed);
    if (problem === undefined) return parsed as TraceEvent;
    const error = new TraceFormatError(this.path, line, problem);
    if (this.options.onDamaged === undefined) throw error;
    this.options.onDamaged(error);
    return undefined;
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
