// One arm's cost and where its time went: what the tokens cost per rung and step, how step
// time splits between the model, the tool calls and the rest, and each server's and tool's
// latency and outcomes beside the model's own time per round, so a slow step can be put down
// to the model, a server, or the harness.
import { formatUsd, priceSource, priceText } from '../../models/prices.ts';
import type { Pricing } from '../../models/prices.ts';
import type { ArmSummary } from '../summary.ts';
import type { Latency } from '../timing.ts';
import { grouped, percent, plural, quantity } from '../words.ts';
import type { Table } from './document.ts';
import { rows } from './summaryTables.ts';

const ms = (x: number | null): string => (x === null ? '-' : quantity(x, 'ms'));
const share = (part: number, whole: number): string => (whole === 0 ? '-' : percent(part / whole));

function latencyCells(l: Latency): string[] {
  return [ms(l.p50), ms(l.p95), ms(l.max)];
}

function costTable(arm: ArmSummary): Table {
  return {
    caption: `Cost (arm ${arm.arm}): the tokens at the run's price; per passed step is over step-runs passed. ` +
      'Responses with no token count make a cost a lower bound (marked +)',
    columns: ['rung', 'attempts', 'cost', 'per attempt', 'per passed step', 'cached input (read / written)'],
    align: ['left', 'right', 'right', 'right', 'right', 'right'],
    rows: rows(arm).map(({ name, m }) => {
      const bound = m.cost.responsesMissingTokens > 0 ? '+' : '';
      const usd = (x: number | null): string => (x === null ? '-' : `${formatUsd(x)}${bound}`);
      return [name, String(m.attempts), usd(m.cost.usd), usd(m.cost.perAttempt), usd(m.cost.perPassedStep),
        `${grouped(m.cachedTokens.read)} / ${grouped(m.cachedTokens.write)}`];
    }),
  };
}

function splitTable(arm: ArmSummary): Table {
  // An external agent's start-up is a column of its own; the built-in loop has none to show.
  const agent = arm.overall.time.agentStartupMs > 0;
  return {
    caption: `Where the time goes (arm ${arm.arm}): step time split into the model's responses, the tool calls sent, ` +
      (agent ? "the external agent's start-up, and the rest (the agent's own work and the harness)" : 'and the rest (the harness: opening turns, listing tools, answering calls it does not send)') +
      "; the model's time per round",
    columns: ['rung', 'step time, total', 'model', 'tool calls', ...(agent ? ['agent start-up'] : []), 'the rest', 'model per round p50', 'p95', 'max'],
    align: ['left', 'right', 'right', 'right', ...(agent ? ['right' as const] : []), 'right', 'right', 'right', 'right'],
    rows: rows(arm).map(({ name, m }) => {
      const t = m.time;
      return [name, ms(t.stepMs), share(t.modelMs, t.stepMs), share(t.toolMs, t.stepMs), ...(agent ? [share(t.agentStartupMs, t.stepMs)] : []),
        share(t.otherMs, t.stepMs), ...latencyCells(t.modelRoundMs)];
    }),
  };
}

function latencyTable(arm: ArmSummary, model: string): Table {
  const m = arm.overall;
  const outcomes = (o: Record<string, number>, calls: number): string[] => [
    share(o['ok'] ?? 0, calls), share(o['failed'] ?? 0, calls), share(o['timeout'] ?? 0, calls),
    share((o['refused'] ?? 0) + (o['unavailable'] ?? 0) + (o['short_circuited'] ?? 0), calls),
  ];
  const out: string[][] = [[`model ${model}, per round`, String(m.time.modelRoundMs.n), String(m.time.modelRoundMs.n), ...latencyCells(m.time.modelRoundMs), '-', '-', '-', '-']];
  for (const server of m.servers) {
    out.push([`server ${server.server || '(none)'}`, String(server.calls), String(server.sent), ...latencyCells(server.latencyMs), ...outcomes(server.outcomes, server.calls)]);
    for (const tool of m.tools.filter((t) => t.server === server.server)) {
      out.push([`  ${tool.tool}`, String(tool.calls), String(tool.sent), ...latencyCells(tool.latencyMs), ...outcomes(tool.outcomes, tool.calls)]);
    }
  }
  return {
    caption: `Latency per server and tool (arm ${arm.arm}), all rungs, beside the model's own: times are of calls sent (p50, p95, max, ` +
      'nearest rank); outcomes are shares of all calls, the last those the harness answered without sending (refused, unavailable, short-circuited)',
    columns: ['what', 'calls', 'sent', 'p50', 'p95', 'max', 'ok', 'failed', 'timeout', 'answered by harness'],
    align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: out,
  };
}

/** The cost table (when the run is priced), the time split and the latency table of one arm. */
export function costTimeTables(arm: ArmSummary, pricing: Pricing, model: string): Table[] {
  return [...(pricing.status === 'priced' ? [costTable(arm)] : []), splitTable(arm), latencyTable(arm, model)];
}

/** One line on what the run's tokens cost, for the top of every format. */
export function costLine(name: string, pricing: Pricing, spentUsd: number | null, passes: number): string {
  if (pricing.status !== 'priced') return `${name}: cost ${pricing.status === 'free' ? 'none' : 'unknown'}: ${pricing.why}.`;
  return `${name}: cost ${formatUsd(spentUsd)} over ${plural(passes, 'pass', 'passes')}, at ${priceText(pricing.usdPerMillion)} (${priceSource(pricing)}; prices change).`;
}
