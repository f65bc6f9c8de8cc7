// Writes small results folders for the report tests: a manifest and one JSONL trace per pass,
// from terse pass descriptions, so each test states exactly the events it counts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { summarizeRun } from '../../src/report/summary.ts';
import type { RunSummary } from '../../src/report/summary.ts';
import type { Outcome, StepEndReason, TraceEventInput } from '../../src/trace/index.ts';

export interface CallSpec {
  tool?: string;
  /** Calls with the same key are identical calls. */
  key?: string;
  outcome?: Outcome;
  deterministic?: boolean;
  /** Defaults to the step's turn (step + 1). */
  turn?: number;
  /** The call's `ms` (default 1) and server (default the tool's prefix). */
  ms?: number;
  server?: string;
}

export interface StepSpec {
  passed?: boolean;
  reason?: StepEndReason;
  calls?: CallSpec[];
  /** Tools offered on each model request. */
  requests?: number[];
  /** Input and output tokens of each model response (null: not reported), and its cache reads and writes. */
  tokens?: [number | null, number | null, number?, number?][];
  /** `ms` of each model response (default 1). */
  roundMs?: number[];
  configured?: number;
  /** step.end `t` and `ms`, and answeredAt (ms after the step started) when a correct answer existed. */
  ms?: number;
  answeredAfter?: number;
}

export interface PassSpec {
  rung?: string;
  arm?: string;
  pass?: number;
  seed?: number;
  steps: StepSpec[];
  /** false: no pass.end (an interrupted pass). */
  end?: boolean;
  error?: string;
}

/**
 * One pass as JSONL: each step starts 1 ms after the last ended and lasts its `ms`; its listing
 * and requests sit 1 ms in, its responses and calls follow one after another from there.
 */
export function passJsonl(spec: PassSpec): string {
  const lines: string[] = [];
  let t = 0;
  const emit = (e: TraceEventInput, at = t): void => {
    const { type, ...rest } = e;
    lines.push(`${JSON.stringify({ v: 1, type, t: at, ...rest })}\n`);
  };
  emit({ type: 'pass.start', rung: spec.rung ?? 'r', arm: spec.arm ?? 'on', pass: spec.pass ?? 0, seed: spec.seed ?? 7 + (spec.pass ?? 0),
    time: '2026-01-01T00:00:00.000Z' });
  spec.steps.forEach((s, step) => {
    const start = (t += 1);
    emit({ type: 'step.start', step, ceiling: 8, timeLimitMs: 60_000 });
    t += 1;
    emit({ type: 'tools.list', 'mcp.method.name': 'tools/list', turn: step + 1, configured: s.configured ?? 1, reached: 1, listed: 1,
      registered: 1, unavailable: 0, cached: 0, tools: 3, failed: [], ms: 1 });
    (s.requests ?? [3]).forEach((tools, round) => emit({ type: 'model.request', step, round, 'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'synthetic', 'gen_ai.request.model': 'x', tools, messages: 1, messageBytes: 10 }));
    // Responses, then calls, one after another, each stamped when it ended (as the runner does).
    let cursor = t;
    (s.tokens ?? []).forEach(([input, output, read, write], round) => {
      const ms = s.roundMs?.[round] ?? 1;
      emit({ type: 'model.response', step, round, 'gen_ai.usage.input_tokens': input,
        'gen_ai.usage.output_tokens': output, ...(read === undefined ? {} : { 'gen_ai.usage.cache_read.input_tokens': read }),
        ...(write === undefined ? {} : { 'gen_ai.usage.cache_creation.input_tokens': write }),
        'gen_ai.response.finish_reasons': ['stop'], ms, attempts: 1, textBytes: 1, toolCalls: [] }, (cursor += ms));
    });
    for (const c of s.calls ?? []) {
      const name = c.tool ?? 'srv__tool';
      emit({ type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name, turn: c.turn ?? step + 1, round: 0,
        server: c.server ?? (name.includes('__') ? name.split('__')[0]! : 'srv'),
        tool: name.split('__')[1] ?? name, key: c.key ?? 'k', outcome: c.outcome ?? 'ok', ms: c.ms ?? 1, argBytes: 2, resultBytes: 2,
        ...(c.deterministic === undefined ? {} : { deterministic: c.deterministic }) }, (cursor += c.ms ?? 1));
    }
    const ms = s.ms ?? 100;
    // A step whose rounds and calls outlast its `ms` ends when they do (its `ms` as given).
    t = Math.max(start + ms, cursor);
    emit({ type: 'step.end', step, passed: s.passed ?? true, reason: s.reason ?? 'answered',
      failedChecks: s.passed === false ? [{ check: 'answer', why: 'no' }] : [], rounds: 1, calls: s.calls?.length ?? 0, ms,
      ...(s.answeredAfter === undefined ? {} : { answeredAt: start + s.answeredAfter }) });
  });
  if (spec.end !== false) {
    t += 1;
    emit({ type: 'pass.end', passed: spec.steps.every((s) => s.passed !== false), steps: spec.steps.length, ms: t,
      ...(spec.error === undefined ? {} : { error: spec.error }) });
  }
  return lines.join('');
}

export interface RunSpec {
  runId?: string;
  arms?: string[];
  synthetic?: boolean;
  rungs?: { name: string; sha256?: string }[];
  passes: PassSpec[];
  /** The manifest's `model`, in place of the synthetic or Ollama one `synthetic` picks. */
  model?: Record<string, unknown>;
  /** Extra raw text per trace file name, appended after the events (a torn line, a second attempt). */
  extra?: Record<string, string>;
}

/** A fresh temporary folder; remove it with the returned function. */
export function tempDir(prefix = 'ladder-report-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh folder for each test of the calling file (made before it, removed after it), and a
 * summary of a run written there, with the arm `on` unless the spec names others.
 */
export function runFolderPerTest(): { readonly dir: string; summarize: (spec: RunSpec) => Promise<RunSummary> } {
  let current: { dir: string; remove: () => void } | undefined;
  beforeEach(() => {
    current = tempDir();
  });
  afterEach(() => current?.remove());
  const folder = {
    get dir(): string {
      if (current === undefined) throw new Error('runFolderPerTest: the folder exists only while a test runs');
      return current.dir;
    },
    summarize: async (spec: RunSpec) => summarizeRun(writeRun(folder.dir, { arms: ['on'], ...spec })),
  };
  return folder;
}

export function writeRun(dir: string, spec: RunSpec): string {
  mkdirSync(join(dir, 'traces'), { recursive: true });
  const rungs: { name: string; sha256?: string }[] = spec.rungs ?? [...new Set(spec.passes.map((p) => p.rung ?? 'r'))].map((name) => ({ name }));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
    format: 1, runId: spec.runId ?? 'run', ladderVersion: '0.1.0', gitSha: 'abc', node: 'v20.20.0',
    model: spec.model ?? { spec: spec.synthetic === false ? 'ollama:qwen3:8b' : 'synthetic:looper', reason: 'test', synthetic: spec.synthetic !== false },
    arms: spec.arms ?? ['on', 'off'], passes: 1, seed: 7, timeFactor: 1, rungs: rungs.map((r) => ({ name: r.name, file: `rungs/${r.name}.yaml`, sha256: r.sha256 ?? 'x' })),
    options: {}, status: 'complete', startedAt: '2026-01-01T00:00:00.000Z',
  }));
  spec.passes.forEach((p, i) => {
    const name = `p${String(i).padStart(3, '0')}.jsonl`;
    writeFileSync(join(dir, 'traces', name), passJsonl(p) + (spec.extra?.[name] ?? ''));
  });
  return dir;
}
