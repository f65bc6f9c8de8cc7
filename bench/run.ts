// `npm run bench`: runs the benchmarks and merges their figures into reports/bench.json,
// keeping keys other benchmarks wrote. `npm run bench -- lane` runs only the named ones.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

type Figures = Record<string, number | string>;

/**
 * Benchmarks by name; each returns flat figures with keys unique across benchmarks. Each is
 * imported when it runs, so `npm run bench -- gateway` loads the gateway's modules and not the
 * runner's (nor fails on a module only another benchmark needs).
 */
export const BENCHMARKS: Record<string, () => Promise<Figures>> = {
  // `ladder --help` and the workbench's start, against `node -e 0` and a bare SDK server.
  startup: async () => (await import('./startup.ts')).benchStartup(),
  lane: async () => (await import('./lane.ts')).benchLane(),
  // The same lane against a real server over stdio, where a user feels it.
  laneStdio: async () => (await import('./laneStdio.ts')).benchLaneStdio(),
  // The MCP eras against a server that speaks both: negotiation per connection (auto, pinned,
  // legacy), and the lane's overhead per call in each era beside its floor.
  eras: async () => (await import('./eras.ts')).benchEras(),
  // Every rung, 10 passes (and 30, to show memory stays flat), both arms, synthetic agents.
  runner: async () => ({ ...(await (await import('./runner.ts')).benchRunner()) }),
  // 100,000 tool-call events summarised in a child process: its own peak RSS, nothing else's.
  summarize: async () => {
    const { summarizeEventsPerSecond, summarizePeakRssMb, events, ms } = await (await import('./summarize.ts')).benchSummarize();
    return { summarizeEventsPerSecond, summarizePeakRssMb, summarizeEvents: events, summarizeMs: ms };
  },
  // Trace bytes per pass of the default rungs, with the conversation and redacted (the floor).
  traces: async () => (await import('./traces.ts')).benchTraces(),
  // The same run without and with --keep-workspaces, then rescored.
  workspaces: async () => (await import('./workspaces.ts')).benchWorkspaces(),
  // Passes per minute against a model answering after 300 ms, at concurrency 1, 4 and 8, and at 8 when it throttles.
  model: async () => (await import('./model.ts')).benchModel(),
  // The run's MCP gateway over the lane called directly, beside a bare SDK HTTP forwarder over its upstream.
  gateway: async () => (await import('./gateway.ts')).benchGateway(),
  // 10,000 calls through `ladder gateway` to upstreams that crash, hang and fail, beside a bare SDK proxy.
  'gateway-soak': async () => (await import('./gatewaySoak.ts')).benchGatewaySoak(),
  // ms the model gateway adds to a chat completion (Ladder's OpenAI adapter behind it) against the client calling the same stub directly.
  modelGateway: async () => (await import('./modelGateway.ts')).benchModelGateway(),
  // The git server started 200 times, 8 at a time, on a machine loaded on purpose: harness errors, and the time to ready against the old readiness (TCP accept).
  startedServers: async () => (await import('./startedServers.ts')).benchStartedServers(),
};

const REPORT = 'reports/bench.json';

function readReport(): Figures {
  try {
    return JSON.parse(readFileSync(REPORT, 'utf8')) as Figures;
  } catch {
    return {};
  }
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHMARKS)) {
  const started = performance.now();
  const figures = await BENCHMARKS[name]!();
  // Read just before writing: another benchmark may have written its keys meanwhile.
  const report = { ...readReport(), ...figures, [`${name}MeasuredAt`]: new Date().toISOString() };
  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`bench ${name} (${seconds} s): ${JSON.stringify(figures)}\n`);
  // A benchmark that proves something (the gateway soak) says so in a *Verdict figure; CI fails on a failed one.
  const failed = Object.entries(figures).filter(([key, value]) => key.endsWith('Verdict') && String(value).startsWith('fail'));
  for (const [key, value] of failed) process.stderr.write(`bench ${name}: ${key} ${value}\n`);
  if (failed.length > 0) process.exitCode = 1;
}
