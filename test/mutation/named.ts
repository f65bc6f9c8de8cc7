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


const BREAKER = 'src/reliability/turnBreaker.ts';
const CIRCUIT = 'src/reliability/serverCircuit.ts';
const REPEATS = 'src/reliability/repeats.ts';
const ROSTER = 'src/reliability/roster.ts';
const LANE = 'src/lane/lane.ts';
const BREAKER_TESTS = ['test/reliability/turnBreaker.test.ts', 'test/lane/breaker.test.ts'];
const CIRCUIT_TESTS = ['test/reliability/serverCircuit.test.ts', 'test/lane/breaker.test.ts'];
const REPEAT_TESTS = ['test/reliability/repeats.test.ts', 'test/lane/calls.test.ts'];
const ROSTER_TESTS = ['test/reliability/roster.test.ts', 'test/reliability/naming.test.ts', 'test/lane/roster.test.ts', 'test/lane/ttl.test.ts'];
const CIRCUIT_REFUSAL = '`server ${server} unavailable since ${since} after ${failures}, retry after ${seconds} s`';

/** The other mechanisms, each contract of DESIGN.md "Reliability contracts" broken once. */
const MECHANISMS: NamedMutation[] = [
  {
    name: 'breaker keyed on the tool by default', file: BREAKER, edits: [{ search: "this.#byTool = key === 'tool';", replace: 'this.#byTool = true;' }],
    breaks: 'a corrected call is refused after its tool failed once', why: 'a model loses the recovery it is entitled to make', tests: BREAKER_TESTS,
  },
  {
    name: 'a failed call is not remembered', file: BREAKER,
    edits: [{ search: 'this.#failures.set(slot, { failure: { turn: this.#turn, round, error }, incarnation });', replace: '' }],
    breaks: 'an identical call that failed is sent again in the same turn', why: 'the dead tool re-sent six times in one turn', tests: BREAKER_TESTS,
  },
  {
    name: 'breaker remembers across turns', file: BREAKER, edits: [{ search: '    this.#failures.clear();\n', replace: '' }],
    breaks: 'a call that failed in an earlier turn is refused in this one', why: 'a recovered tool stays refused for the whole pass', tests: BREAKER_TESTS,
  },
  {
    name: 'refusal keeps the last failure', file: BREAKER, edits: [{ search: '    if (held !== undefined && held.incarnation >= incarnation) return;\n', replace: '' }],
    breaks: 'the refusal names the latest failure, not the first', why: 'the model is told the wrong round', tests: BREAKER_TESTS,
  },
  {
    name: 'refusal without the round it failed at', file: BREAKER,
    edits: [{ search: 'failed at ${round} with the error above.', replace: 'failed earlier with the error above.' }],
    breaks: 'the refusal does not say when the call failed', why: 'the model cannot find the failure it is pointed at', tests: BREAKER_TESTS,
  },
  {
    name: 'refusal without the recorded error', file: BREAKER,
    edits: [{ search: 'text: `${failure.error}\\n${line}`', replace: 'text: line' }],
    breaks: 'the model gets no error back for a refused call', why: 'a refusal with no reason reads as a broken harness', tests: BREAKER_TESTS,
  },
  {
    name: 'the incarnation ignored', file: BREAKER,
    edits: [{ search: 'if (held === undefined || held.incarnation !== incarnation) return { allowed: true };', replace: 'if (held === undefined) return { allowed: true };' }],
    breaks: 'an identical call that failed is refused for the rest of the turn even after its server was restarted',
    why: 'ladder gateway restarted a crashed server in 3 s and still refused the call it had failed until the turn ended',
    tests: [...BREAKER_TESTS, 'test/lane/pipeline.test.ts'],
  },
  {
    name: 'a restart keeps the incarnation', file: LANE,
    edits: [{ search: 'this.#incarnations.set(name, this.incarnation(name) + 1);', replace: '' }],
    breaks: 'the lane tells the breaker the restarted server is the one that failed',
    why: 'the gateway refuses, until the turn ends, a call its restart has repaired', tests: ['test/lane/breaker.test.ts', 'test/gateway/standalone.test.ts'],
  },
  {
    name: 'circuit never opens', file: CIRCUIT,
    edits: [{ search: 'const opens = failedAt.length >= this.#threshold;', replace: 'const opens = false;' }],
    breaks: 'a server that only fails is called every turn', why: 'every turn rediscovers the same outage', tests: CIRCUIT_TESTS,
  },
  {
    name: 'circuit opens one failure early', file: CIRCUIT,
    edits: [{ search: 'const opens = failedAt.length >= this.#threshold;', replace: 'const opens = failedAt.length >= this.#threshold - 1;' }],
    breaks: 'two failures open the circuit', why: 'a server with one bad call is cut off', tests: CIRCUIT_TESTS,
  },
  {
    name: 'old failures never leave the window', file: CIRCUIT,
    edits: [{ search: 'while (now - failedAt[0]! > this.#windowMs) failedAt.shift();', replace: '' }],
    breaks: 'failures an hour apart open the circuit', why: 'a server that fails now and then is cut off', tests: CIRCUIT_TESTS,
  },
  {
    name: 'no cool-down before the probe', file: CIRCUIT,
    edits: [{ search: 'now >= circuit.openedAt + this.#coolDownMs', replace: 'now >= circuit.openedAt' }],
    breaks: 'an open circuit lets the next call through at once', why: 'the circuit never saves a round trip', tests: CIRCUIT_TESTS,
  },
  {
    name: 'half-open lets every call through', file: CIRCUIT,
    edits: [{ search: 'if (circuit.value === CircuitState.Open && now >= circuit.openedAt + this.#coolDownMs) {', replace: 'if (now >= circuit.openedAt + this.#coolDownMs) {' }],
    breaks: 'more than one probe goes to a server after the cool-down', why: 'a dead server gets a burst instead of one probe', tests: CIRCUIT_TESTS,
  },
  {
    name: 'a success does not close the circuit', file: CIRCUIT,
    edits: [{ search: '    this.#circuits.delete(server);\n', replace: '' }],
    breaks: 'a server that recovered stays open', why: 'its tools stay unavailable after a good probe', tests: CIRCUIT_TESTS,
  },
  {
    name: 'a failed probe does not re-open', file: CIRCUIT,
    edits: [{ search: 'this.#circuits.set(server, this.#open(now, circuit.failures + 1));', replace: 'this.#circuits.set(server, { ...circuit, failures: circuit.failures + 1 });' }],
    breaks: 'the cool-down is not restarted by a failed probe', why: 'a dead server is probed on the old schedule', tests: CIRCUIT_TESTS,
  },
  {
    name: 'unavailable without when to retry', file: CIRCUIT,
    edits: [{ search: CIRCUIT_REFUSAL, replace: '`server ${server} unavailable since ${since} after ${failures}`' }],
    breaks: 'the model is not told when the server may be back', why: 'DESIGN.md: the model is told why a call was not made', tests: CIRCUIT_TESTS,
  },
  {
    name: 'short-circuit from the 2nd identical call', file: REPEATS, edits: [{ search: 'const DEFAULT_THRESHOLD = 3;', replace: 'const DEFAULT_THRESHOLD = 2;' }],
    breaks: 'a legitimate re-ask is answered short', why: 'one re-check after an edit is normal; the 3rd is the fixed point', tests: REPEAT_TESTS,
  },
  {
    name: 'short-circuit from the 4th identical call', file: REPEATS, edits: [{ search: 'const DEFAULT_THRESHOLD = 3;', replace: 'const DEFAULT_THRESHOLD = 4;' }],
    breaks: 'the 3rd identical call gets the full answer again', why: 'the stuck model is fed one more copy of the same block', tests: REPEAT_TESTS,
  },
  {
    name: 'non-deterministic tool short-circuited', file: REPEATS,
    edits: [{ search: ' || !this.#isDeterministic(tool)', replace: '' }],
    breaks: 'a poll of logs or files is answered short', why: 'a legitimate poll gets a stale pointer instead of news', tests: REPEAT_TESTS,
  },
  {
    name: 'short answer carries advice', file: REPEATS,
    edits: [{ search: 'asked ${count} times.`;', replace: 'asked ${count} times. Try another tool.`;' }],
    breaks: 'the short answer nudges the model', why: 'the benchmark would measure the nudge, not the model', tests: REPEAT_TESTS,
  },
  {
    name: 'short answer does not say where the full one is', file: REPEATS,
    edits: [{ search: '`Identical to the answer at turn ${turn}, round ${round}; asked ${count} times.`', replace: '`Identical to an earlier answer; asked ${count} times.`' }],
    breaks: 'the model cannot find the full answer', why: 'a legitimate re-read is left empty-handed', tests: REPEAT_TESTS,
  },
  {
    name: 'pointer moves to the latest answer', file: REPEATS, edits: [{ search: 'record.answer ??= { turn, round };', replace: 'record.answer = { turn, round };' }],
    breaks: 'the pointer names a later answer than the first full one', why: 'it can point at a short answer, not the full one', tests: REPEAT_TESTS,
  },
  {
    name: 'readOnlyHint read as deterministic', file: LANE,
    edits: [{ search: "this.#hints.set(offered.name, offered.tool._meta?.['ladder/deterministic'] === true);",
      replace: "this.#hints.set(offered.name, offered.tool._meta?.['ladder/deterministic'] === true || offered.tool.annotations?.readOnlyHint === true);" }],
    breaks: 'a read-only tool (logs, files) is treated as deterministic', why: 'read-only is not same-input-same-output: polls would be answered short', tests: ['test/lane/calls.test.ts'],
  },
  {
    name: 'server hints trusted without the config', file: LANE,
    edits: [{ search: '(options.trustServerHints === true && this.#hints.get(name) === true)', replace: 'this.#hints.get(name) === true' }],
    breaks: 'a server declares its own tools deterministic unasked', why: 'the rung, not the server, decides what is short-circuited', tests: ['test/lane/calls.test.ts'],
  },
  {
    name: 'roster TTL never expires', file: ROSTER,
    edits: [{ search: "return age < this.#ttlMs ? 'own-ttl' : 'own-ttl-expired';", replace: "return 'own-ttl';" }],
    breaks: 'a server is never re-listed without list_changed', why: 'a changed tool surface goes unseen for the whole run', tests: ROSTER_TESTS,
  },
  {
    name: 'list_changed ignored', file: LANE,
    edits: [{ search: 'current.#roster?.markStale(name);\n        current.#options.onToolListChanged', replace: 'current.#options.onToolListChanged' }],
    breaks: 'a server that announces a change is not re-listed', why: 'the model keeps the old tool list for an hour', tests: ['test/lane/roster.test.ts'],
  },
  {
    name: 'a failed listing drops the cached tools', file: ROSTER,
    edits: [{ search: '    entry.failures += 1;\n', replace: '    entry.failures += 1;\n    entry.tools = [];\n' }],
    breaks: 'a turn is offered no tools while a server had some', why: 'the zero-tool rounds of the incident, which no model can answer', tests: ROSTER_TESTS,
  },
  {
    name: 'no back-off after a failed listing', file: ROSTER,
    edits: [{ search: "    if (now < entry.retryAt) return 'backoff';\n", replace: '' }],
    breaks: 'a failing server is re-listed every turn', why: 'every turn pays for a listing that keeps failing', tests: ROSTER_TESTS,
  },
  {
    name: "a server's ttlMs never expires", file: ROSTER,
    edits: [{ search: "? 'server-ttl' : 'server-ttl-expired'", replace: "? 'server-ttl' : 'server-ttl'" }],
    breaks: 'a 2026-07-28 server that said how long its listing holds is never re-listed after that', why: 'a tool surface the server said would change goes unseen for the whole run', tests: ROSTER_TESTS,
  },
  {
    name: "a server's ttlMs honoured beyond a day", file: ROSTER,
    edits: [{ search: 'age < Math.min(serverTtlMs, MAX_SERVER_TTL_MS)', replace: 'age < serverTtlMs' }],
    breaks: 'a server that says its listing holds for a year is believed', why: 'one listing answers for the whole run, whatever changes', tests: ROSTER_TESTS,
  },
  {
    name: 'back-off not capped', file: ROSTER,
    edits: [{ search: 'Math.min(this.#backoffMaxMs, this.#backoffBaseMs * 2 ** (entry.failures - 1))', replace: 'this.#backoffBaseMs * 2 ** (entry.failures - 1)' }],
    breaks: 'a server down for long is hardly ever tried again', why: 'its recovery goes unnoticed for hours', tests: ROSTER_TESTS,
  },
  {
    name: 'warm and backing-off turns read alike', file: ROSTER,
    edits: [{ search: 'unavailable: this.#servers.length - registered.length,', replace: 'unavailable: 0,' }],
    breaks: 'registered + unavailable no longer equals configured', why: 'telemetry cannot tell a warm cache from one backing off', tests: ROSTER_TESTS,
  },
  {
    name: 'cached counts servers reached', file: ROSTER,
    edits: [{ search: 'cached: registered.filter((server) => !reachedThisTurn.has(server)).length,', replace: 'cached: registered.length,' }],
    breaks: 'a server listed this turn counts as cached', why: 'the counters say no round trip was made when one was', tests: ROSTER_TESTS,
  },
  {
    name: 'refresh offered on an empty roster', file: ROSTER, edits: [{ search: 'refreshOffered: tools.length > 0', replace: 'refreshOffered: true' }],
    breaks: 'the no-tool configuration is offered a tool', why: 'a capability claim with nothing behind it', tests: ROSTER_TESTS,
  },
  {
    name: 'refresh on an empty roster marks servers', file: ROSTER, edits: [{ search: 'if (turn.tools.length === 0) {', replace: 'if (false) {' }],
    breaks: 'a refresh with no tool list claims to have done something', why: 'the model is told a list will change that it never had', tests: ROSTER_TESTS,
  },
  {
    name: 'refresh says the list already changed', file: ROSTER,
    edits: [{ search: "'This turn still sees the tool list it started with; any change shows up only in the next turn.'", replace: "'The tool list is up to date now.'" }],
    breaks: 'the refresh result implies the change is visible now', why: 'the model tells a user a tool is there before it can see it', tests: ROSTER_TESTS,
  },
  {
    name: 'refresh description promises this turn', file: ROSTER,
    edits: [{ search: "'in this turn: this turn keeps the tool list it started with, and the next turn starts ' +", replace: "'in this turn until the listing arrives, which can be at once, and the next turn starts ' +" }],
    breaks: 'the refresh tool description no longer says the turn keeps its list', why: 'the model picks the tool expecting an immediate change', tests: ROSTER_TESTS,
  },
  {
    name: 'collision not fatal', file: ROSTER, edits: [{ search: '    assertUniqueNames(tools);\n', replace: '' }],
    breaks: 'two tools with one name are both offered', why: 'one of them silently loses every call', tests: ROSTER_TESTS,
  },
  {
    name: 'harness name not reserved', file: 'src/reliability/naming.ts', edits: [{ search: 'if (server === HARNESS_SERVER) {', replace: 'if (false) {' }],
    breaks: 'a server may be called harness', why: 'its tools could take the harness tool\'s name', tests: ROSTER_TESTS,
  },
  {
    name: 'server names allow underscores', file: 'src/reliability/naming.ts', edits: [{ search: 'const SERVER_NAME = /^[a-z0-9-]+$/;', replace: 'const SERVER_NAME = /^[a-z0-9_-]+$/;' }],
    breaks: 'a server name can contain the separator', why: 'two servers could qualify to one tool name', tests: ROSTER_TESTS,
  },
  {
    name: 'nextCursor not followed', file: 'src/lane/listing.ts', edits: [{ search: 'cursor = result.nextCursor;', replace: 'cursor = undefined;' }],
    breaks: 'only the first page of tools is offered', why: 'a large server loses most of its tools', tests: ['test/lane/roster.test.ts'],
  },
  {
    name: 'pages past 64 followed', file: 'src/lane/listing.ts', edits: [{ search: 'page < MAX_LIST_PAGES', replace: 'page < 10 * MAX_LIST_PAGES' }],
    breaks: 'a server that never ends its cursor is listed for ever', why: 'one bad server stalls every turn', tests: ['test/lane/roster.test.ts'],
  },
  {
    name: 'call keys not sorted', file: 'src/reliability/callKey.ts', edits: [{ search: 'const names = Object.keys(record).sort();', replace: 'const names = Object.keys(record);' }],
    breaks: 'the same arguments in another order are another call', why: 'the breaker and the repeat count miss reordered repeats', tests: ['test/reliability/callKey.test.ts', 'test/lane/calls.test.ts'],
  },
  {
    name: 'no explicit call timeout', file: LANE,
    edits: [{ search: '      timeout: this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,\n', replace: '' }],
    breaks: 'a call falls back to the SDK\'s 60 s default', why: 'the timeout is not sized to the wait cap', tests: ['test/lane/calls.test.ts'],
  },
  {
    name: 'no maxTotalTimeout', file: LANE,
    edits: [{ search: '      maxTotalTimeout: this.#options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,\n', replace: '' }],
    breaks: 'a call that keeps reporting progress never times out', why: 'one chatty tool holds the step to its time limit', tests: ['test/lane/calls.test.ts'],
  },
  {
    name: 'progress does not reset the timeout', file: LANE,
    edits: [{ search: '      resetTimeoutOnProgress: true,\n', replace: '      resetTimeoutOnProgress: false,\n' }],
    breaks: 'a long call that reports progress times out', why: 'a wait past 60 s is cut even while it is alive', tests: ['test/lane/calls.test.ts'],
  },
  {
    name: 'a timeout does not say the tool may still run', file: 'src/lane/text.ts',
    edits: [{ search: "    'The tool may still be running on the server, so what it does may still happen.'", replace: "    'The call failed.'" }],
    breaks: 'a timed-out call reads as a failure', why: 'the model repeats a side effect that may still happen', tests: ['test/lane/calls.test.ts'],
  },
];

