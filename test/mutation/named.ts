// Named behavioural mutations: each breaks one behaviour a benchmark's numbers or a mechanism's
// contract depends on, the way a developer might, and names the tests that must notice.
// `npm run mutate:named` (scripts/mutate-named.ts) applies each alone to a scratch copy and
// fails when one fails no test. The wait-cap rows carry the names its review gave them.
//
// An edit is an exact search and replace that must match once: when the code moves, the
// mutation fails to apply and the battery says so, so this list cannot silently go stale.

export interface NamedMutation {
  name: string;
  /** The one file changed, from the repository root. */
  file: string;
  edits: readonly { search: string; replace: string }[];
  /** The behaviour the change breaks. */
  breaks: string;
  /** Why a benchmark or a user would suffer from it. */
  why: string;
  /** The test files run against it. */
  tests: readonly string[];
}

const WAIT = 'src/reliability/boundedWait.ts';
const JOBS = 'src/server/jobs.ts';
const WAIT_TESTS = ['test/reliability/boundedWait.test.ts', 'test/server/jobsWait.test.ts', 'test/server/jobs.test.ts', 'test/server/waitCap.test.ts'];
const DEADLINE = 'const deadline = startedAt + Math.min(timeoutMs, capMs);';
const REMAINING = 'if (!done && remainingMs >= minTimeoutMs) result.remainingMs = remainingMs;';
const IN_LOOP_READ = 'const read = await beforeDeadline(() => readList());';

