// Damaged traces, made at random from a seed: missing and mistyped fields, unknown outcomes and
// event types, events out of order, truncated and binary lines. Whatever the damage, compare,
// report, merge and resume go on, and they leave out exactly the passes that were damaged:
// every figure of the damaged run is the figure of the run without those passes.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCompare } from '../../src/cli/compare.ts';
import { runMerge } from '../../src/cli/merge.ts';
import { runReport } from '../../src/cli/report.ts';
import { loadRun, summarizeLoaded } from '../../src/report/summary.ts';
import { completedPass } from '../../src/results/store.ts';
import { EVENT_SHAPES } from '../../src/trace/schema.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/runs/after');
const TRIALS = 24;
const root = mkdtempSync(join(tmpdir(), 'ladder-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** mulberry32: a small seeded generator, so a failing trial can be made again from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Line = Record<string, unknown>;

/** The fields the format requires of an event of this type (absent is damage, by definition). */
function required(type: string): string[] {
  const shape = (EVENT_SHAPES as Record<string, { shape: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }>)[type]!.shape;
  return Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success && key !== 'type' && key !== 'v');
}

/** A value of the wrong type for any field: the format has no field an object with one key can be. */
const WRONG = { wrong: true };

const DAMAGES = {
  'missing field': (lines: string[], pick: (n: number) => number) => {
    const i = pick(lines.length);
    const event = JSON.parse(lines[i]!) as Line;
    const fields = [...required(event['type'] as string), 't'];
    delete event[fields[pick(fields.length)]!];
    lines[i] = JSON.stringify(event);
  },
  'mistyped field': (lines: string[], pick: (n: number) => number) => {
    const i = pick(lines.length);
    const event = JSON.parse(lines[i]!) as Line;
    const fields = required(event['type'] as string);
    event[fields[pick(fields.length)]!] = WRONG;
    lines[i] = JSON.stringify(event);
  },
  'unknown outcome': (lines: string[], pick: (n: number) => number) => {
    const calls = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"type":"tool.call"'));
    const [line, i] = calls[pick(calls.length)]!;
    lines[i] = line.replace(/"outcome":"[a-z_]+"/, '"outcome":"exploded"');
  },
  'unknown event type': (lines: string[], pick: (n: number) => number) => {
    lines.splice(1 + pick(lines.length - 1), 0, JSON.stringify({ v: 2, type: 'pass.middle', t: 1 }));
  },
  'events out of order': (lines: string[], pick: (n: number) => number) => {
    // Two events with different times, swapped: the later one now comes first.
    for (;;) {
      const i = 1 + pick(lines.length - 2);
      const [a, b] = [JSON.parse(lines[i]!) as Line, JSON.parse(lines[i + 1]!) as Line];
      if (a['t'] === b['t']) continue;
      [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      return;
    }
  },
  'event after pass.end': (lines: string[]) => {
    lines.push(lines[1]!);
  },
  'truncated line': (lines: string[], pick: (n: number) => number) => {
    const i = pick(lines.length - 1);
    lines[i] = lines[i]!.slice(0, Math.max(1, Math.floor(lines[i]!.length / 2)));
  },
  'binary line': (lines: string[], pick: (n: number) => number) => {
    lines.splice(pick(lines.length - 1), 0, Buffer.from([0, 255, 254, 10, 7, 0x7b]).toString('latin1'));
  },
} as const;

/** The complete passes of the fixture run, by trace file. */
function completeFiles(dir: string): string[] {
  return readdirSync(join(dir, 'traces'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl'))
    .filter((f) => readFileSync(join(dir, 'traces', f), 'utf8').trimEnd().split('\n').at(-1)!.includes('"type":"pass.end"'))
    .sort();
}

const idOf = (p: { rung: string; arm: string; pass: number }) => `${p.rung}/${p.arm}/${p.pass}`;

describe('damaged traces, made at random', () => {
  it.each(Array.from({ length: TRIALS }, (_, seed) => seed))('trial %i: every reader goes on and leaves out exactly the damaged passes', async (seed) => {
    const pick = ((r) => (n: number) => Math.floor(r() * n))(random(seed));
    const dir = join(root, `trial-${seed}`);
    cpSync(FIXTURE, dir, { recursive: true });
    const files = completeFiles(dir);
    const kinds = Object.keys(DAMAGES) as (keyof typeof DAMAGES)[];
    const damaged = new Map<string, string>();
    for (let k = 0; k < 1 + pick(3); k += 1) {
      const file = files[pick(files.length)]!;
      const kind = kinds[(seed + k) % kinds.length]!;
      const path = join(dir, 'traces', file);
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      DAMAGES[kind](lines, pick);
      writeFileSync(path, `${lines.join('\n')}\n`);
      damaged.set(file, kind);
    }

    const whole = await loadRun(FIXTURE);
    const run = await loadRun(dir);
    const left = new Set(run.passes.map((p) => p.file));
    // Exactly the damaged passes are gone, and every one of them is named among the problems.
    expect(whole.passes.filter((p) => !left.has(p.file)).map((p) => p.file.slice('traces/'.length)).sort(), [...damaged.values()].join(', '))
      .toEqual([...damaged.keys()].sort());
    expect(run.traces.damaged).toBe(damaged.size);
    for (const file of damaged.keys()) expect(run.traces.problems.some((p) => p.startsWith(`traces/${file}:`))).toBe(true);
    // Every figure is the figure of the run without them.
    const without = { ...whole, passes: whole.passes.filter((p) => left.has(p.file)) };
    expect(summarizeLoaded(run).arms).toEqual(summarizeLoaded(without).arms);
    expect(run.passes.map(idOf)).toEqual(without.passes.map(idOf));

    // Resume makes exactly the damaged passes again (and the incomplete one it always would).
    for (const file of files) expect(await completedPass(join(dir, 'traces', file)) === undefined, file).toBe(damaged.has(file));

    // Compare (against the undamaged run and alone) and report go on, saying what was left out.
    let text = '';
    expect(await runCompare({ runA: FIXTURE, runB: dir }, { out: (t) => (text += t), err: () => undefined })).toBe(0);
    expect(text).toContain(`${damaged.size === 1 ? '1 damaged pass' : `${damaged.size} damaged passes`} left out`);
    expect(await runCompare({ runA: dir, format: 'json' }, { out: () => undefined, err: () => undefined })).toBe(0);
    expect(await runReport({ run: dir, output: join(dir, 'report.html') }, { out: () => undefined, err: () => undefined })).toBe(0);

    // Merge: the run split into two shards and joined again is the same run, damage and all.
    const shards = [0, 1].map((i) => join(root, `trial-${seed}-shard-${i}`));
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> & { options: object };
    const all = readdirSync(join(dir, 'traces'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
    shards.forEach((shard, i) => {
      for (const [n, file] of all.entries()) if (n % 2 === i) cpSync(join(dir, 'traces', file), join(shard, 'traces', file), { recursive: true });
      writeFileSync(join(shard, 'manifest.json'), JSON.stringify({ ...manifest, options: { ...manifest.options, shard: `${i}/2` } }));
    });
    const said: string[] = [];
    const merged = join(root, `trial-${seed}-merged`);
    expect(await runMerge({ out: merged, shards }, (line) => said.push(line))).toBe(0);
    expect(said.at(-1)).toMatch(new RegExp(`passes \\(${damaged.size} damaged, left out of every figure\\)$`));
    expect(summarizeLoaded(await loadRun(merged)).arms).toEqual(summarizeLoaded(run).arms);
  });
});
