// What a workbench is built from: the factory's options and the faults a rung sets. Both
// are validated up front, so a typo in a rung's fault block fails at start with the field
// named, instead of silently injecting nothing.
import { z } from 'zod';
import type { Clock, Sleep } from '../reliability/clock.ts';

const rate = z.number().min(0).max(1);
const count = z.int().min(0);
const ms = z.number().min(0).max(3_600_000);
/** Per-tool settings; the key `*` applies to every tool without its own entry. */
const perTool = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

export const FaultsSchema = z
  .object({
    /** The browser upstream is dead from the start (`true`) or after N navigations. */
    deadUpstream: z.union([z.boolean(), z.strictObject({ afterCalls: count })]).default(false),
    /** Probability that a call fails with a transient error, drawn per call from the seed. */
    errorRate: perTool(rate).default({}),
    /** The first N calls of a tool fail, then it works. */
    failFirst: perTool(count).default({}),
    /** Workbench milliseconds added before each reply. */
    latencyMs: perTool(ms).default({}),
    /** Probability that the reply is lost mid-call (HTTP only: the response stream is cut). */
    dropReply: perTool(rate).default({}),
    /** Workbench milliseconds each job-board read inside jobs_wait takes: a congested board. */
    jobReadMs: ms.default(0),
    listing: z
      .strictObject({
        /** The first N `tools/list` requests fail. */
        failFirst: count.default(0),
        /** Probability that any later listing fails. */
        failRate: rate.default(0),
        /** Workbench milliseconds a listing is held before it is answered. */
        stallMs: ms.default(0),
        /** Only the first N listings stall; absent means every listing. */
        stallFirst: count.optional(),
      })
      .prefault({}),
  })
  .strict();

export type FaultsInput = z.input<typeof FaultsSchema>;
export type Faults = z.output<typeof FaultsSchema>;

const JobKindSchema = z.strictObject({
  durationMs: ms,
  /** What the job prints when it finishes. */
  output: z.string().optional(),
  /** The job ends `failed` instead of `done`. */
  fails: z.boolean().optional(),
});

export const WorkbenchConfigSchema = z.strictObject({
  workspace: z.string().min(1),
  seed: z.int().default(0),
  faults: FaultsSchema.prefault({}),
  /** Real milliseconds per workbench millisecond; 0.01 runs a rung a hundred times faster. */
  timeFactor: z.number().positive().max(1000).default(1),
  /** The SQLite file, relative to the workspace. */
  dbFile: z.string().min(1).default('workbench.db'),
  /** SQL run once when the workbench opens (a rung's setup). */
  setupSql: z.string().optional(),
  /** Job kinds, merged over the defaults (build, test, lint). */
  jobs: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), JobKindSchema).default({}),
  /** What reveals `release_publish`: a job kind finishing, a file written; null turns one off. */
  reveal: z
    .strictObject({
      afterJob: z.string().nullable().default('build'),
      afterFile: z.string().nullable().default('release/READY'),
      /**
       * Whether clients are told (notifications/tools/list_changed). false reveals the tool
       * silently, as a server that changes its tools without saying so: a client that caches
       * the list sees it only once it asks again (harness__refresh_tools).
       */
      announce: z.boolean().default(true),
    })
    .prefault({}),
  /** The folder, relative to the workspace, that the browser upstream serves. */
  siteDir: z.string().min(1).default('site'),
  /** Workbench milliseconds between the log's background lines. */
  logIntervalMs: z.number().positive().default(2_000),
  /**
   * jobs_wait's 30 s cap. false lets one call wait as long as its timeoutMs asks: the arm
   * without the cap (src/lane/arm.ts `cap`), which the runner starts per pass.
   */
  waitCap: z.boolean().default(true),
});

export type WorkbenchConfigInput = z.input<typeof WorkbenchConfigSchema>;
export type WorkbenchConfig = z.output<typeof WorkbenchConfigSchema>;

export interface WorkbenchOptions extends WorkbenchConfigInput {
  /** Real time; `Date.now` by default. */
  clock?: Clock;
  /** Real waiting; a timer by default. */
  sleep?: Sleep;
  /** Diagnostics (never protocol): stderr by default. */
  log?: (line: string) => void;
}

/** Validates the plain part of the options; a bad value throws one RangeError naming it. */
export function parseConfig(input: WorkbenchConfigInput): WorkbenchConfig {
  const parsed = WorkbenchConfigSchema.safeParse(input);
  if (!parsed.success) throw new RangeError(describeIssues('workbench options', parsed.error));
  return parsed.data;
}

export function parseFaults(input: unknown, where = 'faults'): Faults {
  const parsed = FaultsSchema.safeParse(input);
  if (!parsed.success) throw new RangeError(describeIssues(where, parsed.error));
  return parsed.data;
}

function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      return `${where}${at}: ${issue.message}`;
    })
    .join('; ');
}
