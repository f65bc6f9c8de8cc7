// A five-step rung for the synthetic agents, run through the real loop and a real lane against
// an in-memory server whose tools reproduce the incidents: a deterministic catalog, a capped
// wait, a dead browser, and a tool that appears without telling anyone.
import { runStep } from '../../src/agent/index.ts';
import type { StepResult } from '../../src/agent/index.ts';
import { createSyntheticModel } from '../../src/models/index.ts';
import type { SyntheticPolicy, SyntheticScript } from '../../src/models/index.ts';
import type { ChatMessage } from '../../src/models/types.ts';
import type { ToolCallEvent, TraceEvent } from '../../src/trace/index.ts';
import { fail, ok, world } from '../agent/world.ts';
import type { FakeTool, ToolServer } from '../agent/world.ts';

/** The wait cap of the fake jobs_wait: it answers at once, as if it had waited this long. */
export const CAP_MS = 30_000;

export function tools(server: () => ToolServer): FakeTool[] {
  const notesRead: FakeTool = { name: 'notes_read', handler: () => ok('no notes yet') };
  const list: FakeTool[] = [
    { name: 'catalog_lookup', deterministic: true, handler: (args) => ok(`topic ${String(args.topic)}: named parameters use :name`) },
    { name: 'files_read', handler: (args) => ok(`contents of ${String(args.path)}`) },
    { name: 'files_write', handler: () => ok('written') },
    {
      name: 'jobs_wait',
      handler: (args) => {
        const timeoutMs = Number(args.timeoutMs);
        return ok(JSON.stringify(timeoutMs > CAP_MS ? { done: false, remainingMs: timeoutMs - CAP_MS } : { done: true, outputs: { j1: 'built' } }));
      },
    },
    { name: 'browser_navigate', handler: () => fail('upstream MCP session is closed') },
    { name: 'notes_enable', handler: () => { server().addSilently(notesRead); return ok('notes enabled; a notes_read tool now exists'); } },
  ];
  return list;
}

export const SCRIPT: SyntheticScript = {
  steps: [
    { calls: [{ tool: 'wb__catalog_lookup', args: { topic: 'sql' } }, { tool: 'wb__files_write', args: { path: 'route.yaml' } }], answer: 'wrote the route' },
    { calls: [{ tool: 'wb__jobs_wait', args: { timeoutMs: 60_000 } }], answer: 'the build finished' },
    { calls: [{ tool: 'wb__browser_navigate', args: { url: 'http://127.0.0.1:8931/review' } }, { tool: 'wb__files_read', args: { path: 'route.yaml' } }], answer: 'the browser is down; the route reads fine' },
    { calls: [{ tool: 'wb__notes_enable', args: {} }, { tool: 'wb__notes_read', args: {} }], answer: 'notes are on' },
    { calls: [{ tool: 'wb__notes_read', args: {} }], answer: 'there are no notes' },
  ],
};

export interface Run {
  results: StepResult[];
  server: ToolServer;
  events: TraceEvent[];
  conversation: ChatMessage[];
}

/** Runs the rung step by step (or one-shot) with one policy, seed and arm. */
/** `p` defaults to 1 here: each pathology as its incident, at every decision. */
export async function runRung(policy: SyntheticPolicy, seed: number, arm: string, options: { ceiling?: number; oneShot?: boolean; p?: number; steps?: number } = {}): Promise<Run> {
  let late: ToolServer | undefined;
  const { server, lane, trace } = await world(tools(() => late!), arm);
  late = server;
  const model = createSyntheticModel(policy, { script: SCRIPT, seed, p: options.p ?? 1, ...(options.oneShot === true ? { oneShot: true } : {}) });
  const ceiling = options.ceiling ?? 8;
  const conversation: ChatMessage[] = [];
  const results: StepResult[] = [];
  try {
    if (options.oneShot === true) {
      const prompt = SCRIPT.steps.map((_, i) => `Step ${i + 1}.`).join('\n');
      results.push(await runStep({ model, lane, emit: trace.emit }, conversation, { index: 0, prompt, ceiling: ceiling * SCRIPT.steps.length, timeLimitMs: 10_000 }));
    } else {
      for (const [index] of SCRIPT.steps.slice(0, options.steps).entries()) {
        results.push(await runStep({ model, lane, emit: trace.emit }, conversation, { index, prompt: `Step ${index + 1}.`, ceiling, timeLimitMs: 10_000 }));
      }
    }
  } finally {
    await lane.close();
  }
  return { results, server, events: trace.events, conversation };
}

/** The trace without what real time decides (`t`, `ms`): what a seed and an arm decide. */
export function timeless(events: Run['events']): unknown[] {
  return events.map(({ t: _t, ...rest }) => {
    const { ms: _ms, ...kept } = rest as Record<string, unknown>;
    return kept;
  });
}

/** The tool calls of one step (0-based) as the lane recorded them. */
export function callsOf(run: Run, step: number): { name: string; key: string; outcome: string }[] {
  return run.events
    .filter((e) => e.type === 'tool.call' && e.turn === step + 1)
    .map((e) => e as ToolCallEvent)
    .map((e) => ({ name: e['gen_ai.tool.name'], key: e.key, outcome: e.outcome }));
}
