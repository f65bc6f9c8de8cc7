// The per-tool table for a server's author (src/report/toolUse.ts): one arm's, and two arms side
// by side. Which tool agents misuse reads off its row: calls that failed or were refused for their
// arguments, slow answers, and steps where it was chosen against the reference or passed over.
import type { ArmSummary } from '../summary.ts';
import type { ToolUse } from '../toolUse.ts';
import { quantity } from '../words.ts';
import type { Table } from './document.ts';

const ms = (x: number | null): string => (x === null ? '-' : quantity(x, 'ms'));

const WHAT = 'calls and how they ended (failed includes the arguments the server refused with its own invalid-params error; ' +
  'by harness: refused, short-circuited or unavailable, never sent); latency of the calls sent (p50, p95); against the reference, ' +
  'the step-runs that called the tool where the reference does not (chosen wrongly) and that did not call it where the reference ' +
  'does (missed)';

const COLUMNS = ['tool', 'calls', 'ok', 'failed', 'args refused', 'timeout', 'by harness', 'p50', 'p95', 'chosen wrongly', 'missed'];

function cells(t: ToolUse | undefined): string[] {
  if (t === undefined) return ['-', '-', '-', '-', '-', '-', '-', '-', '-', '-'];
  return [t.calls, t.ok, t.failed, t.rejected, t.timeout, t.harness].map(String)
    .concat([ms(t.latencyMs.p50), ms(t.latencyMs.p95), String(t.chosenWrongly), String(t.missed)]);
}

/** One arm's tools, all its rungs; none when it called no tool and its rungs reference none. */
export function toolUseTable(arm: ArmSummary): Table[] {
  const tools = arm.overall.toolUse;
  if (tools.length === 0) return [];
  return [{
    caption: `Per tool, for the server's author (arm ${arm.arm}), all rungs: ${WHAT}`,
    columns: COLUMNS,
    align: ['left', ...COLUMNS.slice(1).map(() => 'right' as const)],
    rows: tools.map((t) => [t.tool, ...cells(t)]),
  }];
}

/**
 * Two arms' tools side by side, each cell `A / B`, every rung of each arm (not only the pairs):
 * the same table for before and after a change to a server's tools.
 */
export function toolUseComparison(a: ArmSummary, b: ArmSummary, names: { a: string; b: string }): Table[] {
  const byName = (arm: ArmSummary) => new Map(arm.overall.toolUse.map((t) => [t.tool, t]));
  const [as, bs] = [byName(a), byName(b)];
  const tools = [...new Set([...as.keys(), ...bs.keys()])].sort();
  if (tools.length === 0) return [];
  return [{
    caption: `Per tool, for the server's author, A (${names.a}) / B (${names.b}), all rungs of each: ${WHAT}`,
    columns: COLUMNS,
    align: ['left', ...COLUMNS.slice(1).map(() => 'right' as const)],
    rows: tools.map((tool) => {
      const [x, y] = [cells(as.get(tool)), cells(bs.get(tool))];
      return [tool, ...x.map((left, i) => `${left} / ${y[i]!}`)];
    }),
  }];
}

/**
 * The run's servers of its own: every server its tools route to but the harness's own tools
 * (`harness__refresh_tools`). With exactly one, the run is a server author's, and the per-tool
 * table comes first.
 */
export function ownServers(arms: readonly ArmSummary[]): string[] {
  const servers = new Set(arms.flatMap((arm) => arm.overall.toolUse.map((t) => t.server || t.tool.split('__')[0]!)));
  servers.delete('harness');
  return [...servers].sort();
}
