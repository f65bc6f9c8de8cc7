// Shared by the runner's tests: fixture rungs, a quiet in-process run, and reading a results
// folder back as the set of passes it holds.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = ['test/runner/fixtures/tiny-catalog.yaml', 'test/runner/fixtures/tiny-files.yaml'];
/** The small run every comparison is made against: 2 rungs x 2 arms x 2 passes. */
/** Each pathology at every decision (p = 1), so the fixtures' verdicts are the incident's. */
export const SMALL: RunArgs = { rungs: FIXTURES, model: 'synthetic:mix?p=1', passes: 2, seed: 5, timeFactor: 0.01 };

const made: string[] = [];

/** A fresh folder in the system's temp dir, removed by removeTempDirs. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** For afterAll: every folder tempDir made in this test file. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

export async function quietRun(args: RunArgs, extra: { tempBase?: string; signal?: AbortSignal } = {}): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const progress = new PassThrough();
  progress.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const code = await runLadder(args, {
    cwd: ROOT, env: {}, stdout: (line) => lines.push(line), progress,
    signal: extra.signal ?? new AbortController().signal, ...(extra.tempBase === undefined ? {} : { tempBase: extra.tempBase }),
  });
  return { code, lines };
}

export interface PassSeen {
  id: string;
  seed: number;
  passed: boolean;
  /** pass.start events in the file: more than one means a pass was written twice. */
  starts: number;
  complete: boolean;
  time: string;
}

/** Every pass trace in a results folder, keyed `rung/arm/pass`. */
export async function passesIn(out: string): Promise<PassSeen[]> {
  const seen: PassSeen[] = [];
  for (const path of await listTraces(out)) {
    const { events } = await readTraceAll(join(out, 'traces', path));
    const starts = events.filter((e) => e.type === 'pass.start');
    const start = starts[0];
    const end = events.at(-1);
    if (start?.type !== 'pass.start') {
      // Killed between creating the file and writing its first line: an incomplete pass.
      seen.push({ id: path.replace(/\.jsonl$/, ''), seed: -1, starts: 0, time: '', complete: false, passed: false });
      continue;
    }
    seen.push({
      id: `${start.rung}/${start.arm}/${start.pass}`, seed: start.seed, starts: starts.length, time: start.time,
      complete: end?.type === 'pass.end', passed: end?.type === 'pass.end' && end.passed,
    });
  }
  return seen.sort((a, b) => a.id.localeCompare(b.id));
}

export async function manifestOf(out: string): Promise<Record<string, unknown> & { status: string; options: Record<string, unknown> }> {
  return JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
}

/** Fields that are times: all that may differ between two runs of the same seed. */
const TIMES = new Set(['t', 'ms', 'time', 'answeredAt']);

/** Every pass's events, keyed by trace path, with the fields that are times left out. */
export async function tracesWithoutTimes(out: string): Promise<Map<string, Record<string, unknown>[]>> {
  const passes = new Map<string, Record<string, unknown>[]>();
  for (const path of await listTraces(out)) {
    const { events } = await readTraceAll(join(out, 'traces', path));
    passes.set(path, events.map((event) => Object.fromEntries(Object.entries(event).filter(([key]) => !TIMES.has(key)))));
  }
  return passes;
}

/** What a comparison of two runs looks at: which passes exist and whether each passed. */
export const verdicts = (passes: PassSeen[]) => passes.map((p) => `${p.id} ${p.passed ? 'passed' : 'failed'} seed ${p.seed}`);
