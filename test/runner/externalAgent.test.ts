// An external agent on the ladder, end to end, with no real agent installed: the example
// harness (examples/agents/tool-loop-agent.mjs: the OpenAI SDK against the model gateway, the
// MCP SDK against the MCP gateway) runs three rungs on both arms of each rung's declared effect,
// a synthetic policy behind the model gateway. The declared effects must show through it, the
// breaker's refusals must reach the agent on `on` and not on `off`, and every trace is whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CALIBRATE_PASSES, calibrate } from '../../src/report/calibrate.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';
import { removeTempDirs, ROOT, tempDir } from './helpers.ts';
import { stepsNotCarried } from '../helpers/continuity.ts';
import { prepareRun } from '../../src/runner/prepare.ts';
import { executeRun } from '../../src/runner/run.ts';
import { summarizeRun } from '../../src/report/summary.ts';

afterAll(removeTempDirs);

const RUNGS = ['rungs/review-dead-browser.yaml', 'rungs/config-from-catalog.yaml', 'rungs/fails-twice-then-works.yaml'];
const AGENT = 'examples/agents/tool-loop.yaml';

describe('an external agent through the gateways', () => {
  it("shows each rung's declared effect, and the breaker's refusals reach the agent on on only", async () => {
    const out = await tempDir('ladder-external-');
    const rows = await calibrate({ rungs: RUNGS, cwd: ROOT, agent: AGENT, out, progress: process.stderr });
    expect(rows.map((r) => [r.rung, r.ok, r.text])).toEqual(rows.map((r) => [r.rung, true, r.text]));

    const outcomes = new Map<string, string[]>();
    let passes = 0;
    const notCarried: string[] = [];
    for (const group of ['arms-0']) {
      for (const path of await listTraces(join(out, group))) {
        const { events } = await readTraceAll(join(out, group, 'traces', path));
        const start = events[0];
        expect(start?.type).toBe('pass.start');
        expect(events.at(-1)?.type).toBe('pass.end');
        if (start?.type !== 'pass.start') continue;
        passes += 1;
        const key = `${start.rung}/${start.arm}`;
        outcomes.set(key, [...(outcomes.get(key) ?? []), ...events.flatMap((e) => (e.type === 'tool.call' ? [e.outcome] : []))]);
        // The agent's model requests were recorded with their tokens, each with its response.
        const requests = events.filter((e) => e.type === 'model.request').length;
        expect(requests).toBeGreaterThan(0);
        expect(events.filter((e) => e.type === 'model.response').length).toBe(requests);
        // One conversation a pass: each step's first request carried the steps before it.
        notCarried.push(...stepsNotCarried(events));
      }
    }
    expect(passes).toBe(RUNGS.length * 2 * CALIBRATE_PASSES);
    expect(notCarried).toEqual([]);
    expect(outcomes.get('review-dead-browser/on')).toContain('refused');
    expect(outcomes.get('review-dead-browser/off')).not.toContain('refused');
  }, 600_000);
});

describe('an external agent that starts each step as a new conversation', () => {
  it('is read as not carrying the earlier steps, and the synthetic policy behind the gateway does what a model that lost them would', async () => {
    const dir = await tempDir('ladder-external-drop-');
    // The example harness without its conversation file: every step is a new conversation.
    const agent = join(dir, 'drops.yaml');
    writeFileSync(agent, ['name: drops', 'kind: exec', 'command: node', `args: ['${join(ROOT, 'examples/agents/tool-loop-agent.mjs')}', '{prompt}']`, "env: { AGENT_MODEL: '{model}' }"].join('\n'));
    const out = join(dir, 'run');
    const prepared = await prepareRun({ rungs: ['rungs/calc-unit-lookups.yaml'], model: 'synthetic:reference', arms: ['on'], passes: 1, agent, out }, { cwd: ROOT, env: {} });
    await executeRun(prepared, { progress: process.stderr });
    const [path] = await listTraces(out);
    const { events } = await readTraceAll(join(out, 'traces', path!));
    expect(stepsNotCarried(events)).toEqual(['calc-unit-lookups/on#0 step 1: carried false']);
    // Its second step's first request was recorded whole, marked as a restart.
    expect(events.filter((e) => e.type === 'model.request' && e.restart === true).map((e) => e.type === 'model.request' && [e.step, e.round])).toEqual([[1, 1]]);
    // Shown only its own prompt, the policy took the step for the first: step 1 fails its checks.
    expect(events.flatMap((e) => (e.type === 'step.end' ? [[e.step, e.passed]] : []))).toEqual([[0, true], [1, false]]);
    expect((await summarizeRun(out)).conversations).toEqual({ read: 1, separate: 1 });
  }, 300_000);
});

describe('an external agent when the run is killed', () => {
  it('leaves no agent process behind after SIGKILL of ladder run mid-step', async () => {
    const { spawn, execFileSync } = await import('node:child_process');
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
    const dir = await tempDir('ladder-external-kill-');
    // An exec agent that says its pid, starts a child of its own and never answers.
    const agent = join(dir, 'hangs.yaml');
    const pids = join(dir, 'pids');
    writeFileSync(agent, [
      'name: hangs', 'kind: exec', 'command: sh',
      `args: ['-c', 'sleep 300 & echo "$$ $!" > ${pids}; wait', '{prompt}']`,
    ].join('\n'));
    const run = spawn(process.execPath, [
      'bin/ladder.js', 'run', 'rungs/config-from-catalog.yaml', '--agent', agent, '--passes', '1', '--concurrency', '1',
      '--out', join(dir, 'run'),
    ], { cwd: ROOT, stdio: 'ignore', env: { ...process.env, TMPDIR: dir } });
    for (let i = 0; i < 600 && !existsSync(pids); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const [shell, sleeper] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    run.kill('SIGKILL');
    const alive = (pid: number): boolean => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 200 && (alive(shell!) || alive(sleeper!)); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect([alive(shell!), alive(sleeper!)]).toEqual([false, false]);
    // The pass's servers go too: each watches its parent (src/lane/exitWithParent.js) and exits
    // at its next look, which a loaded machine can delay past the agent's end.
    const left = () => execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(dir) && !line.includes(' ps '));
    for (let i = 0; i < 200 && left().length > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(left()).toEqual([]);
  }, 120_000);
});
