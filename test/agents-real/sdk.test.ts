// The SDK examples on the ladder: an agent on the OpenAI Agents SDK and one on LangChain.js
// (examples/agents/<name>/), each its own npm package installed into its own folder by
// scripts/test-agents.sh, each on the three rungs of rungs.test.ts, both arms of each rung's
// declared effect, the rung's own synthetic pathology behind the model gateway. The SDKs' own
// MCP and model clients do the talking: every trace must be whole, every step on `on` answered,
// the breaker's refusals must reach the agent on `on` and not on `off`, and the paired
// comparison must show each declared effect.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALIBRATE_PASSES, calibrate } from '../../src/report/calibrate.ts';
import { listTraces } from '../../src/runner/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNGS = ['rungs/review-dead-browser.yaml', 'rungs/config-from-catalog.yaml', 'rungs/fails-twice-then-works.yaml'];
const OUT = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));

const EXAMPLES = [
  // The package whose version says the script got its own install and not Ladder's (openai 6.x).
  { name: 'openai-agents', probe: 'openai', version: '7.59.0' },
  { name: 'langchain', probe: '@langchain/openai', version: '1.5.8' },
];

describe.each(EXAMPLES)('the $name example on three rungs', ({ name, probe, version }) => {
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

  it("shows each rung's declared effect, with whole traces, every step on on answered and the breaker's refusals on on only", async () => {
    const out = join(OUT, `calibrate-${name}-${Date.now()}`);
    const rows = await calibrate({ rungs: RUNGS, cwd: ROOT, agent, out, progress: process.stderr });
    expect(rows.map((r) => `${r.rung}: ${r.ok ? 'ok' : 'NOT THERE'} (${r.text})`)).toEqual(rows.map((r) => `${r.rung}: ok (${r.text})`));
    const refused = new Map<string, number>();
    const endsOnOn: string[] = [];
    const traceFolder = join(out, 'arms-0');
    const traces = await listTraces(traceFolder);
    expect(traces).toHaveLength(RUNGS.length * 2 * CALIBRATE_PASSES);
    for (const path of traces) {
      const { events } = await readTraceAll(join(traceFolder, 'traces', path));
      const start = events[0];
      expect(start?.type).toBe('pass.start');
      expect(events.at(-1)?.type).toBe('pass.end');
      if (start?.type !== 'pass.start') continue;
      const key = `${start.rung}/${start.arm}`;
      refused.set(key, (refused.get(key) ?? 0) + events.filter((e) => e.type === 'tool.call' && e.outcome === 'refused').length);
      const requests = events.filter((e) => e.type === 'model.request').length;
      expect(requests).toBeGreaterThan(0);
      expect(events.filter((e) => e.type === 'model.response').length).toBe(requests);
      if (start.arm === 'on') {
        for (const e of events) if (e.type === 'step.end') endsOnOn.push(`${key}#${start.pass} step ${e.step}: ${e.reason}`);
      }
    }
    expect(endsOnOn.length).toBeGreaterThanOrEqual(RUNGS.length * CALIBRATE_PASSES);
    expect(endsOnOn.filter((line) => !line.endsWith(': answered'))).toEqual([]);
    expect(refused.get('review-dead-browser/on')).toBeGreaterThan(0);
    expect(refused.get('review-dead-browser/off')).toBe(0);
  }, 900_000);
});
