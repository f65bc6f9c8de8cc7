// How agents used each tool, for the author of the server that offers it (docs/report.md, "Per
// tool, for server authors"): what came of its calls, the arguments it refused, how long it took,
// and where the agent's choice of it departed from the rung's reference: called in a step whose
// reference does not call it (chosen wrongly), or not called in a step whose reference does
// (missed). A tool the reference calls and no agent ever did still gets its row.
import type { StepRun } from './passes.ts';
import { latency } from './timing.ts';
import type { Latency } from './timing.ts';

export interface ToolUse {
  /** Qualified name, `server__tool`. */
  tool: string;
  /** The server it routes to ('' when none; the reference's own server prefix for a tool never called). */
  server: string;
  calls: number;
  /** Calls answered ok, failed (an error result or a JSON-RPC error), or timed out. */
  ok: number;
  failed: number;
  timeout: number;
  /** Of the failed, those the server refused for their arguments (its own invalid-params error). */
  rejected: number;
  /** Calls the harness answered without sending: refused, short-circuited, unavailable. */
  harness: number;
  /** Of the calls sent. */
  latencyMs: Latency;
  /** Step-runs that called it where the reference does not (step-runs with a reference, not errored). */
  chosenWrongly: number;
  /** Step-runs whose reference calls it and the agent did not. */
  missed: number;
}

/** A row being summed: the latency's samples kept until the end. */
type Acc = Omit<ToolUse, 'tool' | 'latencyMs'> & { ms: number[] };

const serverOf = (tool: string): string => tool.split('__')[0]!;

/** One row per tool called or referenced, by name. */
export function toolUse(runs: readonly StepRun[]): ToolUse[] {
  const byTool = new Map<string, Acc>();
  const acc = (tool: string, server: string): Acc => {
    let a = byTool.get(tool);
    if (a === undefined) {
      a = { server, calls: 0, ok: 0, failed: 0, timeout: 0, rejected: 0, harness: 0, ms: [], chosenWrongly: 0, missed: 0 };
      byTool.set(tool, a);
    }
    return a;
  };
  for (const run of runs) {
    for (const t of run.tools) {
      const a = acc(t.tool, t.server);
      a.calls += t.calls;
      a.ok += t.outcomes.ok;
      a.failed += t.outcomes.failed;
      a.timeout += t.outcomes.timeout;
      a.rejected += t.rejected;
      a.harness += t.outcomes.refused + t.outcomes.short_circuited + t.outcomes.unavailable;
      a.ms.push(...t.ms);
    }
    if (run.reference === undefined || run.reason === 'errored') continue;
    const wanted = new Set(run.reference);
    // A tally exists only for a tool called at least once (passes.ts).
    const called = new Set(run.tools.map((t) => t.tool));
    // Every tool called has its row from the loop above.
    for (const tool of called) if (!wanted.has(tool)) byTool.get(tool)!.chosenWrongly += 1;
    for (const tool of wanted) if (!called.has(tool)) acc(tool, serverOf(tool)).missed += 1;
  }
  // By name: the default sort compares strings by code unit, as `<` does.
  return [...byTool.keys()].sort().map((tool): ToolUse => {
    const { ms, ...a } = byTool.get(tool)!;
    return { tool, ...a, latencyMs: latency(ms) };
  });
}
