// The real agents on the ladder: Codex over exec, Codex through codex-acp over ACP and Gemini CLI
// over exec (through the model gateway's Gemini format), each on
// three rungs, both arms of each rung's declared effect, the rung's own synthetic pathology
// behind the model gateway. Every trace must be whole, the breaker's refusals must reach the
// agent on `on` and not on `off`, and the paired comparison must show each declared effect
// (`ladder rungs calibrate --agent`), through an agent Ladder does not control.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALIBRATE_PASSES, calibrate } from '../../src/report/calibrate.ts';
import { listTraces } from '../../src/runner/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNGS = ['rungs/review-dead-browser.yaml', 'rungs/config-from-catalog.yaml', 'rungs/fails-twice-then-works.yaml'];
const OUT = fileURLToPath(new URL('../../.cache/agents-real/', import.meta.url));
/**
 * Gemini CLI is a Node program of about 100 MB that takes 10-25 s of CPU to reach its first model
 * request on a loaded 2-core machine (its --version alone took 23 s at a load average of 30):
 * at the calibration's 1/100 every step met the 20 s floor before its first request. These rungs
 * have no long waits, so a factor of 0.3 (90 s a step) changes only the time a step may take;
 * two passes at once keep the starts from crowding each other out.
 */
const SLOW_START: Readonly<Record<string, { timeFactor: number; concurrency: number }>> = { gemini: { timeFactor: 0.3, concurrency: 2 } };

describe.each(['codex', 'codex-acp', 'gemini'])('%s on three rungs', (agent) => {
  it("shows each rung's declared effect, with whole traces and the breaker's refusals on on only", async () => {
    const out = join(OUT, `calibrate-${agent}-${Date.now()}`);
    const rows = await calibrate({ rungs: RUNGS, cwd: ROOT, agent, out, progress: process.stderr, ...SLOW_START[agent] });
    expect(rows.map((r) => `${r.rung}: ${r.ok ? 'ok' : 'NOT THERE'} (${r.text})`)).toEqual(rows.map((r) => `${r.rung}: ok (${r.text})`));
    const refused = new Map<string, number>();
    const folder = join(out, 'arms-0');
    const traces = await listTraces(folder);
    expect(traces).toHaveLength(RUNGS.length * 2 * CALIBRATE_PASSES);
    for (const path of traces) {
      const { events } = await readTraceAll(join(folder, 'traces', path));
      const start = events[0];
      expect(start?.type).toBe('pass.start');
      expect(events.at(-1)?.type).toBe('pass.end');
      if (start?.type !== 'pass.start') continue;
      const key = `${start.rung}/${start.arm}`;
      refused.set(key, (refused.get(key) ?? 0) + events.filter((e) => e.type === 'tool.call' && e.outcome === 'refused').length);
      expect(events.filter((e) => e.type === 'model.request').length).toBe(events.filter((e) => e.type === 'model.response').length);
    }
    expect(refused.get('review-dead-browser/on')).toBeGreaterThan(0);
    expect(refused.get('review-dead-browser/off')).toBe(0);
  }, 2_400_000);
});