const CHECKS = 'src/rungs/checks.ts';
const CHECK_TESTS = ['test/rungs/checks.test.ts'];
const PLAN_TESTS = ['test/runner/plan.test.ts'];
const REPORT_TESTS = ['test/report/stats.test.ts', 'test/report/summary.test.ts', 'test/report/compare.test.ts', 'test/report/pinned.test.ts'];
const STATS_TESTS = [...REPORT_TESTS, 'test/report/simulation.test.ts'];
const PUSH = 'for (const arm of input.arms) plan.push({ rung, arm, armSlug: armSlug(arm), pass, seed });';
const UNCORRECTED = 'Math.min(1, 2 * normalTail(Math.abs(pairedScore(aOnly, bOnly, n, mid, 0))))';
const WORDS = 'src/report/words.ts';
const WORDS_TESTS = ['test/report/paired.test.ts', 'test/report/agree.test.ts'];

/** What decides a benchmark's numbers: the checks, the runner's plan and clock, the statistics. */
const NUMBERS: NamedMutation[] = [
  {
    name: 'maxRepeats counts the first call', file: CHECKS,
    edits: [{ search: 'if (n - 1 > worst.repeats) worst = { tool, repeats: n - 1 };', replace: 'if (n > worst.repeats) worst = { tool, repeats: n };' }],
    breaks: 'two identical calls count as two repeats', why: 'a step within its repeat budget fails its check', tests: CHECK_TESTS,
  },
  {
    name: 'answer match case-sensitive', file: CHECKS, edits: [{ search: "new RegExp(matches, 'i')", replace: 'new RegExp(matches)' }],
    breaks: '"Port is" fails a check for "port is"', why: 'a right answer is scored wrong for its capitals', tests: CHECK_TESTS,
  },
  {
    name: 'a refused call is not called', file: CHECKS,
    edits: [{ search: 'step.calls.some((c) => c.tool === check.called)', replace: "step.calls.some((c) => c.tool === check.called && c.outcome === 'ok')" }],
    breaks: 'a call the breaker refused fails a called check', why: 'the arm with the breaker on is scored down for what the model did right', tests: CHECK_TESTS,
  },
  {
    name: 'zero-tool check with no servers configured', file: CHECKS,
    edits: [{ search: 'step.serversConfigured === 0 || zero === 0', replace: 'zero === 0' }],
    breaks: 'a rung with no servers fails noZeroToolRounds', why: 'a round with nothing to offer is not a harness fault', tests: CHECK_TESTS,
  },
  {
    name: 'file check reads outside the workspace', file: CHECKS,
    edits: [{ search: 'return full === root || full.startsWith(root + sep) ? full : undefined;', replace: 'return full;' }],
    breaks: 'a check passes on a file outside the pass\'s folder', why: 'one pass could pass on another\'s work', tests: CHECK_TESTS,
  },
  {
    name: 'time-to-answer from any answer check', file: CHECKS,
    edits: [{ search: 'return (text) => answers.every((check) => answerWhy(check, text) === undefined);', replace: 'return (text) => answers.some((check) => answerWhy(check, text) === undefined);' }],
    breaks: 'an answer that passes one of two answer checks counts as correct', why: 'time-to-answer starts before a correct answer existed', tests: CHECK_TESTS,
  },
  {
    name: 'arms not interleaved', file: 'src/runner/plan.ts',
    edits: [{ search: '  return plan;\n}', replace: '  return input.arms.flatMap((arm) => plan.filter((p) => p.arm === arm));\n}' }],
    breaks: 'every pass of one arm runs before the other arm starts', why: 'drift in a provider or the machine lands on one arm only', tests: PLAN_TESTS,
  },
  {
    name: 'the seed depends on the arm', file: 'src/runner/plan.ts',
    edits: [{ search: PUSH, replace: 'for (const arm of input.arms) plan.push({ rung, arm, armSlug: armSlug(arm), pass, seed: passSeed(input.seed, `${rung}/${arm}`, pass) });' }],
    breaks: 'pass i of two arms meets different faults', why: 'the pairing the paired statistics assume is gone', tests: PLAN_TESTS,
  },
  {
    name: 'the seed ignores the pass index', file: 'src/runner/seeds.ts',
    edits: [{ search: '.update(`${runSeed}\\n${rung}\\n${pass}`)', replace: '.update(`${runSeed}\\n${rung}`)' }],
    breaks: 'every pass of a rung meets the same faults', why: 'ten passes measure one draw ten times', tests: PLAN_TESTS,
  },
  {
    name: 'a shard splits the arms of a pass', file: 'src/runner/plan.ts',
    edits: [
      { search: 'const mine = input.shard === undefined || unit % input.shard.count === input.shard.index;', replace: 'const mine = true;' },
      { search: PUSH, replace: 'for (const [i, arm] of input.arms.entries()) if (input.shard === undefined || (unit + i) % input.shard.count === input.shard.index) plan.push({ rung, arm, armSlug: armSlug(arm), pass, seed });' },
    ],
    breaks: 'the two halves of a pair run on different machines', why: 'a pair no longer differs only by its arm', tests: PLAN_TESTS,
  },
  {
    name: 'no floor under a scaled time limit', file: 'src/runner/timing.ts',
    edits: [{ search: 'Math.max(MIN_STEP_TIME_LIMIT_MS, Math.round(timeLimitS * 1000 * timeFactor))', replace: 'Math.round(timeLimitS * 1000 * timeFactor)' }],
    breaks: 'at --time-factor 0.01 a step has a second to run', why: 'model rounds do not get faster: every step would end at its limit', tests: ['test/runner/timing.test.ts'],
  },
  {
    name: 'call timeout not scaled', file: 'src/runner/timing.ts',
    edits: [{ search: 'Math.round(DEFAULT_CALL_TIMEOUT_MS * timeFactor)', replace: 'DEFAULT_CALL_TIMEOUT_MS' }],
    breaks: 'a fast run keeps the 60 s call timeout', why: 'the off arm\'s timeouts no longer fall where the rung\'s shape puts them', tests: ['test/runner/timing.test.ts'],
  },
  {
    name: 'step limit not raced', file: 'src/agent/limits.ts', edits: [{ search: "      this.signal.addEventListener('abort', onAbort, { once: true });\n", replace: '' }],
    breaks: 'a tool call that never answers holds the step past its limit', why: 'one hung call stalls the whole run', tests: ['test/agent/limits.test.ts'],
  },
  {
    name: 'an interrupt reads as a time limit', file: 'src/agent/limits.ts', edits: [{ search: "    if (this.#interrupt?.aborted === true) return 'interrupted';\n", replace: '' }],
    breaks: 'Ctrl-C ends a step as time_limit', why: 'an interrupted pass is scored as a failure instead of made again', tests: ['test/agent/limits.test.ts'],
  },
  {
    name: 'pass rate interval without the edge correction', file: 'src/report/metrics.ts',
    edits: [
      { search: "import { modifiedWilson, passAtK, passHatK } from './stats.ts';", replace: "import { wilson as modifiedWilson, passAtK, passHatK } from './stats.ts';" },
    ],
    breaks: 'the plain score interval: 89.8% coverage at 5% over 11 step-runs', why: 'a published interval that covers less than it says', tests: STATS_TESTS,
  },
  {
    name: 'the interval from Tango\'s test, p from McNemar\'s', file: 'src/report/stats.ts',
    edits: [{ search: 'if (pairedTest(aOnly, bOnly, n, mid) < SIGNIFICANCE) out = mid;', replace: `if (${UNCORRECTED} < SIGNIFICANCE) out = mid;` }],
    breaks: 'the interval inverts a different test from the one behind p', why: 'the interval and p disagree again, as "CI and p disagree" did', tests: STATS_TESTS,
  },
  {
    name: 'p from the uncorrected test', file: 'src/report/stats.ts',
    edits: [{ search: 'const p = pairedTest(aOnly, bOnly, n, 0);', replace: `const p = ${UNCORRECTED.replace('mid', '0')};` }],
    breaks: 'p without the continuity correction beside the corrected interval', why: 'equal arms are called different up to 7.8% of the time, and an interval end sits where its test keeps 0', tests: STATS_TESTS,
  },
  {
    name: 'no continuity correction', file: 'src/report/stats.ts', edits: [{ search: 'export const CONTINUITY = 1;', replace: 'export const CONTINUITY = 0;' }],
    breaks: 'the test and its interval without the correction', why: 'the test rejects equal arms up to 7.8% of the time with every pair discordant', tests: STATS_TESTS,
  },
  {
    name: 'an interval end that rounds to 0 printed as 0', file: WORDS,
    edits: [{ search: '  if (shownPoints(difference) !== 0 || difference === 0) return signedPoints(difference);\n', replace: '  return signedPoints(difference);\n' }],
    breaks: '"B better" beside an interval printed as starting at 0', why: 'the verdict reads as contradicting its interval', tests: WORDS_TESTS,
  },
  {
    name: 'a p-value printed as 0.05', file: WORDS,
    edits: [{ search: '  while (Number(p.toFixed(digits)) === SIGNIFICANCE && digits < 20) digits += 1;\n', replace: '' }],
    breaks: 'p = 0.0485 printed as p = 0.05 beside "B better"', why: 'the verdict reads as contradicting its p-value', tests: WORDS_TESTS,
  },
  {
    name: 'McNemar one-sided', file: 'src/report/stats.ts',
    edits: [{ search: 'return Math.min(1, 2 * normalTail(Math.abs(pairedScore(aOnly, bOnly, n, d))));', replace: 'return Math.min(1, normalTail(Math.abs(pairedScore(aOnly, bOnly, n, d))));' }],
    breaks: 'p-values halve: equal arms are called different up to 10% of the time', why: 'a false "B better" on a tie', tests: STATS_TESTS,
  },
  {
    name: 'significance at 10%', file: 'src/report/stats.ts', edits: [{ search: 'export const SIGNIFICANCE = 0.05;', replace: 'export const SIGNIFICANCE = 0.1;' }],
    breaks: 'verdicts at the 90% level', why: 'the report says 95% and means 90%', tests: STATS_TESTS,
  },
  {
    name: 'pass@k from the pass rate', file: 'src/report/stats.ts',
    edits: [{ search: '  return 1 - ratio;\n}', replace: '  return 1 - (1 - c / n) ** k;\n}' }],
    breaks: 'pass@k is estimated by plugging in c/n', why: 'the plug-in estimate is biased down at small n', tests: STATS_TESTS,
  },
  {
    name: 'pass^k drawn with replacement', file: 'src/report/stats.ts',
    edits: [{ search: '  return Math.max(0, ratio);\n}', replace: '  return (c / n) ** k;\n}' }],
    breaks: 'pass^k is estimated by (c/n)^k', why: 'biased up: a flaky agent looks more reliable than it is', tests: STATS_TESTS,
  },
  {
    name: 'errored step-runs in the denominator', file: 'src/report/metrics.ts',
    edits: [{ search: 'stepPassRate: rate(passed, decided),', replace: 'stepPassRate: rate(passed, runs.length),' }],
    breaks: 'a provider outage counts as the model failing', why: 'an arm is scored down for the provider\'s errors', tests: REPORT_TESTS,
  },
  {
    name: 'errored passes in the clean-run denominator', file: 'src/report/metrics.ts',
    edits: [{ search: 'rate(passes.filter(passClean).length, passes.length - erroredPasses!)', replace: 'rate(passes.filter(passClean).length, passes.length)' }],
    breaks: 'a pass a harness error ended counts as unclean', why: 'a server that did not start lowers the model\'s score', tests: REPORT_TESTS,
  },
  {
    name: 'errored pairs compared', file: 'src/report/paired.ts',
    edits: [{ search: '(s: StepRun): T | undefined => (isErrored(s) ? undefined : f(s));', replace: '(s: StepRun): T | undefined => f(s);' }],
    breaks: 'a pair with an errored side enters the paired rate', why: 'a provider error on one arm reads as that arm being worse', tests: REPORT_TESTS,
  },
  {
    name: 'counts compared by their median', file: 'src/report/paired.ts',
    edits: [{ search: "const statistic = def.unit === 'ms' ? 'median' : 'mean';", replace: "const statistic = 'median';" }],
    breaks: 'a sparse count (dead calls in one rung of nine) differs by 0 whatever the arm does', why: 'the mechanism\'s effect disappears from the report', tests: REPORT_TESTS,
  },
  {
    name: 'times compared by their mean', file: 'src/report/paired.ts',
    edits: [{ search: "const statistic = def.unit === 'ms' ? 'median' : 'mean';", replace: "const statistic = 'mean';" }],
    breaks: 'a few slow steps swing the time difference', why: 'one stalled step decides the verdict on time', tests: REPORT_TESTS,
  },
  {
    name: 'a missing token count read as zero', file: 'src/report/paired.ts',
    edits: [{ search: '(sum(p, (s) => s[missing]) > 0 ? undefined : sum(p, (s) => s[field]));', replace: 'sum(p, (s) => s[field]);' }],
    breaks: 'a pass whose provider reported no tokens enters the comparison as 0 tokens', why: 'an arm looks cheaper because a provider said nothing', tests: REPORT_TESTS,
  },
  {
    name: 'bootstrap without replacement', file: 'src/report/bootstrap.ts',
    edits: [{ search: 'const picks = Array.from({ length: n }, () => Math.floor(random() * n));', replace: 'const picks = Array.from({ length: n }, (_, i) => i);' }],
    breaks: 'every resample is the sample: the interval is a point', why: 'any difference at all is called clear of noise', tests: REPORT_TESTS,
  },
  {
    name: 'bootstrap unseeded', file: 'src/report/bootstrap.ts',
    edits: [{ search: 'const random = seededRandom(seed);\n  // Each resample', replace: 'const random = Math.random;\n  // Each resample' }],
    breaks: 'the same run prints a different interval each time', why: 'a report no one can reproduce', tests: [...REPORT_TESTS, 'test/report/bootstrap.test.ts'],
  },
  {
    name: 'bootstrap 90% interval', file: 'src/report/bootstrap.ts',
    edits: [{ search: 'lower: estimates[Math.floor(0.025 * (kept - 1))]!,', replace: 'lower: estimates[Math.floor(0.05 * (kept - 1))]!,' }],
    breaks: 'the lower end is the 5th percentile', why: 'the interval is narrower than the 95% it is labelled', tests: REPORT_TESTS,
  },
  {
    name: 'passes paired across rungs', file: 'src/report/pairing.ts',
    edits: [{ search: 'const idOf = (p: PassRecord): string => `${p.rung}\\u0000${p.pass}`;', replace: 'const idOf = (p: PassRecord): string => `${p.pass}`;' }],
    breaks: 'pass i of one rung is paired with pass i of another', why: 'pairs no longer share a task or a seed', tests: REPORT_TESTS,
  },
  {
    name: 'seed mismatches not counted', file: 'src/report/pairing.ts',
    edits: [{ search: '    if (pa.seed !== pb.seed) leftOut.seedMismatches += 1;\n', replace: '' }],
    breaks: 'pairs that met different faults are not reported', why: 'a comparison of unlike pairs looks like a clean one', tests: REPORT_TESTS,
  },
  {
    name: 'unpaired step-runs of B not counted', file: 'src/report/pairing.ts',
    edits: [{ search: '    leftOut.stepRunsOnlyInB += pb.steps.filter((s) => !inPa.has(s.step)).length;\n', replace: '' }],
    breaks: 'step-runs left out of the comparison are not reported', why: 'the reader cannot see how much the figures leave out', tests: REPORT_TESTS,
  },
];

