// Writes a pass's events as JSONL, one line per event, in batches: a write per event cost a
// system call per tool call, the largest single part of the lane's overhead.
//
// Batching loses nothing a run depends on. A pass counts as complete only when its last event
// is `pass.end`, and resume deletes and re-runs an incomplete one; `pass.end` (and `run.end`)
// is written at once together with everything before it, so a file that ends in `pass.end`
// holds the whole pass. Everything else is written within FLUSH_MS, or when FLUSH_BYTES are
// waiting, at close, and at process exit (an uncaught error included). A process killed
// outright (SIGKILL, the OOM killer) loses at most the last FLUSH_MS of events of a pass that
// had not ended, and that pass is re-run anyway. Batches are appended in order, whole lines
// only, so a kill mid-write leaves at most one torn line, at the end.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TRACE_VERSION } from './events.ts';
import type { Emit, EventType, TraceEvent, TraceEventInput } from './events.ts';
import { redactEvent } from './redact.ts';
import type { Scrubber } from './scrub.ts';

/** About two hundred tool calls' events per write, so the system call is amortised. */
export const FLUSH_BYTES = 64 * 1024;
/** How far a file being watched may lag behind the pass, and all a hard kill can lose. */
export const FLUSH_MS = 100;
/** The events after which a file is whole; they are on disk before emit returns. */
const ENDS_A_FILE: ReadonlySet<EventType> = new Set(['pass.end', 'run.end']);

export interface StampOptions {
  /** Milliseconds on a monotonic scale; `performance.now` by default. */
  now?: () => number;
  /** `now()` at the start of the pass; defaults to `now()` when the trace is made. */
  startedAt?: number;
  /** Secrets and the workspace path, taken out of every string before it is written. */
  scrubber?: Scrubber;
  /** `redacted`: hashes and byte counts instead of the conversation (`--redact content`). */
  content?: 'full' | 'redacted';
}

/**
 * Scrubs, redacts and stamps `v` and `t` on events; `t` keeps microseconds, which orders
 * in-memory calls.
 */
function stamper(options: StampOptions): (event: TraceEventInput) => TraceEvent {
  const now = options.now ?? (() => performance.now());
  const startedAt = options.startedAt ?? now();
  const scrubber = options.scrubber?.empty === false ? options.scrubber : undefined;
  const redact = options.content === 'redacted';
  return (input) => {
    const t = Math.round((now() - startedAt) * 1000) / 1000;
    const scrubbed = scrubber === undefined ? input : scrubber.deep(input);
    const event = redact ? redactEvent(scrubbed) : scrubbed;
    // `v`, `type`, `t` first: the field order is the file format, and a reader skimming a
    // line sees what it is before what it says. Assigning `type` again keeps its place.
    return Object.assign({ v: TRACE_VERSION, type: event.type, t }, event) as TraceEvent;
  };
}

/** Writers with events not yet on disk, flushed when the process exits (unless it is killed outright). */
const unflushed = new Set<TraceWriter>();
let exitHookInstalled = false;

function flushAllOnExit(): void {
  for (const writer of unflushed) {
    try {
      writer.flush();
    } catch (error) {
      // Throwing here would replace the exit code of whatever is ending the process.
      process.stderr.write(`trace: could not write ${writer.path}: ${(error as Error).message}\n`);
    }
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  // A regular file takes a whole write unless the disk is full (which throws); the loop is
  // for the short write POSIX still allows, so a batch is never cut short silently.
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

export class TraceWriter {
  readonly path: string;
  /** Bound, so it can be handed to the lane or the agent loop as is. */
  readonly emit: Emit;
  #fd: number | undefined;
  #pending = '';
  #timer: NodeJS.Timeout | undefined;
  /** A timed flush that failed; thrown to the next caller, as a failed write always was. */
  #failure: Error | undefined;
  #droppedAfterClose = 0;

  private constructor(path: string, fd: number, options: StampOptions) {
    this.path = path;
    this.#fd = fd;
    const stamp = stamper(options);
    this.emit = (event) => {
      if (this.#fd === undefined) {
        // A call that resolves after its pass was torn down; counted, never written out of order.
        this.#droppedAfterClose += 1;
        return;
      }
      if (this.#failure !== undefined) throw this.#failure;
      this.#pending += `${JSON.stringify(stamp(event))}\n`;
      if (ENDS_A_FILE.has(event.type) || this.#pending.length >= FLUSH_BYTES) this.flush();
      else this.#schedule();
    };
  }

  /** Opens `path` for appending (creating its folder), so a resumed pass adds to its file. */
  static open(path: string, options: StampOptions = {}): TraceWriter {
    mkdirSync(dirname(path), { recursive: true });
    if (!exitHookInstalled) {
      process.on('exit', flushAllOnExit);
      exitHookInstalled = true;
    }
    return new TraceWriter(path, openSync(path, 'a'), options);
  }

  /** Events emitted after close; they are not written. */
  get droppedAfterClose(): number {
    return this.#droppedAfterClose;
  }

  /**
   * Puts every event emitted so far on disk now. Throws only when the file cannot be
   * written: a run with a broken trace is not a result.
   */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    unflushed.delete(this);
    if (this.#fd === undefined || this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    writeAll(this.#fd, text);
  }

  /** Flushes, then closes the file; later events are counted in droppedAfterClose. */
  close(): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    try {
      this.flush();
      if (this.#failure !== undefined) throw this.#failure;
    } finally {
      closeSync(fd);
      this.#fd = undefined;
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    unflushed.add(this);
    // Unref'd: a pending flush never keeps the process alive; the exit hook writes it instead.
    this.#timer = setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        this.#failure = error as Error;
      }
    }, FLUSH_MS).unref();
  }
}

/** Keeps events in memory: for tests, and for callers that read a pass back as it runs. */
export class MemoryTrace {
  readonly events: TraceEvent[] = [];
  readonly emit: Emit;

  constructor(options: StampOptions = {}) {
    const stamp = stamper(options);
    this.emit = (event) => {
      this.events.push(stamp(event));
    };
  }

  ofType<T extends EventType>(type: T): Extract<TraceEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
  }
}
