// One arm's own figures: outcomes and waste per rung, per step and overall, tool selection
// against the reference, and per tool.
import type { Metrics, Rate, RepeatCounts } from '../metrics.ts';
import type { ArmSummary } from '../summary.ts';
import { grouped, percent, quantity } from '../words.ts';
import type { Table } from './document.ts';

function withInterval(r: Rate): string {
  if (r.rate === null) return `0/0`;
  return `${r.count}/${r.n} ${percent(r.rate)} (${percent(r.lower)}-${percent(r.upper)})`;
}

function share(r: Rate | null): string {
  return r === null ? '-' : r.rate === null ? '0/0' : `${r.count}/${r.n} ${percent(r.rate)}`;
}

function repeats(r: RepeatCounts): string {
  return r.calls === 0 ? '-' : `${r.repeats}/${r.calls}`;
}

function perAttempt(x: { total: number; missing: number; perAttempt: number | null }): string {
  if (x.perAttempt === null) return '-';
  return `${grouped(Math.round(x.perAttempt))}${x.missing > 0 ? ` (${x.missing} missing)` : ''}`;
}

function ms(x: number | null): string {
  return x === null ? '-' : quantity(x, 'ms');
}

export type Row = { name: string; m: Metrics };

export function rows(arm: ArmSummary): Row[] {
  const out: Row[] = [];
  for (const rung of arm.rungs) {
    out.push({ name: rung.rung, m: rung.metrics });
    // One-step rungs: the step row would repeat the rung row.
    if (rung.steps.length > 1) for (const step of rung.steps) out.push({ name: `  step ${step.step}`, m: step.metrics });
  }
  out.push({ name: 'all rungs', m: arm.overall });
  return out;
}

function passK(m: Metrics): [string, string] {
  const last = m.passK[m.passK.length - 1];
  if (last === undefined) return ['-', '-'];
  return [`${percent(m.passK[0]!.passAtK)} / ${percent(last.passAtK)}`, `${percent(last.passHatK)} (k=${last.k})`];
}

export function summaryTables(arm: ArmSummary): Table[] {
  const all = rows(arm);
  const outcomes: Table = {
    caption: `Outcomes (arm ${arm.arm}): errored step-runs and passes (a provider or harness failure, not the model's) are counted and left out of every rate`,
    columns: ['rung', 'attempts', 'errored (steps/passes)', 'step pass rate (95% CI)', 'clean runs', 'pass@1 / pass@k', 'pass^k', 'ceiling share'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: all.map(({ name, m }) => [
      name, String(m.attempts), m.erroredPasses === null ? String(m.reasons.errored) : `${m.reasons.errored}/${m.erroredPasses}`, withInterval(m.stepPassRate), share(m.cleanRunRate), ...passK(m), share(m.ceilingShare),
    ]),
  };
  const waste: Table = {
    caption: `Waste (arm ${arm.arm}): repeats are 3rd-or-later identical calls in a pass, of calls to deterministic tools and to the others; ` +
      'dead calls were sent after an identical call failed in the same turn; tokens per attempt; times are medians',
    columns: ['rung', 'calls (sent)', 'dead calls', 'repeats: det.', 'repeats: other', 'zero-tool rounds', 'tokens in', 'tokens out',
      'step time', 'answer to end'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: all.map(({ name, m }) => [
      name, `${m.calls.total} (${m.calls.sent})`, String(m.deadCalls.count), repeats(m.identicalRepeats.deterministic),
      repeats(m.identicalRepeats.nondeterministic), `${m.zeroToolRounds.count}/${m.zeroToolRounds.requests}`, perAttempt(m.tokens.input),
      perAttempt(m.tokens.output), ms(m.stepMs.median),
      m.timeToAnswer.answered === 0 ? '-' : `${ms(m.timeToAnswer.answeredToEndMs.median)} (${m.timeToAnswer.answered}/${m.timeToAnswer.stepRuns})`,
    ]),
  };
  const tools: Table = {
    caption: `Per tool (arm ${arm.arm}), all rungs: repeats of calls declared deterministic and of the others, and how many of them went over the wire`,
    columns: ['tool', 'calls', 'repeats: det.', 'repeats: other', 'repeats sent', 'dead calls'],
    align: ['left', 'right', 'right', 'right', 'right', 'right'],
    rows: arm.overall.tools.map((t) => [
      t.tool, String(t.calls), repeats(t.deterministic), repeats(t.nondeterministic),
      String(t.deterministic.repeatsSent + t.nondeterministic.repeatsSent), String(t.deadCalls),
    ]),
  };
  return [outcomes, waste, ...selectionTable(arm, all), tools];
}

const score = (x: number | null): string => (x === null ? '-' : x.toFixed(2));

/** Tool selection against the reference (selection.ts); none for a run whose traces did not record it. */
function selectionTable(arm: ArmSummary, all: Row[]): Table[] {
  if (arm.overall.selection.stepRuns === 0) return [];
  return [{
    caption: `Tool selection (arm ${arm.arm}): each step's calls against the tools the rung's reference solution calls, the mean over ` +
      'step-runs (precision: calls that match a reference call; recall: reference calls matched; path efficiency: reference calls / calls, ' +
      'at most 1); extra calls beyond the reference\'s count, summed. The reference is one good path of several (docs/report.md)',
    columns: ['rung', 'step-runs', 'precision', 'recall', 'F1', 'path efficiency', 'extra calls'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: all.map(({ name, m }) => {
      const x = m.selection;
      return [name, String(x.stepRuns), score(x.precision), score(x.recall), score(x.f1), score(x.efficiency), String(x.extraCalls)];
    }),
  }];
}