const PASSES = 'src/report/passes.ts';
const PASS = 'src/runner/pass.ts';
const AGENT_CALLS = 'src/agent/calls.ts';
const LANE_CALLS = 'src/lane/calls.ts';
const COUNT_TESTS = ['test/report/summary.test.ts', 'test/report/pinned.test.ts', 'test/report/compare.test.ts'];
const PASS_TESTS = ['test/runner/pass.test.ts'];
const LOOP_TESTS = ['test/agent/loop.test.ts', 'test/agent/rounds.test.ts', 'test/agent/limits.test.ts'];
const LANE_CALL_TESTS = ['test/lane/calls.test.ts', 'test/lane/breaker.test.ts'];

/** Reading the traces, judging a pass, counting a step's calls, routing one call. */
const PIPELINE: NamedMutation[] = [
  {
    name: 'identical repeats from the 2nd call', file: PASSES, edits: [{ search: 'export const REPEAT_FROM = 3;', replace: 'export const REPEAT_FROM = 2;' }],
    breaks: 'a single re-ask counts as an identical repeat', why: 'DESIGN.md counts the 3rd or later; the repeat rate would double', tests: COUNT_TESTS,
  },
  {
    name: 'a timeout makes the next identical call dead', file: PASSES,
    edits: [{ search: "if (e.outcome === 'failed') this.failedInTurn.add(e.key);", replace: "if (e.outcome === 'failed' || e.outcome === 'timeout') this.failedInTurn.add(e.key);" }],
    breaks: 'a re-asked long wait counts as a dead call', why: 'a timeout is not a failure: a long wait re-asked is often right', tests: COUNT_TESTS,
  },
  {
    name: 'a call the harness answered counts as dead', file: PASSES,
    edits: [{ search: 'const dead = sent && this.failedInTurn.has(e.key);', replace: 'const dead = this.failedInTurn.has(e.key);' }],
    breaks: 'a refused call counts as a dead call sent', why: 'the breaker arm would be charged for the calls it stopped', tests: COUNT_TESTS,
  },
  {
    name: 'dead calls remembered across turns', file: PASSES, edits: [{ search: '      this.failedInTurn = new Set();\n', replace: '' }],
    breaks: 'a retry in the next turn counts as a dead call', why: 'the contract is per turn: the next turn may try again', tests: COUNT_TESTS,
  },
  {
    name: 'identical repeats counted per step', file: PASSES,
    edits: [{ search: "if (e.type === 'step.start') this.steps.set(e.step, newStep(e.step, e.t, e.reference));", replace: "if (e.type === 'step.start') {\n      this.steps.set(e.step, newStep(e.step, e.t, e.reference));\n      this.seen.clear();\n    }" }],
    breaks: 'a call repeated across steps is not a repeat', why: 'DESIGN.md counts repeats in their pass: a loop across steps would vanish', tests: COUNT_TESTS,
  },
  {
    name: 'zero-tool rounds with no servers configured', file: PASSES,
    edits: [{ search: 'if (e.tools === 0 && this.configured > 0) s.zeroToolRounds += 1;', replace: 'if (e.tools === 0) s.zeroToolRounds += 1;' }],
    breaks: 'a pass with no servers counts its rounds as zero-tool rounds', why: 'a round with nothing to offer is not the incident\'s collapse', tests: COUNT_TESTS,
  },
  {
    name: 'a missing token count not counted missing', file: PASSES, edits: [{ search: '      else s.tokensInMissing += 1;\n', replace: '' }],
    breaks: 'tokens per attempt is not marked a lower bound', why: 'a provider that reports nothing makes an arm look cheap', tests: COUNT_TESTS,
  },
  {
    name: 'a step at the ceiling passes on its checks', file: PASS,
    edits: [{ search: "return result.reason === 'answered' && checks.every((c) => c.passed);", replace: 'return checks.every((c) => c.passed);' }],
    breaks: 'a step that never answered passes when its file checks do', why: 'the ceiling share and the pass rate stop measuring the same thing', tests: PASS_TESTS,
  },
  {
    name: 'one passing check passes the step', file: PASS,
    edits: [{ search: "return result.reason === 'answered' && checks.every((c) => c.passed);", replace: "return result.reason === 'answered' && checks.some((c) => c.passed);" }],
    breaks: 'a step passes with a failed check', why: 'every pass rate goes up', tests: PASS_TESTS,
  },
  {
    name: 'a harness error not written to pass.end', file: PASS,
    edits: [{ search: 'ms: Math.round(performance.now() - started), error: outcome.error,', replace: 'ms: Math.round(performance.now() - started),' }],
    breaks: 'a server that did not start reads as the model failing', why: 'errored passes must leave the denominators', tests: PASS_TESTS,
  },
  {
    name: 'an interrupted pass ends with pass.end', file: PASS, edits: [{ search: 'if (!outcome.interrupted) {', replace: 'if (true) {' }],
    breaks: 'an interrupted pass looks complete', why: '--resume would keep a pass that never finished', tests: PASS_TESTS,
  },
  {
    name: 'one-shot judged on its first step only', file: PASS,
    edits: [{ search: "const judged = input.mode === 'oneshot' ? rung.steps.map((_, i) => i) : [spec.index];", replace: 'const judged = [spec.index];' }],
    breaks: 'a one-shot run scores only the first step\'s checks', why: 'one-shot and step-by-step runs would count different step-runs', tests: PASS_TESTS,
  },
  {
    name: 'ceiling off by one', file: AGENT_CALLS, edits: [{ search: 'if (calls.length >= ctx.ceiling) {', replace: 'if (calls.length > ctx.ceiling) {' }],
    breaks: 'a step makes one call more than its ceiling', why: 'the ceiling share and every per-step count shift', tests: LOOP_TESTS,
  },
  {
    name: 'invalid arguments sent anyway', file: AGENT_CALLS,
    edits: [{ search: 'if (unsent !== undefined) {', replace: 'if (false) {' }],
    breaks: 'a call whose arguments did not parse runs on defaults', why: 'the tool does what the model never chose', tests: LOOP_TESTS,
  },
  {
    name: 'an invalid call is free', file: AGENT_CALLS,
    edits: [{ search: "      calls.push({ tool: call.name, key: callKey(call.name, {}), outcome: 'invalid_arguments' });\n", replace: '' }],
    breaks: 'a call that could not be sent does not count toward the ceiling or the checks', why: 'a model emitting garbage is never stopped by its ceiling', tests: LOOP_TESTS,
  },
  {
    name: 'calls made after the step stopped', file: AGENT_CALLS, edits: [{ search: '    if (stop !== undefined) {', replace: '    if (false) {' }],
    breaks: 'a round keeps calling tools after the time limit', why: 'the step runs past its limit', tests: LOOP_TESTS,
  },
  {
    name: 'an abandoned call not recorded', file: AGENT_CALLS,
    edits: [{ search: "      calls.push({ tool: call.name, key: callKey(call.name, call.args), args: call.args, outcome: 'abandoned' });\n", replace: '' }],
    breaks: 'a call cut off by the time limit is missing from the step', why: 'the checks and the counts miss a call the model made', tests: LOOP_TESTS,
  },
  {
    name: 'a call its step stopped recorded after the step', file: AGENT_CALLS,
    edits: [{ search: '      await sent.catch(() => undefined);\n', replace: '' }],
    breaks: 'the step ends before the lane has recorded the call it cut off',
    why: 'the call lands in the next step or after pass.end, and every reader leaves the pass out as damaged', tests: [...LOOP_TESTS, 'test/agent/calls.test.ts'],
  },
  {
    name: 'the lane waits out a call its step stopped', file: 'src/lane/lane.ts',
    edits: [{ search: 'return signal === undefined ? options : { ...options, signal };', replace: 'return options;' }],
    breaks: 'the call runs on unrecorded after its step stopped, and the server is never asked to cancel it',
    why: 'the step cannot end on time without losing the call', tests: LANE_CALL_TESTS,
  },
  {
    name: 'a call its step stopped counted as failed', file: LANE_CALLS,
    edits: [{ search: "return { text: abandonedText(site.name), outcome: 'timeout', errorType: 'abandoned' };", replace: "return { text: abandonedText(site.name), outcome: 'failed', errorType: 'abandoned' };" }],
    breaks: 'the breaker refuses the call again and the report counts a failed call', why: 'the harness, not the tool, ended the wait', tests: [...LANE_CALL_TESTS, 'test/lane/pipeline.test.ts'],
  },
  {
    name: 'a timeout trips the breaker', file: LANE_CALLS,
    edits: [{ search: "if (decision.outcome === 'failed') breaker?.recordFailureKey(", replace: 'breaker?.recordFailureKey(' }],
    breaks: 'a long wait that timed out cannot be asked again in its turn', why: 'a re-asked long wait is often exactly right', tests: LANE_CALL_TESTS,
  },
  {
    name: 'a timeout does not count against the server', file: LANE_CALLS, edits: [{ search: '      circuits?.failure(server);\n', replace: '' }],
    breaks: 'a server that never answers never opens its circuit', why: 'every turn waits out the same dead server', tests: LANE_CALL_TESTS,
  },
  {
    name: 'an error result read as ok', file: LANE_CALLS,
    edits: [{ search: "return result.isError === true ? { text, outcome: 'failed', errorType: 'tool_error' } : { text, outcome: 'ok' };", replace: "return { text, outcome: 'ok' };" }],
    breaks: 'an isError result is recorded ok', why: 'the breaker, the circuit and the dead-call count never see a failure', tests: LANE_CALL_TESTS,
  },
];

