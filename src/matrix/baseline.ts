// CI's check of the matrix: each cell run now against the committed baseline, compared by its
// key (the value with measured times rounded), so a change of a recipe, of Ladder or of a pinned
// version that alters what an agent does is named, and the machine's jitter is not.
import type { Matrix } from './index.ts';

/** One line per cell that differs, naming the agent, the row and both values; empty when all agree. */
export function baselineDifferences(baseline: Matrix, now: Matrix): string[] {
  const lines: string[] = [];
  for (const agent of now.agents) {
    const before = baseline.agents.find((a) => a.name === agent.name);
    if (before === undefined) {
      lines.push(`${agent.name}: not in the baseline; write it with --write-docs`);
      continue;
    }
    if (before.version !== agent.version) lines.push(`${agent.name}: version ${agent.version} now, ${before.version} in the baseline`);
    for (const row of now.rows) {
      const was = baseline.cells[agent.name]?.[row.row];
      const is = now.cells[agent.name]?.[row.row];
      if (is === undefined) continue;
      if (was === undefined) lines.push(`${agent.name} / ${row.scenario} / ${row.row}: not in the baseline; now ${JSON.stringify(is.value)}`);
      else if (was.key !== is.key) lines.push(`${agent.name} / ${row.scenario} / ${row.row}: baseline ${JSON.stringify(was.value)}, now ${JSON.stringify(is.value)} (${is.evidence})`);
    }
  }
  return lines;
}

/** The baseline with this run's agents and cells put in (the others kept): what --write-docs writes. */
export function mergeIntoBaseline(baseline: Matrix | undefined, now: Matrix): Matrix {
  if (baseline === undefined) return now;
  // The baseline's order kept; what is new goes at the end.
  const agents = [...baseline.agents.map((a) => now.agents.find((b) => b.name === a.name) ?? a), ...now.agents.filter((a) => !baseline.agents.some((b) => b.name === a.name))];
  const rows = [...baseline.rows, ...now.rows.filter((r) => !baseline.rows.some((b) => b.row === r.row))];
  const cells = { ...baseline.cells };
  for (const agent of now.agents) cells[agent.name] = { ...baseline.cells[agent.name], ...now.cells[agent.name] };
  return { date: now.date, waitCapS: now.waitCapS, agents, rows, cells };
}
