// Writes events as they happen: one JSONL line per event, one write per line, so a pass
// killed mid-way leaves every event before the kill on disk and at most one torn line.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TRACE_VERSION } from './events.ts';
import type { Emit, EventType, TraceEvent, TraceEventInput } from './events.ts';

export interface StampOptions {
  /** Milliseconds on a monotonic scale; `performance.now` by default. */
  now?: () => number;
  /** `now()` at the start of the pass; defaults to `now()` when the trace is made. */
  startedAt?: number;
}

/** Stamps `v` and `t` on events; `t` keeps microseconds, which orders in-memory calls. */
function stamper(options: StampOptions): (event: TraceEventInput) => TraceEvent {
  const now = options.now ?? (() => performance.now());
  const startedAt = options.startedAt ?? now();
  return (event) => {
    const t = Math.round((now() - startedAt) * 1000) / 1000;
    // `v`, `type`, `t` first: the field order is the file format, and a reader skimming a
    // line sees what it is before what it says. Assigning `type` again keeps its place.
    return Object.assign({ v: TRACE_VERSION, type: event.type, t }, event) as TraceEvent;
  };
}

export class TraceWriter {
  readonly path: string;
  /** Bound, so it can be handed to the lane or the agent loop as is. */
  readonly emit: Emit;
  #fd: number | undefined;
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
      // Throws only when the file cannot be written: a run with a broken trace is not a result.
      writeSync(this.#fd, `${JSON.stringify(stamp(event))}\n`);
    };
  }

  /** Opens `path` for appending (creating its folder), so a resumed pass adds to its file. */
  static open(path: string, options: StampOptions = {}): TraceWriter {
    mkdirSync(dirname(path), { recursive: true });
    return new TraceWriter(path, openSync(path, 'a'), options);
  }

  /** Events emitted after close; they are not written. */
  get droppedAfterClose(): number {
    return this.#droppedAfterClose;
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  [Symbol.dispose](): void {
    this.close();
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
