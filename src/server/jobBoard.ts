// The job board: jobs that run for a configured workbench time. A job's state is computed
// from the clock when asked, so there is no timer per job to drift or leak; one sleeper per
// job only lets the workbench react when it ends (the revealed tool).
import { digest } from './prng.ts';
import type { TimedLine } from './logs.ts';
import type { WorkbenchTime } from './time.ts';
import { ToolError } from './tool.ts';

export interface JobKind {
  durationMs: number;
  output?: string | undefined;
  fails?: boolean | undefined;
}

/** Long enough that build and test outlast one capped wait, as the long-wait rungs need. */
export const DEFAULT_JOB_KINDS: Readonly<Record<string, JobKind>> = {
  build: { durationMs: 45_000 },
  test: { durationMs: 40_000, output: 'test ok: 128 passed, 0 failed' },
  lint: { durationMs: 3_000, output: 'lint ok: 0 problems' },
};

/** A pass that starts more jobs than this is looping; refusing keeps the board small. */
const MAX_JOBS = 100;
export type JobStatus = 'running' | 'done' | 'failed';

export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  elapsedMs: number;
}

interface Job {
  id: string;
  kind: string;
  startedAt: number;
  durationMs: number;
  output: string;
  fails: boolean;
}

export class JobBoard {
  readonly #kinds: Record<string, JobKind>;
  readonly #time: WorkbenchTime;
  readonly #seed: number;
  readonly #jobs: Job[] = [];
  readonly #onFinish: () => void;
  readonly #closing: AbortSignal;

  constructor(options: {
    kinds: Record<string, JobKind>;
    time: WorkbenchTime;
    seed: number;
    onFinish: () => void;
    closing: AbortSignal;
  }) {
    this.#kinds = { ...DEFAULT_JOB_KINDS, ...options.kinds };
    this.#time = options.time;
    this.#seed = options.seed;
    this.#onFinish = options.onFinish;
    this.#closing = options.closing;
  }

  get kinds(): string[] {
    return Object.keys(this.#kinds).sort();
  }

  start(kindName: string): JobView {
    const kind = this.#kinds[kindName];
    if (!kind) throw new ToolError(`unknown job kind "${kindName}"; kinds are ${this.kinds.join(', ')}`);
    if (this.#jobs.length >= MAX_JOBS) throw new ToolError(`too many jobs: this workbench runs at most ${MAX_JOBS}`);
    const id = `job-${this.#jobs.length + 1}`;
    const job: Job = {
      id,
      kind: kindName,
      startedAt: this.#time.now(),
      durationMs: kind.durationMs,
      output: kind.output ?? `${kindName} ${kind.fails ? 'failed' : 'ok'}: ${kindName}-${digest(this.#seed, id)}`,
      fails: kind.fails ?? false,
    };
    this.#jobs.push(job);
    void this.#announceFinish(job);
    return this.#view(job, this.#time.now());
  }

  /** The jobs named by `ids` (every job when absent), as they are now. */
  views(ids?: readonly string[]): JobView[] {
    const now = this.#time.now();
    return this.#select(ids).map((job) => this.#view(job, now));
  }

  outputs(ids: readonly string[]): Record<string, string> {
    const byId = new Map(this.#jobs.map((job) => [job.id, job.output]));
    return Object.fromEntries(ids.map((id) => [id, byId.get(id) ?? '']));
  }

  /** Whether a job of `kind` has finished (done or failed). */
  finished(kind: string): boolean {
    const now = this.#time.now();
    return this.#jobs.some((job) => job.kind === kind && this.#isOver(job, now));
  }

  /** Start and finish lines for the log, at the workbench times they happened. */
  logLines(): TimedLine[] {
    const lines: TimedLine[] = [];
    for (const job of this.#jobs) {
      lines.push({ at: job.startedAt, text: `INFO  jobs: ${job.id} (${job.kind}) started` });
      const end = job.startedAt + job.durationMs;
      const verb = job.fails ? 'ERROR jobs: %s failed' : 'INFO  jobs: %s finished';
      lines.push({ at: end, text: `${verb.replace('%s', `${job.id} (${job.kind})`)}: ${job.output}` });
    }
    return lines;
  }

  #select(ids?: readonly string[]): Job[] {
    if (ids === undefined) return [...this.#jobs];
    const unknown = ids.filter((id) => !this.#jobs.some((job) => job.id === id));
    if (unknown.length > 0) {
      const known = this.#jobs.map((job) => job.id).join(', ') || 'none yet';
      throw new ToolError(`unknown job id ${unknown.join(', ')}; jobs are: ${known}`);
    }
    return this.#jobs.filter((job) => ids.includes(job.id));
  }

  #isOver(job: Job, now: number): boolean {
    return now >= job.startedAt + job.durationMs;
  }

  #view(job: Job, now: number): JobView {
    const over = this.#isOver(job, now);
    const status: JobStatus = over ? (job.fails ? 'failed' : 'done') : 'running';
    return { id: job.id, kind: job.kind, status, elapsedMs: Math.round(Math.min(now - job.startedAt, job.durationMs)) };
  }

  /** Lets the workbench react (reveal a tool) when the job ends, not only on the next call. */
  async #announceFinish(job: Job): Promise<void> {
    try {
      for (;;) {
        const left = job.startedAt + job.durationMs - this.#time.now();
        if (left <= 0) break;
        await this.#time.sleep(left, this.#closing);
      }
      this.#onFinish();
    } catch {
      // The workbench closed first: nothing is waiting for this job any more.
    }
  }
}
