// The job tools: start, list, and a capped wait. The wait is the reliability core's
// boundedWait: one call waits at most 30 s of workbench time whatever `timeoutMs` asks, and
// says how much of the caller's budget is left (README, "The reliability layer").
import { z } from 'zod';
import { boundedWait, WAIT_CAP_MS, type BoundedWaitResult } from '../reliability/boundedWait.ts';
import type { JobView } from './jobBoard.ts';
import { addTool, json, type ToolHost } from './tool.ts';

/** The schema minimum of `timeoutMs`: `remainingMs` below it is omitted, never illegal. */
export const MIN_TIMEOUT_MS = 1_000;
/** The schema maximum of `timeoutMs`: ten minutes of workbench time in total. */
const MAX_TIMEOUT_MS = 600_000;

export function registerJobs(host: ToolHost): void {
  const { jobs, time, faults, closing } = host.state;
  addTool(
    host,
    'jobs_start',
    {
      title: 'Start a job',
      description:
        `Starts a background job of the given kind (${jobs.kinds.join(', ')}) and returns its id at once. ` +
        'Jobs take a while; use jobs_wait to wait for them or jobs_list to check on them.',
      inputSchema: { kind: z.string().min(1).describe(`Job kind: one of ${jobs.kinds.join(', ')}.`) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ kind }) => json({ started: jobs.start(kind) }),
  );
  addTool(
    host,
    'jobs_list',
    {
      title: 'List jobs',
      description: 'Lists every job started so far with its status (running, done, failed) and elapsed time.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => json({ jobs: jobs.views() }),
  );
  const capSeconds = WAIT_CAP_MS / 1000;
  // Uncapped (config.waitCap false), one call may wait the schema's whole ten minutes, and its
  // description promises no cap it does not have.
  const capped = host.state.config.waitCap;
  const capText = capped
    ? `One call stops waiting after ${capSeconds} s even if timeoutMs is longer: it then returns done: false ` +
      `with remainingMs, and you should call jobs_wait again with timeoutMs set to remainingMs. `
    : '';
  // A congested board (faults.jobReadMs) makes every read of a wait slow: the case the wait's
  // one deadline and measured read reserve exist for (seed 003). Such a read is not cancelled
  // when the wait gives up on it, as a real one could not be; closing the workbench ends it.
  async function boardRead<T>(read: () => T): Promise<T> {
    const readMs = faults.jobReadMs();
    if (readMs > 0) await time.sleep(readMs, closing);
    return read();
  }
  addTool(
    host,
    'jobs_wait',
    {
      title: 'Wait for jobs',
      description:
        `Waits until the given jobs (default: every job) have finished, or until timeoutMs has passed. ` +
        capText +
        `When done, it returns every job's status and the outputs of the jobs waited on.`,
      inputSchema: {
        jobIds: z.array(z.string()).min(1).optional().describe('Job ids to wait for; default every job.'),
        // A number, not an integer: remainingMs is measured time and must always be legal here.
        timeoutMs: z
          .number()
          .min(MIN_TIMEOUT_MS)
          .max(MAX_TIMEOUT_MS)
          .default(WAIT_CAP_MS)
          .describe(`Total time you are willing to wait, in ms${capped ? `; one call waits at most ${capSeconds} s of it` : ''}.`),
        pollIntervalMs: z.int().min(100).max(10_000).default(1_000).describe('How often to check, in ms.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ jobIds, timeoutMs, pollIntervalMs }, extra) => {
      jobs.views(jobIds); // Unknown ids fail now, not after a wait.
      const result = await boundedWait({
        timeoutMs,
        capMs: capped ? WAIT_CAP_MS : MAX_TIMEOUT_MS,
        pollIntervalMs,
        minTimeoutMs: MIN_TIMEOUT_MS,
        clock: time.now,
        sleep: (ms, signal) => time.sleep(ms, signal ? AbortSignal.any([signal, extra.mcpReq.signal]) : extra.mcpReq.signal),
        readList: () => boardRead(() => jobs.views(jobIds)),
        isDone: (list) => list.every((job) => job.status !== 'running'),
        readOutputs: (list) =>
          boardRead(() => jobs.outputs(list.filter((job) => job.status !== 'running').map((job) => job.id))),
      });
      return json(waitReply(result, capSeconds));
    },
  );
}

function waitReply(
  result: BoundedWaitResult<JobView, Record<string, string>>,
  capSeconds: number,
): Record<string, unknown> {
  // JSON leaves out an undefined field, so `outputs` is absent exactly when outputsUnavailable.
  const reply: Record<string, unknown> = { done: result.done, jobs: result.list, outputs: result.outputs };
  if (result.agentsUnavailable) reply['jobsUnavailable'] = true;
  if (result.outputsUnavailable) reply['outputsUnavailable'] = true;
  if (result.remainingMs !== undefined) reply['remainingMs'] = Math.floor(result.remainingMs);
  reply['waitedMs'] = Math.round(result.elapsedMs);
  if (!result.done) {
    reply['next'] =
      result.remainingMs !== undefined
        ? `Not finished yet; one call waits at most ${capSeconds} s. Call jobs_wait again with timeoutMs: ${Math.floor(result.remainingMs)}.`
        : 'Not finished, and your timeoutMs is used up. Call jobs_wait again with a new timeoutMs to keep waiting.';
  }
  return reply;
}