/** Behaviours of modules Stryker mutates that no syntax mutant expresses (issue 20). */
const BEYOND_SYNTAX: NamedMutation[] = [
  {
    name: 'sql rows compared in any order', file: CHECKS,
    edits: [{ search: 'const got = JSON.stringify(rows);\n    return got === JSON.stringify(check.sql.rows)',
      replace: 'const got = JSON.stringify(rows);\n    const sorted = (r: unknown[]) => JSON.stringify(r.map((x) => JSON.stringify(x)).sort());\n    return sorted(rows) === sorted(check.sql.rows)' }],
    breaks: 'a sql check passes with the expected rows in another order',
    why: 'a query that asks for an order (ORDER BY) is judged as if it had not: a step that sorts wrongly passes', tests: CHECK_TESTS,
  },
  {
    name: 'maxRepeats counted per tool', file: CHECKS,
    edits: [{ search: '    const entry = counts.get(call.key) ?? { tool: call.tool, n: 0 };\n    entry.n += 1;\n    counts.set(call.key, entry);',
      replace: '    const entry = counts.get(call.tool) ?? { tool: call.tool, n: 0 };\n    entry.n += 1;\n    counts.set(call.tool, entry);' }],
    breaks: 'calls of one tool with other arguments count as repeats',
    why: 'a step that reads three files fails maxRepeats: the check punishes work, not loops', tests: CHECK_TESTS,
  },
  {
    name: 'shards chosen by pass index', file: 'src/runner/plan.ts',
    edits: [{ search: 'const mine = input.shard === undefined || unit % input.shard.count === input.shard.index;',
      replace: 'const mine = input.shard === undefined || pass % input.shard.count === input.shard.index;' }],
    breaks: 'a shard takes whole passes, so shards are balanced only when the passes divide evenly among them',
    why: 'one pass over four machines runs on one of them while three sit idle', tests: PLAN_TESTS,
  },
];

