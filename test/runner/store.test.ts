import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/results/manifest.ts';
import { differences } from '../../src/results/manifest.ts';
import { completedPass } from '../../src/results/store.ts';

describe('completedPass', () => {
  const write = async (text: string) => {
    const file = join(await mkdtemp(join(tmpdir(), 'ladder-store-')), 'p.jsonl');
    await writeFile(file, text);
    return file;
  };
  const start = '{"v":1,"type":"pass.start","t":0,"rung":"r","arm":"on","pass":0,"seed":1,"time":"x"}\n';

  it('reads a trace whose last event is pass.end as complete, with its verdict', async () => {
    expect(await completedPass(await write(`${start}{"v":1,"type":"pass.end","t":5,"passed":true,"steps":1,"ms":5}\n`))).toEqual({ passed: true });
    expect(await completedPass(await write(`${start}{"v":1,"type":"pass.end","t":5,"passed":false,"steps":1,"ms":5}\n`))).toEqual({ passed: false });
  });

  it('reads a trace cut short, torn, or missing as incomplete', async () => {
    expect(await completedPass(await write(start))).toBeUndefined();
    expect(await completedPass(await write(`${start}{"v":1,"type":"pass.end","t":5,"pas`))).toBeUndefined();
    // A whole pass.end without its newline was cut mid-write: the writer never leaves one.
    expect(await completedPass(await write(`${start}{"v":1,"type":"pass.end","t":5,"passed":true,"steps":1,"ms":5}`))).toBeUndefined();
    expect(await completedPass('/nonexistent/trace.jsonl')).toBeUndefined();
  });

  it('reads a pass with a damaged line or an event out of order as not complete, so resume makes it again', async () => {
    const end = '{"v":1,"type":"pass.end","t":5,"passed":true,"steps":1,"ms":5}\n';
    expect(await completedPass(await write(`${start}not json\n${end}`))).toBeUndefined();
    const stepEnd = '{"v":1,"type":"step.end","t":3,"step":0,"passed":true,"reason":"answered","failedChecks":[],"rounds":1,"calls":0,"ms":1}\n';
    expect(await completedPass(await write(`${start}${stepEnd}${end}`))).toBeUndefined();
    const { failedChecks: _gone, ...broken } = JSON.parse(stepEnd) as Record<string, unknown>;
    const stepStart = '{"v":1,"type":"step.start","t":2,"step":0,"ceiling":4,"timeLimitMs":1000}\n';
    expect(await completedPass(await write(`${start}${stepStart}${JSON.stringify(broken)}\n${end}`))).toBeUndefined();
    expect(await completedPass(await write(`${start}${stepStart}${stepEnd}${end}`))).toEqual({ passed: true });
  });
});

describe('differences', () => {
  const manifest: Manifest = {
    format: 1, runId: 'r', ladderVersion: '0.1.0', gitSha: null, node: 'v20', model: { spec: 'synthetic:mix', reason: 'x', synthetic: true },
    arms: ['on', 'off'], passes: 2, seed: 1, timeFactor: 0.01,
    rungs: [{ name: 'a', file: 'rungs/a.yaml', sha256: 'aa', timeFactor: 0.01 }],
    options: { mode: 'steps', shard: '0/2', concurrency: 4 }, status: 'running', startedAt: 'now',
  };

  it('finds nothing between one run and itself, concurrency aside', () => {
    expect(differences(manifest, { ...manifest, options: { ...manifest.options, concurrency: 1 } }, { shard: true })).toEqual([]);
  });

  it('names every setting that makes two runs different', () => {
    const other: Manifest = {
      ...manifest, passes: 3, seed: 2, arms: ['on'], model: { ...manifest.model, spec: 'synthetic:looper' },
      rungs: [{ ...manifest.rungs[0]!, sha256: 'bb' }],
    };
    expect(differences(manifest, other, { shard: true })).toEqual([
      'model "synthetic:mix" vs "synthetic:looper"', 'arms ["on","off"] vs ["on"]', 'passes 2 vs 3', 'seed 1 vs 2',
      'rung file rungs/a.yaml changed (sha256 differs)',
    ]);
  });

  it('compares the shard only when asked (resume yes, merge no)', () => {
    const other = { ...manifest, options: { ...manifest.options, shard: '1/2' } };
    expect(differences(manifest, other, { shard: true })).toEqual(['shard "0/2" vs "1/2"']);
    expect(differences(manifest, other, { shard: false })).toEqual([]);
  });
});
