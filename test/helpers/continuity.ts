// What a pass of an external agent that keeps one conversation must show: every step after the
// first that asked the model was read as carrying the earlier steps (step.end `carried: true`,
// src/trace/continuity.ts). One line per step that was not, to compare with [].
import type { TraceEvent } from '../../src/trace/index.ts';

export function stepsNotCarried(events: readonly TraceEvent[]): string[] {
  const start = events[0];
  const where = start?.type === 'pass.start' ? `${start.rung}/${start.arm}#${start.pass}` : '?';
  const asked = new Set(events.flatMap((e) => (e.type === 'model.request' ? [e.step] : [])));
  const earliest = Math.min(...asked);
  return events.flatMap((e) => (e.type === 'step.end' && asked.has(e.step) && e.step > earliest && e.carried !== true
    ? [`${where} step ${e.step}: carried ${String(e.carried)}`]
    : []));
}
