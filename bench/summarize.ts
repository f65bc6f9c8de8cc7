// Summarising a run streams its traces: this measures how fast, and in how much memory, for a
// run of 100,000 tool-call events (goal: under 3 s and under 200 MB). The traces are in the
// current format, with the conversation: every tool result as a message event, every model
// turn with its calls and arguments, the tools offered at each step, so each event is
// validated against its shape and the content is read as a real run's would be. The summary
// runs in a child process, so its peak RSS is its own and not the benchmark harness's.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { summarizeRun } from '../src/report/summary.ts';

export const BENCH_TOOL_CALLS = 100_000;
const PASSES = 100; // 5 rungs x 2 arms x 10 passes, 1,000 calls each
const STEPS = 4;
const CALLS_PER_ROUND = 10;
const DISTINCT_KEYS = 37; // some calls repeat, as looping agents' do, so the repeat maps fill

function line(type: string, t: number, fields: Record<string, unknown>): string {
  return `${JSON.stringify({ v: 2, type, t, ...fields })}\n`;
}

/** A tool result about as long as the workbench's (its resultBytes below). */
const RESULT = `{"rows":[${Array.from({ length: 8 }, (_, i) => `{"id":${i},"item":"widget-${i}","qty":${i * 3}}`).join(',')}]}`;
const TOOLS = Array.from({ length: 6 }, (_, k) => ({
  name: `workbench__tool_${k}`, description: `Tool ${k} of the bench workbench: reads or writes a little state.`,
  inputSchema: { type: 'object', properties: { key: { type: 'string', description: 'What to read' } }, required: ['key'] },
}));

/** Writes a results folder whose traces hold `toolCalls` tool.call events, and returns it. */
export function writeBenchRun(dir: string, toolCalls = BENCH_TOOL_CALLS): void {
  const perStep = Math.ceil(toolCalls / PASSES / STEPS);
  const rungs = ['a', 'b', 'c', 'd', 'e'];
  mkdirSync(join(dir, 'traces'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
    format: 1, runId: 'bench', ladderVersion: '0', gitSha: '0', node: process.version, model: { spec: 'synthetic:looper', reason: 'bench', synthetic: true },
    arms: ['on', 'off'], passes: PASSES / 10, seed: 1, timeFactor: 1, rungs: rungs.map((name) => ({ name, file: `${name}.yaml`, sha256: '0' })),
    options: { content: 'full' }, status: 'complete', startedAt: new Date(0).toISOString(),
  }));
  for (let p = 0; p < PASSES; p += 1) {
    const [rung, arm, pass] = [rungs[p % 5]!, p % 2 === 0 ? 'on' : 'off', Math.floor(p / 10)];
    const out: string[] = [line('pass.start', 0, { rung, arm, pass, seed: pass, time: new Date(0).toISOString(), content: 'full' })];
    let t = 0;
    for (let step = 0; step < STEPS; step += 1) {
      out.push(line('step.start', (t += 1), { step, ceiling: perStep, timeLimitMs: 60_000 }));
      out.push(line('message', t, { step, message: { role: 'user', content: `Step ${step}: look up each key and report what changed since the last step.` } }));
      out.push(line('tools.list', t, { 'mcp.method.name': 'tools/list', turn: step + 1, configured: 1, reached: 1, listed: 1, registered: 1, unavailable: 0, cached: 0, tools: 6, failed: [], ms: 1,
        ...(step === 0 ? { offered: TOOLS } : {}) }));
      for (let round = 0; round * CALLS_PER_ROUND < perStep; round += 1) {
        const ks = Array.from({ length: Math.min(CALLS_PER_ROUND, perStep - round * CALLS_PER_ROUND) }, (_, j) => ((round * CALLS_PER_ROUND + j) * 7 + step) % DISTINCT_KEYS);
        const calls = ks.map((k, j) => ({ id: `call_${step}_${round}_${j}`, name: `workbench__tool_${k % 6}`, args: { key: `key${k}` } }));
        out.push(line('model.request', (t += 1), { step, round, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'synthetic', 'gen_ai.request.model': 'looper', tools: 6, messages: round + 1, messageBytes: 100, hash: '0123456789abcdef' }));
        out.push(line('model.response', (t += 5), { step, round, 'gen_ai.usage.input_tokens': 500, 'gen_ai.usage.output_tokens': 20, 'gen_ai.response.finish_reasons': ['tool_calls'], ms: 5, attempts: 1, textBytes: 0,
          toolCalls: calls.map((c) => ({ 'gen_ai.tool.name': c.name, key: c.args.key })), message: { role: 'assistant', content: '', toolCalls: calls } }));
        for (const [j, k] of ks.entries()) {
          out.push(line('tool.call', (t += 2), { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': `workbench__tool_${k % 6}`, turn: step + 1, round, server: 'workbench',
            tool: `tool_${k % 6}`, key: `key${k}`, outcome: k % 5 === 0 ? 'failed' : 'ok', ms: 2, argBytes: 20, resultBytes: RESULT.length, deterministic: k % 2 === 0,
            'gen_ai.tool.call.id': calls[j]!.id }));
          out.push(line('message', t, { step, message: { role: 'tool', toolCallId: calls[j]!.id, toolName: calls[j]!.name, content: RESULT, isError: k % 5 === 0 } }));
        }
      }
      out.push(line('step.end', (t += 1), { step, passed: (p + step) % 3 !== 0, reason: 'answered', failedChecks: [], rounds: perStep / CALLS_PER_ROUND, calls: perStep, ms: 100 }));
    }
    out.push(line('pass.end', (t += 1), { passed: false, steps: STEPS, ms: t }));
    writeFileSync(join(dir, 'traces', `${rung}-${arm}-${pass}.jsonl`), out.join(''));
  }
}

export interface SummarizeBench {
  summarizeEventsPerSecond: number;
  summarizePeakRssMb: number;
  /** Every event read (the tool calls and the rest). */
  events: number;
  toolCalls: number;
  ms: number;
}

/** Generates the run in a temporary folder, summarises it in a child process, and cleans up. */
export async function benchSummarize(toolCalls = BENCH_TOOL_CALLS): Promise<SummarizeBench> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-summarize-'));
  try {
    writeBenchRun(dir, toolCalls);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dir], {
      maxBuffer: 1 << 20,
    });
    const child = JSON.parse(stdout) as { events: number; ms: number; maxRssKb: number };
    return {
      summarizeEventsPerSecond: Math.round(child.events / (child.ms / 1000)),
      summarizePeakRssMb: Math.round((child.maxRssKb / 1024) * 10) / 10,
      events: child.events,
      toolCalls,
      ms: Math.round(child.ms),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function child(dir: string): Promise<void> {
  const started = performance.now();
  const summary = await summarizeRun(dir);
  const ms = performance.now() - started;
  // resourceUsage().maxRSS is the process's peak resident set, in kilobytes.
  process.stdout.write(JSON.stringify({ events: summary.traces.events, ms, maxRssKb: process.resourceUsage().maxRSS }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--child') await child(process.argv[3]!);
  else process.stdout.write(`${JSON.stringify(await benchSummarize(), null, 2)}\n`);
}