const PRICES = 'src/models/prices.ts';
const COST_LIMIT = 'src/runner/costLimit.ts';
const SPEND = 'src/runner/spend.ts';
const PRICE_TESTS = ['test/models/prices.test.ts', 'test/report/cost.test.ts'];
const SPEND_TESTS = ['test/runner/spend.test.ts', 'test/runner/costLimit.test.ts'];

/** Bugs in what decides cost, pace, replay and what a trace keeps, that no syntax mutant writes. */
const NEW_MODULES: NamedMutation[] = [
  {
    name: 'a cut-off request read as free', file: SPEND,
    edits: [{ search: "if (event.type !== 'model.response') continue;", replace: "if (event.type !== 'model.response' || event['error.type'] !== undefined) continue;" }],
    breaks: 'the runner counts a request the time limit cut off as costing nothing, while the report reads its tokens as missing',
    why: 'the progress line and --max-cost claim an exact spending that is only a lower bound', tests: SPEND_TESTS,
  },
  {
    name: 'spending summed over every attempt', file: SPEND,
    edits: [{ search: "      if (event.type === 'pass.start') spend = nothingSpent();\n", replace: '' }],
    breaks: 'a resumed pass is charged for the attempt it replaced as well', why: 'a resumed run stops early on --max-cost for money spent once', tests: SPEND_TESTS,
  },
  {
    name: 'the next pass estimated at the last, not the dearest', file: COST_LIMIT,
    edits: [{ search: 'this.#dearest.set(rung, Math.max(usd, this.#dearest.get(rung) ?? 0));', replace: 'this.#dearest.set(rung, usd);' }],
    breaks: 'a cheap pass after a dear one lowers the estimate', why: 'the run starts a pass that takes it past --max-cost', tests: SPEND_TESTS,
  },
  {
    name: 'passes running not reserved', file: COST_LIMIT,
    edits: [{ search: '    for (const usd of this.#reserved.values()) reserved += usd;\n', replace: '' }],
    breaks: 'passes under way count for nothing against the limit', why: 'at concurrency 8, eight passes start on the money left for one', tests: SPEND_TESTS,
  },
  {
    name: 'the limit stops while passes run', file: COST_LIMIT,
    edits: [{ search: "    if (running > 0) return 'wait';\n    this.#stop", replace: '    this.#stop' }],
    breaks: 'the run stops on estimates that the passes running may undercut', why: 'a run ends with budget left that a pass would have fitted', tests: SPEND_TESTS,
  },
  {
    name: "a provider's own price used at any endpoint", file: PRICES,
    edits: [{ search: "const entry = prices.entries.find((e) => named(e) && (e.baseUrl === undefined\n    ? own", replace: "const entry = prices.entries.find((e) => named(e) && (e.baseUrl === undefined\n    ? true" }],
    breaks: "a run against a proxy or another service is priced at OpenAI's own rates", why: 'the cost is a guess dressed as a price', tests: PRICE_TESTS,
  },
  {
    name: 'cached input billed at the input price', file: PRICES,
    edits: [{ search: 'read * (p.cachedInput ?? p.input)', replace: 'read * p.input' }],
    breaks: 'tokens served from the cache cost as much as fresh ones', why: 'an arm that reuses its prompt looks dearer than it is', tests: PRICE_TESTS,
  },
  {
    name: 'the shipped price over the user\'s', file: PRICES,
    edits: [{ search: 'entries: [...own.entries, ...shippedPrices().entries]', replace: 'entries: [...shippedPrices().entries, ...own.entries]' }],
    breaks: '--prices cannot correct a shipped price', why: 'a price that changed stays wrong whatever the user gives', tests: PRICE_TESTS,
  },
  {
    name: 'pairs with missing tokens compared', file: 'src/report/costCompare.ts',
    edits: [{ search: ' && !missingTokens(p.a) && !missingTokens(p.b));', replace: ');' }],
    breaks: 'a pair whose cost is only a lower bound is compared as exact', why: 'the side whose requests were cut off looks cheaper', tests: ['test/report/costCompare.test.ts', 'test/report/cost.test.ts'],
  },
  {
    name: 'a burst of throttles lowers the level once per throttle', file: 'src/models/pace.ts',
    edits: [{ search: '    if (ticket.seq <= this.#loweredAt) return;\n', replace: '' }],
    breaks: 'eight passes throttled together take the level from 8 to 1', why: 'one rate-limit burst serialises the rest of the run', tests: ['test/models/pace.test.ts'],
  },
  {
    name: 'answers counted through a Retry-After', file: 'src/models/pace.ts',
    edits: [{ search: 'if (ticket.seq <= this.#changedAt || this.#now() < this.#holdUntil) return;', replace: 'if (ticket.seq <= this.#changedAt) return;' }],
    breaks: 'the level rises while the provider asked to hold off', why: 'the run throttles itself again at once', tests: ['test/models/pace.test.ts'],
  },
  {
    name: 'the streak counts any error', file: 'src/runner/streak.ts',
    edits: [{ search: 'if (streak?.by !== errored.by) streak = { by: errored.by, ids: [] };', replace: 'streak ??= { by: errored.by, ids: [] };' }],
    breaks: 'three errored passes failed by different parties stop the run as one outage', why: 'a flaky server and a 500 give up a run the provider was serving', tests: ['test/runner/streak.test.ts'],
  },
  {
    name: 'secrets replaced in the order given', file: 'src/trace/scrub.ts',
    edits: [{ search: 'const values = [...replacement.keys()].sort((a, b) => b.length - a.length);', replace: 'const values = [...replacement.keys()];' }],
    breaks: 'a secret containing another is replaced in part', why: 'the rest of the longer secret lands in the trace', tests: ['test/trace/scrub.test.ts'],
  },
  {
    name: "a redacted adaptation keeps its reason", file: 'src/trace/redact.ts',
    edits: [{ search: 'adaptations.map(({ kind, tool }) => ({ kind, ...(tool === undefined ? {} : { tool }) }))', replace: 'adaptations' }],
    breaks: 'a redacted trace quotes the arguments the model wrote', why: '--redact content leaks what it promises to drop', tests: ['test/trace/redact.test.ts'],
  },
  {
    name: 'a long name hashed after cleaning', file: 'src/models/names.ts',
    edits: [{ search: "createHash('sha256').update(name)", replace: "createHash('sha256').update(clean)" }],
    breaks: 'two long names that differ only in refused characters go out under one name', why: 'a roster with both tools is refused as a collision', tests: ['test/models/names.test.ts'],
  },
  {
    name: 'tool results compared with their numbers', file: 'src/report/transcript/diverge.ts',
    edits: [{ search: "if (!same(cx.result, cy.result, true)) return", replace: "if (!same(cx.result, cy.result)) return" }],
    breaks: 'a clock or id in a result reads as the arms diverging', why: 'ladder show points at a difference that is only the time of day', tests: ['test/report/diverge.test.ts'],
  },
  {
    name: 'a union requires what any variant requires', file: 'src/models/schema.ts',
    edits: [{ search: "  const shared = key === 'allOf'", replace: "  const shared = key !== ''" }],
    breaks: 'a flattened anyOf requires fields only one variant needs', why: 'the model must fill in fields of every alternative, or the provider refuses the call', tests: ['test/models/schema.test.ts'],
  },
  {
    name: 'an answer handled before the progress read with it', file: 'src/lane/connections.ts',
    edits: [{ search: '  deliverNotificationsFirst(transport);\n', replace: '' }],
    breaks: "a fast tool's progress is dropped as an unknown token", why: 'the deadline is not reset by it and the client of the gateway never sees it', tests: ['test/lane/stdio.test.ts'],
  },
  {
    name: "an HTTP server's lost session not read as a close", file: 'src/mcp/errors.ts',
    edits: [{ search: 'if (error instanceof SdkHttpError) return error.status === 404;\n  return causes(error).some(', replace: 'if (error instanceof SdkHttpError) return false;\n  return false && causes(error).some(' }],
    breaks: 'the gateway never connects again to an HTTP server that dropped', why: 'every call to it fails until the gateway is restarted by hand', tests: ['test/gateway/httpUpstream.test.ts'],
  },
  {
    name: "every HTTP request listening on the transport's one signal", file: 'src/mcp/client.ts',
    edits: [{ search: 'signal: AbortSignal.any([init.signal])', replace: 'signal: init.signal' }],
    breaks: 'a busy HTTP client holds a listener per request until garbage collection', why: 'a long-lived gateway prints a MaxListenersExceededWarning per request past 1,500', tests: ['test/mcp/client.test.ts'],
  },
  {
    name: "a rung's declared answers to a server's requests for input ignored", file: 'src/lane/lane.ts',
    edits: [{ search: 'answerFor(asked, declared)', replace: 'answerFor(asked, [])' }],
    breaks: 'every request for input is declined', why: 'a rung that confirms a deployment never gets it done, in either era', tests: ['test/lane/elicit.test.ts'],
  },
  {
    name: "a 2026-07-28 listing's ttlMs not handed to the roster cache", file: 'src/lane/turn.ts',
    edits: [{ search: 'modern ? Math.max(0, listing.ttlMs ?? 0) : undefined', replace: 'undefined' }],
    breaks: 'every listing gets the cache\'s own TTL, whatever the server said', why: 'a server that says its list is fresh for 5 s is trusted for an hour, and roster=strict measures nothing', tests: ['test/lane/ttl.test.ts'],
  },
  {
    name: "a 2025 server's HTTP 500 to the probe taken as final", file: 'src/mcp/client.ts',
    edits: [{ search: "if (protocol !== 'auto' || !probeAnsweredBadly(error)) throw error;", replace: 'throw error;' }],
    breaks: 'auto never tries the 2025 handshake after a 5xx to server/discover', why: 'a 2025 server that fails its session check on the probe (the git server of git-over-http) is never reached', tests: ['test/lane/refusal.test.ts'],
  },
  {
    name: 'a reference call matched by every call of its tool', file: 'src/report/selection.ts',
    edits: [{ search: 'matched += Math.min(count, wanted.get(tool) ?? 0);', replace: 'matched += wanted.has(tool) ? count : 0;' }],
    breaks: 'calling the right tool five times reads as five right choices', why: "a looping agent's precision reads perfect, and its F1 can pass 1", tests: ['test/report/selection.test.ts', 'test/report/paired.test.ts'],
  },
  {
    name: 'path efficiency not capped at 1', file: 'src/report/selection.ts',
    edits: [{ search: 'Math.min(1, referenceCalls / calls)', replace: 'referenceCalls / calls' }],
    breaks: 'an agent that skipped reference calls scores a path better than the reference', why: 'doing less than the task reads as efficiency', tests: ['test/report/selection.test.ts'],
  },
  {
    name: 'a selection score read as better lower', file: 'src/report/paired.ts',
    edits: [{ search: "verdictOf(moved(lower, upper), def.better ?? 'lower')", replace: "verdictOf(moved(lower, upper), 'lower')" }],
    breaks: 'an arm whose agents keep to the reference path is called worse', why: 'a calibrated effect on path efficiency or F1 is read backwards', tests: ['test/report/paired.test.ts'],
  },
  {
    name: "the one-shot run scored against its first step's reference only", file: 'src/runner/pass.ts',
    edits: [{ search: "const steps = mode === 'oneshot' ? rung.steps : [rung.steps[index]!];", replace: 'const steps = [rung.steps[index]!];' }],
    breaks: "a one-shot run's calls for later tasks count as wrong choices", why: 'one-shot reads as worse selection than step by step for the same path', tests: ['test/runner/passEvents.test.ts'],
  },
  {
    name: "a run's judge checks never given the judge", file: 'src/runner/pass.ts',
    edits: [{ search: 'prompt: step.prompt, judge: input.judge,', replace: 'prompt: step.prompt,' }],
    breaks: 'every judge check of a run fails as not judged', why: 'a rung with a judge check can never pass in a run, whatever the judge would say', tests: ['test/judge/judgeRun.test.ts'],
  },
  {
    name: 'a judge check with no kept verdict failed by rescore', file: 'src/report/rescoreStep.ts',
    edits: [{ search: "return result.unjudged === true ? { unknown: result.why!.replace(/^not judged: /, '') } : result;", replace: 'return result;' }],
    breaks: 'a rescore without --judge-model fails every step whose judge check it cannot answer', why: 'a changed rubric flips passed steps to failed with no judge ever asked', tests: ['test/judge/judgeRun.test.ts'],
  },
  {
    name: 'a judge check made to prove itself in validate', file: 'src/runner/validate.ts',
    edits: [{ search: "if (kind === 'judge') return;", replace: '' }],
    breaks: 'ladder rungs validate calls every rung with a judge check unsolvable', why: 'validate asks no model, so no judge check could ship', tests: ['test/runner/validate.test.ts'],
  },
  {
    name: 'a session its client left is held for ever', file: 'src/gateway/mcp/http.ts',
    edits: [{ search: 'session.idle = setTimeout(() => expire(id, session), idleMs).unref();', replace: '' }],
    breaks: 'a session whose client left without DELETE is never ended', why: 'a long-lived gateway fills its 64 sessions with clients that are gone, then refuses new ones', tests: ['test/gateway/sessions.test.ts'],
  },
  {
    name: 'a resource subscribed upstream once per session', file: 'src/gateway/passThrough.ts',
    edits: [{ search: 'if (count === 0) await this.#resourceClient(uri).subscribeResource({ uri });', replace: 'await this.#resourceClient(uri).subscribeResource({ uri });' }],
    breaks: 'a second session subscribing to a URI subscribes the upstream again', why: 'and the first session to leave unsubscribes it for all', tests: ['test/gateway/passThrough.test.ts'],
  },
  {
    name: "a 2026-07-28 client not told that an upstream's lists changed", file: 'src/gateway/mcp/modern.ts',
    edits: [{ search: 'const leave = forwardListChanges(backend, handler.notify);', replace: 'const leave = () => undefined;' }],
    breaks: "a client pinned to 2026-07-28 never hears of an upstream's resource or prompt list change", why: 'its resources and prompts stay as first listed while the 2025 sessions are told', tests: ['test/gateway/passThrough.test.ts'],
  },
  {
    name: 'an updated resource sent to every session', file: 'src/gateway/mcp/passThroughHandlers.ts',
    edits: [{ search: "'notifications/resources/updated' && subscribed.has(String(notification.params?.uri))", replace: "'notifications/resources/updated'" }],
    breaks: 'a session hears of updates to resources it never subscribed to', why: 'subscriptions would mean nothing', tests: ['test/gateway/passThrough.test.ts'],
  },
  {
    name: "a transcript's call marks laid on by position", file: 'src/report/transcript/marks.ts',
    edits: [{ search: '    while (next < records.length && !sameCall(call, records[next]!)) next += 1;\n', replace: '' }],
    breaks: "a check's mark lands on the call before the one it counted", why: "an external agent's own tool (its shell) takes the mark of the gateway call after it", tests: ['test/report/transcriptAgent.test.ts'],
  },
  {
    name: "a one-shot run's call marks looked for on each step", file: 'src/report/transcript/marks.ts',
    edits: [{ search: 'const ran = oneshot ? 0 : step.step;', replace: 'const ran = step.step;' }],
    breaks: "a one-shot transcript marks no call with the later steps' checks", why: 'every step was judged on the calls recorded as step 0, and their marks would say nothing of it', tests: ['test/report/callMarks.test.ts'],
  },
  {
    name: "a judge's spending left out of its pass's cost", file: 'src/runner/spend.ts',
    edits: [{ search: 'return { usd: model.usd + spend.judges.usd, missing: model.missing + spend.judges.unpriced };', replace: 'return model;' }],
    breaks: 'what judge checks bought never counts toward the run\'s spending', why: '--max-cost would let a run with a hosted judge spend past its limit', tests: ['test/runner/spend.test.ts', 'test/judge/judgeRun.test.ts'],
  },
  {
    name: "a free model's run never reads what its judges spent", file: 'src/runner/run.ts',
    edits: [{ search: '    const cost = await passCost(file, pricing, hasJudge(id.rung));\n    if (cost !== null) spending?.finished(', replace: '    const cost = await passCost(file, pricing);\n    if (cost !== null) spending?.finished(' }],
    breaks: 'a synthetic or local run with a hosted judge says it spent nothing', why: 'its --max-cost never stops it, whatever the judge costs', tests: ['test/judge/judgeRun.test.ts'],
  },
  {
    name: "show's transcript left without its call marks", file: 'src/report/show.ts',
    edits: [{ search: 'callMarks: marks, notes:', replace: 'notes:' }],
    breaks: '`ladder show` prints no check under any call', why: 'the marks are computed and then dropped: the terminal says less than the HTML report', tests: ['test/report/callMarks.test.ts'],
  },
  {
    name: 'start-up counted at every acp step', file: 'src/agents/acp.ts',
    edits: [{ search: '    if (first) options.onSpawn?.(spawnedAt);\n', replace: '    options.onSpawn?.(spawnedAt);\n' }],
    breaks: "an acp agent's later steps record a start-up and are given the start-up allowance again",
    why: 'the time split charges one start-up per step to an agent that started once, and a later step that hangs runs 30 s past its limit',
    tests: ['test/runner/startup.test.ts'],
  },
];

