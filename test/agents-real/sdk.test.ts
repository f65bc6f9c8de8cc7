// The SDK examples on the ladder: an agent on the OpenAI Agents SDK and one on LangChain.js
// (examples/agents/<name>/), each its own npm package installed into its own folder by
// scripts/test-agents.sh, each through the continuity check (calibrateAgent.ts: one pass of a
// three-step rung, every step carrying the earlier ones and answered; docs/build.md says why not
// the quick rung set). The SDKs' own MCP and model clients do the talking.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareRun } from '../../src/runner/prepare.ts';
import { executeRun } from '../../src/runner/run.ts';
import { listTraces } from '../../src/results/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { errorReply, FakeProvider, openaiReply } from '../models/fakeServer.ts';
import { continuityCheck } from './calibrateAgent.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));

const EXAMPLES = [
  // The package whose version says the script got its own install and not Ladder's (openai 6.x).
  { name: 'openai-agents', probe: 'openai', version: '7.59.0' },
  { name: 'langchain', probe: '@langchain/openai', version: '1.5.8' },
];

for (const { name, probe, version } of EXAMPLES) describe(`the ${name} example on three rungs`, () => {
  const folder = join(ROOT, 'examples/agents', name);
  const agent = join(folder, 'agent.yaml');

  it('resolves its packages from its own folder, at the locked versions', () => {
    const lock = JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    expect(lock.packages[`node_modules/${probe}`]?.version).toBe(version);
    expect(existsSync(join(folder, 'node_modules')), `not installed: npm ci --prefix examples/agents/${name} (scripts/test-agents.sh does it)`).toBe(true);
    // Resolved as the script's own imports are: by Node's ESM resolver, from the example's folder.
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', `process.stdout.write(import.meta.resolve(${JSON.stringify(probe)}))`], { cwd: folder, encoding: 'utf8' });
    expect(relative(join(folder, 'node_modules', probe), fileURLToPath(resolved)).startsWith('..'), `${probe} resolves to ${resolved}, outside the example's own node_modules`).toBe(false);
    expect((JSON.parse(readFileSync(join(folder, 'node_modules', probe, 'package.json'), 'utf8')) as { version: string }).version).toBe(version);
  });

  it('keeps one conversation a pass on a three-step rung: each step carries the earlier ones and is answered', async () => {
    await continuityCheck(name, agent);
  }, 600_000);

  // Behind the gateway Ladder's adapter retries the provider with back-off (4 attempts); the
  // example's client must not retry the gateway's 503 on top, or every retry is one more round.
  it("sends each model request once when the provider keeps failing: Ladder's retries, not the client's", async () => {
    const fake = await FakeProvider.start({ strict: 'openai' });
    try {
      // Pass 0 meets a provider that keeps failing (4 attempts for each of its 2 steps); pass 1 one
      // that answers, so not every pass errored and the run keeps pass 0 (a run whose every pass
      // errored is stopped and left to --resume, its traces removed).
      const STEPS = 2;
      fake.reply(
        ...Array.from({ length: 4 * STEPS }, () => errorReply('openai', 503, 'The engine is currently overloaded, please try again later')),
        ...Array.from({ length: 20 }, () => openaiReply('Done.')),
      );
      const out = join(OUT, `retries-${name}-${Date.now()}`);
      const prepared = await prepareRun({
        rungs: ['rungs/fails-twice-then-works.yaml'], model: 'openai:gpt-4o-mini', baseUrl: `${fake.url}/v1`, arms: ['on'], passes: 2, concurrency: 1, agent, out,
      }, { cwd: ROOT, env: { OPENAI_API_KEY: 'sk-test' } });
      await executeRun(prepared, { progress: process.stderr });
      const traces = await Promise.all((await listTraces(out)).map((path) => readTraceAll(join(out, 'traces', path))));
      expect(traces).toHaveLength(2);
      const events = traces.find(({ events: [start] }) => start?.type === 'pass.start' && start.pass === 0)!.events;
      const ends = events.flatMap((e) => (e.type === 'step.end' ? [e.reason] : []));
      expect(ends).toEqual(Array.from({ length: STEPS }, () => 'errored'));
      const requests = events.filter((e) => e.type === 'model.request');
      expect(requests.map((e) => e.step)).toEqual(ends.map((_, step) => step));
      const seen = fake.seen.filter((s) => s.path === '/v1/chat/completions').length;
      // Pass 0's requests each reached the provider 4 times (Ladder's attempts), none more.
      expect(seen - (traces.find(({ events: [start] }) => start?.type === 'pass.start' && start.pass === 1)!.events.filter((e) => e.type === 'model.request').length)).toBe(4 * requests.length);
    } finally {
      await fake.close();
    }
  }, 300_000);
});