/** The wait cap (DESIGN.md "Cap"), in the rows its review named and the rounds after. */
const WAIT_CAP: NamedMutation[] = [
  {
    name: 'no cap (the bug)', file: WAIT, edits: [{ search: DEADLINE, replace: 'const deadline = startedAt + timeoutMs;' }],
    breaks: 'one call waits as long as timeoutMs asks', why: 'a reply that outlives the client timeout is lost with all it learnt', tests: WAIT_TESTS,
  },
  {
    name: 'cap a short wait too', file: WAIT, edits: [{ search: DEADLINE, replace: 'const deadline = startedAt + capMs;' }],
    breaks: 'a timeout inside the cap waits the whole cap', why: 'an ordinary short wait would overrun what the caller asked for', tests: WAIT_TESTS,
  },
  {
    name: 'cap only above 150 s', file: WAIT,
    edits: [{ search: DEADLINE, replace: 'const deadline = startedAt + (timeoutMs > 150_000 ? capMs : timeoutMs);' }],
    breaks: 'the 100 s retry from the incident is not capped', why: 'the exact wait that was lost would be lost again', tests: WAIT_TESTS,
  },
  {
    name: 'cap back to 90 s', file: WAIT, edits: [{ search: 'export const WAIT_CAP_MS = 30_000;', replace: 'export const WAIT_CAP_MS = 90_000;' }],
    breaks: 'the cap sits above the SDK\'s 60 s default request timeout', why: 'a client on defaults would lose every capped reply', tests: WAIT_TESTS,
  },
  {
    name: 'never report the cap', file: WAIT, edits: [{ search: REMAINING, replace: '' }],
    breaks: 'a cut-short wait gives no remainingMs', why: 'the caller cannot tell "call again" from "your budget is spent"', tests: WAIT_TESTS,
  },
  {
    name: 'report the cap when the run completed', file: WAIT,
    edits: [{ search: REMAINING, replace: 'if (remainingMs >= minTimeoutMs) result.remainingMs = remainingMs;' }],
    breaks: 'a finished wait still says how much is left', why: 'it invites a second wait for jobs that are already done', tests: WAIT_TESTS,
  },
  {
    name: 'remainingMs below the schema minimum', file: WAIT, edits: [{ search: REMAINING, replace: 'if (!done) result.remainingMs = remainingMs;' }],
    breaks: 'remainingMs can be below the minimum timeoutMs', why: 'following the reply literally gets a validation error', tests: WAIT_TESTS,
  },
  {
    name: 'remainingMs clamped up to the minimum', file: WAIT,
    edits: [{ search: REMAINING, replace: 'if (!done) result.remainingMs = Math.max(remainingMs, minTimeoutMs);' }],
    breaks: 'a spent budget is rounded up to a second', why: 'it grants budget the caller never had', tests: WAIT_TESTS,
  },
  {
    name: 'remainingMs reports the cap', file: WAIT,
    edits: [{ search: 'const remainingMs = timeoutMs - elapsedMs;', replace: 'const remainingMs = capMs;' }],
    breaks: 'remainingMs is the cap, not what is left', why: 'the caller re-waits a budget it already spent', tests: WAIT_TESTS,
  },
  {
    name: 'unclamped sleep', file: WAIT,
    edits: [{ search: 'sleep(Math.min(pollIntervalMs, spareMs), signal)', replace: 'sleep(pollIntervalMs, signal)' }],
    breaks: 'a poll sleep runs past the reserve', why: 'the last poll lands after the point the final read needed', tests: WAIT_TESTS,
  },
  {
    name: 'in-loop list not raced', file: WAIT,
    edits: [{ search: IN_LOOP_READ, replace: 'const read = polls === 0 ? await beforeDeadline(() => readList()) : { value: await readList() };' }],
    breaks: 'a read after the first is awaited past the deadline', why: 'a reader that is fast and then stalls holds the reply open (needs a fast-then-stalling reader to show)', tests: WAIT_TESTS,
  },
  {
    name: 'first list not raced', file: WAIT,
    edits: [{ search: IN_LOOP_READ, replace: 'const read = polls > 0 ? await beforeDeadline(() => readList()) : { value: await readList() };' }],
    breaks: 'the first read is awaited past the deadline', why: 'a congested reader holds the whole reply', tests: WAIT_TESTS,
  },
  {
    name: 'final read not raced', file: WAIT,
    edits: [{ search: '? await beforeDeadline(() => readOutputs(lastList))', replace: '? { value: await readOutputs(lastList) }' }],
    breaks: 'the final read is awaited past the deadline', why: 'the reply waits on the slowest read of all', tests: WAIT_TESTS,
  },
  {
    name: 'deadline made after the first read', file: WAIT,
    edits: [
      { search: DEADLINE, replace: 'let deadline = Infinity;' },
      { search: IN_LOOP_READ, replace: `${IN_LOOP_READ}\n    if (polls === 0) deadline = clock() + Math.min(timeoutMs, capMs);` },
    ],
    breaks: 'the first read is not counted against the window', why: 'a slow first read pushes the reply past the cap', tests: WAIT_TESTS,
  },
  {
    name: 'no read reserve (poll to the deadline)', file: WAIT,
    edits: [{ search: 'const spareMs = deadline - clock() - 2 * reserveMs;', replace: 'const spareMs = deadline - clock();' }],
    breaks: 'polling continues with no time kept for the final read', why: 'a congested reader leaves no outputs, or no reply', tests: WAIT_TESTS,
  },
  {
    name: 'final read started without its reserve', file: WAIT,
    edits: [{ search: 'lastList !== null && deadline - clock() >= reserveMs', replace: 'lastList !== null' }],
    breaks: 'the final read starts when it cannot finish', why: 'the reply is held for a read that will be dropped anyway', tests: WAIT_TESTS,
  },
  {
    name: 'an unread list reads as done', file: WAIT,
    edits: [{ search: '  const elapsedMs = clock() - startedAt;', replace: '  if (list === null) done = isDone([]);\n  const elapsedMs = clock() - startedAt;' }],
    breaks: 'a wait that never read the list reports done', why: 'the false completion this tool exists to prevent', tests: WAIT_TESTS,
  },
  {
    name: 'outputsUnavailable never reported', file: WAIT,
    edits: [{ search: 'if (outputs === null) result.outputsUnavailable = true;\n  else result.outputs = outputs.value;', replace: 'if (outputs !== null) result.outputs = outputs.value;' }],
    breaks: 'missing outputs look like no outputs', why: 'the caller cannot tell a cut-short read from jobs with nothing to say', tests: WAIT_TESTS,
  },
  {
    name: 'agentsUnavailable never reported', file: WAIT,
    edits: [{ search: 'if (list === null) result.agentsUnavailable = true;', replace: '' }],
    breaks: 'an unread list is not flagged', why: 'a null list reads as an empty one to a caller', tests: WAIT_TESTS,
  },
  {
    name: 'drop the cap from the description', file: JOBS,
    edits: [{ search: '        capText +\n', replace: '' }],
    breaks: 'the tool description does not say one call stops at 30 s', why: 'a cap the agent discovers only by being capped keeps surprising it', tests: WAIT_TESTS,
  },
  {
    name: 'description says minutes', file: JOBS,
    edits: [{ search: 'stops waiting after ${capSeconds} s even', replace: 'stops waiting after ${capSeconds} minutes even' }],
    breaks: 'the description gives the cap in the wrong unit', why: 'an agent sizes its timeout from the description', tests: WAIT_TESTS,
  },
  {
    name: 'description drops the call-again instruction', file: JOBS,
    edits: [{ search: 'and you should call jobs_wait again with timeoutMs set to remainingMs. ', replace: '' }],
    breaks: 'the description does not say how to go on after the cap', why: 'the agent concludes the jobs are stuck', tests: WAIT_TESTS,
  },
  {
    name: 'scope applied once', file: JOBS,
    edits: [
      { search: 'jobs.views(jobIds); // Unknown ids fail now, not after a wait.', replace: 'const scope = jobs.views(jobIds).map((job) => job.id);' },
      { search: 'readList: () => boardRead(() => jobs.views(jobIds)),', replace: 'readList: () => boardRead(() => jobs.views(scope)),' },
    ],
    breaks: 'a wait on every job misses a job started while it waits', why: 'done is reported while a job the caller started is still running', tests: WAIT_TESTS,
  },
  {
    name: 'cap off ignored by the workbench', file: JOBS,
    edits: [{ search: 'capMs: capped ? WAIT_CAP_MS : MAX_TIMEOUT_MS,', replace: 'capMs: WAIT_CAP_MS,' }],
    breaks: 'the off arm still caps the wait', why: 'the two arms would not differ on the cap they are compared on', tests: WAIT_TESTS,
  },
];

export const NAMED_MUTATIONS: readonly NamedMutation[] = [...WAIT_CAP];