const REPLAY_MODEL = 'src/models/replay.ts';
const REPLAY_SOURCE = 'src/runner/replay.ts';
const PACE = 'src/models/pace.ts';

/**
 * Bugs planted by hand in modules Stryker already covers, that passed the whole suite because
 * no syntax mutant writes them: a field used where its sibling belongs, a counter not reset on
 * a state change, a transform skipped on one of two paths.
 */
const PLANTED: NamedMutation[] = [
  {
    name: 'cache writes billed at the cached-read price', file: PRICES,
    edits: [{ search: 'write * (p.cacheWrite ?? p.input)', replace: 'write * (p.cacheWrite ?? p.cachedInput ?? p.input)' }],
    breaks: 'a model with a cached-read price and no write price bills its cache writes at the read price',
    why: 'writes cost at least the input price everywhere; an arm that fills the cache looks up to ten times cheaper on those tokens',
    tests: [...PRICE_TESTS, 'test/runner/spend.test.ts'],
  },
  {
    name: 'a throttle at the floor does not restart the count of answers', file: PACE,
    edits: [{ search: '    this.#answered = 0;\n    if (level === this.#level) return;\n', replace: '    if (level === this.#level) return;\n    this.#answered = 0;\n' }],
    breaks: 'answers counted before a throttle at the floor still count toward the next rise',
    why: 'the level rises straight after the provider throttled it, and is throttled again', tests: ['test/models/pace.test.ts'],
  },
  {
    name: 'a throttle at the floor counts answers to requests sent before it', file: PACE,
    edits: [{ search: '    this.#changedAt = this.#sequence;\n    this.#answered = 0;\n    if (level === this.#level) return;\n',
      replace: '    this.#answered = 0;\n    if (level === this.#level) return;\n    this.#changedAt = this.#sequence;\n' }],
    breaks: 'requests in flight when the floor was throttled count toward the next rise',
    why: 'answers the provider gave under the old load raise the level it just said was too high', tests: ['test/models/pace.test.ts'],
  },
  {
    name: "replayed requests hashed without the pass's scrubber", file: REPLAY_SOURCE,
    edits: [{ search: 'exchanges: recorded.exchanges, scrubber,', replace: 'exchanges: recorded.exchanges,' }],
    breaks: 'a replay hashes its requests with the workspace path in them, the recording with it scrubbed',
    why: 'every step whose prompt or tool results name the workspace diverges: no such run can be replayed', tests: ['test/runner/replaySource.test.ts'],
  },
  {
    name: 'the replay model hashes without the scrubber', file: REPLAY_MODEL,
    edits: [{ search: 'recorded.request.hash !== requestHash(request, this.#options.scrubber)', replace: 'recorded.request.hash !== requestHash(request)' }],
    breaks: 'a request that names the workspace never hashes as recorded', why: 'the replay diverges where nothing changed', tests: ['test/models/replay.test.ts'],
  },
  {
    name: 'a divergence explained without the scrubber', file: REPLAY_MODEL,
    edits: [{ search: 'firstDifference(recorded.request, request, this.#options.scrubber)', replace: 'firstDifference(recorded.request, request)' }],
    breaks: 'the divergence names the workspace path as the difference, not what changed',
    why: 'the user is sent to the one message that is the same', tests: ['test/models/replay.test.ts'],
  },
  {
    name: "an external agent's tool results compared unscrubbed", file: REPLAY_MODEL,
    edits: [{ search: 'externalDifference(recorded.request, request, this.#options.scrubber)', replace: 'externalDifference(recorded.request, request)' }],
    breaks: "a replayed external agent's tool result that names the workspace differs from the recorded one",
    why: 'an external agent that reads or writes a file in its workspace can never be replayed', tests: ['test/models/replay.test.ts'],
  },
  {
    name: 'a replay reads every attempt of a resumed pass', file: REPLAY_SOURCE,
    edits: [{ search: "      if (event.type === 'pass.start') events = [];\n", replace: '' }],
    breaks: "the conversation a replay checks against starts with the abandoned attempt's messages",
    why: 'a resumed pass replays as diverged at its first request', tests: ['test/runner/replaySource.test.ts'],
  },
  {
    name: "a finished pass's cost counted under its pass, not its rung", file: COST_LIMIT,
    edits: [{ search: '    this.#count(rung, usd, missing);\n', replace: '    this.#count(key, usd, missing);\n' }],
    breaks: "every rung's next pass is estimated at the dearest pass of any rung",
    why: 'a run of cheap rungs beside one dear rung stops on --max-cost with most of its budget left', tests: SPEND_TESTS,
  },
  {
    name: "the workbench's wait cap switched by the deadline's flag", file: 'src/runner/pass.ts',
    edits: [{ search: 'waitCap: arm.cap,', replace: 'waitCap: arm.deadline,' }],
    breaks: 'an arm with cap off and deadline on runs a capped workbench, and the other way round',
    why: 'the arm that measures what the cap buys measures the deadline instead', tests: ['test/runner/passWaitCap.test.ts'],
  },
];

