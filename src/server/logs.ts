// A log that grows while the pass runs: background lines on a fixed workbench-time cadence,
// job lines from the job board, and events the tools append. Each read is itself logged, so
// two reads never return the same log: polling it is legitimate, which is why `logs_read`
// is not declared deterministic.
import { z } from 'zod';
import { chance, pick } from './prng.ts';
import { addTool, text, ToolError, type ToolHost } from './tool.ts';
import type { WorkbenchTime } from './time.ts';

export interface TimedLine {
  /** Workbench milliseconds since start. */
  at: number;
  text: string;
}

/** Background lines stop here: past it a run is looping, and each read stays cheap. */
const MAX_BACKGROUND_LINES = 10_000;
/** Lines per read: enough to page through quickly, small enough for a model's context. */
const MAX_LINES_PER_READ = 500;

const BACKGROUND: readonly ((r: (n: number) => number) => string)[] = [
  (r) => `INFO  worker: processed batch ${r(900) + 100} (${r(40) + 1} items)`,
  (r) => `DEBUG cache: hit ratio ${r(30) + 70}%`,
  (r) => `INFO  http: GET /health 200 (${r(8) + 1} ms)`,
  (r) => `WARN  db: slow query took ${r(900) + 300} ms`,
  (r) => `INFO  scheduler: heartbeat ok (${r(5) + 1} timers pending)`,
];

export class LogStream {
  readonly #time: WorkbenchTime;
  readonly #seed: number;
  readonly #intervalMs: number;
  readonly #sources: (() => TimedLine[])[] = [];
  readonly #events: TimedLine[] = [];

  constructor(time: WorkbenchTime, seed: number, intervalMs: number) {
    this.#time = time;
    this.#seed = seed;
    this.#intervalMs = intervalMs;
  }

  /** Adds lines computed at read time (the job board's start and finish lines). */
  addSource(source: () => TimedLine[]): void {
    this.#sources.push(source);
  }

  append(line: string): void {
    this.#events.push({ at: this.#time.now(), text: line });
  }

  /** Every line written so far, oldest first. */
  lines(): TimedLine[] {
    const now = this.#time.now();
    const count = Math.min(MAX_BACKGROUND_LINES, Math.floor(now / this.#intervalMs));
    const all: TimedLine[] = [];
    for (let k = 1; k <= count; k++) all.push({ at: k * this.#intervalMs, text: this.#background(k) });
    all.push(...this.#events);
    for (const source of this.#sources) all.push(...source());
    return all.filter((line) => line.at <= now).sort((a, b) => a.at - b.at);
  }

  #background(k: number): string {
    let draw = 0;
    const r = (n: number) => Math.floor(chance(this.#seed, `log:${k}`, draw++) * n);
    return pick(BACKGROUND, this.#seed, 'log-template', k)(r);
  }
}

export function formatLine(line: TimedLine): string {
  return `[+${(line.at / 1000).toFixed(3)}s] ${line.text}`;
}

export function registerLogs(host: ToolHost): void {
  const { logs } = host.state;
  addTool(
    host,
    'logs_read',
    {
      title: 'Read the service log',
      description:
        'Reads the service log, which keeps growing while the workbench runs (background work, ' +
        'jobs starting and finishing, files written). Lines are numbered from 1; pass fromLine to ' +
        'read only what is new since your last read, and contains to keep only matching lines. ' +
        'Reading twice gives different answers: that is the log growing, not an error.',
      inputSchema: {
        fromLine: z.int().min(1).default(1).describe('First line number to return (1-based).'),
        maxLines: z.int().min(1).max(MAX_LINES_PER_READ).default(100).describe('At most this many lines.'),
        contains: z.string().min(1).optional().describe('Only lines containing this text (case-sensitive).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ fromLine, maxLines, contains }) => {
      const all = logs.lines();
      if (fromLine > all.length + 1) {
        throw new ToolError(`fromLine ${fromLine} is past the end: the log has ${all.length} lines so far`);
      }
      const picked: string[] = [];
      let last = fromLine - 1;
      for (let n = fromLine; n <= all.length && picked.length < maxLines; n++) {
        last = n;
        const line = all[n - 1] as TimedLine;
        if (contains === undefined || line.text.includes(contains)) picked.push(`${n} ${formatLine(line)}`);
      }
      if (last < fromLine) {
        logs.append('DEBUG logs: a reader found no new lines');
        return text(`no lines from line ${fromLine} yet (the log has ${all.length} lines so far); read again later`);
      }
      logs.append(`DEBUG logs: a reader read lines ${fromLine}-${last}`);
      const header =
        `log lines ${fromLine}-${last} of ${all.length}` +
        (contains === undefined ? '' : ` (${picked.length} containing ${JSON.stringify(contains)})`) +
        `; the log keeps growing: read again with fromLine ${last + 1} for newer lines`;
      return text([header, ...picked].join('\n'));
    },
  );
}