const CONTINUITY = 'src/trace/continuity.ts';
const EXTERNAL = 'src/runner/externalNames.ts';

/** One conversation a pass (issue 33): the reading that says whether a step carried the earlier ones, and the policy that relies on what the agent sent. */
const CONVERSATION: NamedMutation[] = [
  {
    name: 'a step read as carrying the conversation when only its own prompt is there', file: CONTINUITY,
    edits: [{ search: 'if (!prompts.some((text) => text.includes(step.prompt)))', replace: 'if (prompts.length === 0)' }],
    breaks: "a request that holds any user message reads as carrying the earlier steps' prompts",
    why: 'an agent that starts every step anew is reported as keeping its conversation, and its later steps are measured on a task the rung never set',
    tests: ['test/trace/continuity.test.ts'],
  },
  {
    name: "a step's tool results not read", file: CONTINUITY,
    edits: [{ search: '    for (const result of step.toolResults) {', replace: '    for (const result of [] as string[]) {' }],
    breaks: 'a request that kept the prompts but lost the tool results reads as carrying the earlier steps',
    why: 'an agent that drops what its tools found (the commit it must tag) is reported as keeping it', tests: ['test/trace/continuity.test.ts'],
  },
  {
    name: "a synthetic policy shown the runner's prompts, not the agent's", file: EXTERNAL,
    edits: [{ search: "const carried = prompts.slice(0, -1).filter((prompt) => sent.some((text) => text.includes(prompt)));", replace: 'const carried = prompts.slice(0, -1);' }],
    breaks: 'the scripted model follows the reference whatever the agent sent',
    why: 'a recipe that drops the conversation passes the real-agent suite: CI cannot see the lost context', tests: ['test/runner/externalNames.test.ts'],
  },
];

const READERS = 'src/matrix/readers.ts';
const READER_TESTS = ['test/matrix/readers.test.ts'];

/** The agent matrix (issue 34): one reader broken in each scenario family, read from a recording whose truth is known. */
const MATRIX: NamedMutation[] = [
  {
    name: 'a probe before initialize not seen', file: READERS,
    edits: [{ search: "const after = probe !== undefined && probe.t <= init.t ? ' (after a 2026-07-28 probe)' : '';", replace: "const after = '';" }],
    breaks: 'a client that asked server/discover first reads as a plain 2025 client', why: "the revisions row hides which agents already try 2026-07-28", tests: READER_TESTS,
  },
  {
    name: 'a renamed tool read as written', file: READERS,
    edits: [{ search: 'const name = suffix ? \'\' : `renamed ${offered.as}`;', replace: "const name = '';" }],
    breaks: 'a tool the agent renamed (a dot, a long name) reads as offered under its own name', why: 'a server author is told a name works that the model never sees', tests: READER_TESTS,
  },
  {
    name: 'calls one after another read as sent at once', file: READERS,
    edits: [{ search: 'if (calls.every((c) => c.t < firstAnswer))', replace: 'if (calls.length > 0)' }],
    breaks: 'every client reads as running a turn\'s calls in parallel', why: 'a slow tool\'s cost to a serial agent is hidden', tests: READER_TESTS,
  },
  {
    name: 'resources listed read as ignored', file: READERS,
    edits: [{ search: "const listed = lists.length > 0 ? 'listed' : 'not listed';", replace: "const listed = 'not listed';" }],
    breaks: 'an agent that lists resources reads as ignoring them', why: 'a server author drops resources an agent would have used', tests: READER_TESTS,
  },
  {
    name: 'a cut result read as whole', file: READERS,
    edits: [{ search: 'if (begins && ends)', replace: 'if (begins)' }],
    breaks: 'a result cut at its end reads as reaching the model whole', why: 'a server author sends 1 MB believing the model reads all of it', tests: READER_TESTS,
  },
  {
    name: 'a re-list read as none', file: READERS,
    edits: [{ search: "const again = sent(rec, 'tools/list').filter((e) => e.t > told.t && e.t < nextStep);", replace: 'const again: WireEntry[] = [];' }],
    breaks: 'a client that lists again on list_changed reads as ignoring it', why: 'the tool-list row says an agent misses added tools that it sees', tests: READER_TESTS,
  },
  {
    name: 'an elicitation answer read as accepted', file: READERS,
    edits: [{ search: "return cell(row, String((reply.message?.result as Message | undefined)?.action ?? 'an answer without action'), where(reply));", replace: "return cell(row, 'accept', where(reply));" }],
    breaks: 'a declined or cancelled elicitation reads as accepted', why: 'a server author relies on a confirmation a headless agent never gives', tests: READER_TESTS,
  },
  {
    name: 'a cancellation not seen', file: READERS,
    edits: [{ search: "const cancel = sent(rec, 'notifications/cancelled').find((e) => params(e).requestId === call.message?.id && e.t >= call.t);", replace: 'const cancel = undefined;' }],
    breaks: 'a client that sends notifications/cancelled reads as only closing the request', why: 'a server keeps working on calls its client gave up', tests: READER_TESTS,
  },
  {
    name: "a loop guard's count off by one", file: READERS,
    edits: [{ search: 'if (how !== undefined) return cell(row, `stopped itself after ${reached} calls (${how})`, `${reached} tools/call on the wire`, `stopped itself after ${reached} calls`);', replace: 'if (how !== undefined) return cell(row, `stopped itself after ${reached + 1} calls (${how})`, `${reached} tools/call on the wire`, `stopped itself after ${reached + 1} calls`);' }],
    breaks: 'the number of identical calls before an agent stops itself is one too many', why: 'the repeats row is the count a harness compares its own guard with', tests: READER_TESTS,
  },
  {
    name: 'a failed reconnection read as one', file: READERS,
    edits: [{ search: 'if (through && again.length > 0)', replace: 'if (again.length > 0)' }],
    breaks: 'a client that opened a new session but whose call still failed reads as recovered', why: 'a server restart is said to be harmless to an agent that loses the call', tests: READER_TESTS,
  },
];

export const NAMED_MUTATIONS: readonly NamedMutation[] = [...WAIT_CAP, ...MECHANISMS, ...NUMBERS, ...PIPELINE, ...BEYOND_SYNTAX, ...NEW_MODULES, ...PLANTED, ...CONVERSATION, ...MATRIX];
