// `ladder judge agreement` as people read it: the four counts, raw agreement and kappa with
// their intervals and what kappa means, what it cost, and the disagreements to read first.
import { formatUsd } from '../models/prices.ts';
import { percent } from './words.ts';
import { kappaWords } from './agreement.ts';
import type { AgreementReport, Rated } from './agreementRun.ts';

/** Disagreements listed in full; the rest are counted. */
const SHOWN = 10;

const round2 = (x: number): string => x.toFixed(2);
const verdict = (passed: boolean | null): string => (passed === null ? 'no verdict' : passed ? 'pass' : 'fail');
const where = (r: Rated): string => `${r.rung} ${r.arm} #${r.pass} step ${r.step}`;

export function agreementText(report: AgreementReport): string[] {
  const a = report.agreement;
  const lines = [
    `Judge ${report.model} against the deterministic checks, on ${a.n} step-run${a.n === 1 ? '' : 's'}`,
    `Rubric: ${report.rubric}`,
    '',
    '                 judge pass  judge fail',
    `  checks pass    ${String(a.bothPassed).padStart(10)}  ${String(a.checksOnly).padStart(10)}`,
    `  checks fail    ${String(a.judgeOnly).padStart(10)}  ${String(a.bothFailed).padStart(10)}`,
    '',
    `Raw agreement   ${percent(a.raw)} (95% CI ${percent(a.rawInterval.lower)} to ${percent(a.rawInterval.upper)})`,
    a.kappa === null
      ? `Cohen's kappa   n/a: ${a.kappaWhy}`
      : `Cohen's kappa   ${round2(a.kappa)} (95% CI ${round2(a.kappaInterval!.lower)} to ${round2(a.kappaInterval!.upper)}): ${kappaWords(a.kappa)} agreement beyond chance`,
    report.bought === 0
      ? "Verdicts bought this time: none; every one was kept in the run's judgements.jsonl"
      : `Verdicts bought this time: ${report.bought} (${report.costUsd === null ? 'unpriced' : formatUsd(report.costUsd)}); kept ones were served from the run's judgements.jsonl`,
  ];
  for (const line of report.leftOut) lines.push(`Left out: ${line}`);
  if (report.unrated.length > 0) {
    lines.push(`No verdict: ${report.unrated.length} step-run${report.unrated.length === 1 ? '' : 's'}; first: ${where(report.unrated[0]!)}: ${report.unrated[0]!.why}`);
  }
  if (report.disagreements.length > 0) {
    lines.push('', 'Disagreements (checks, then judge, then the judge\'s why):');
    for (const d of report.disagreements.slice(0, SHOWN)) lines.push(`  ${where(d)}: ${verdict(d.checks)} / ${verdict(d.judge)}: ${d.why}`);
    if (report.disagreements.length > SHOWN) lines.push(`  … and ${report.disagreements.length - SHOWN} more (--json lists them all)`);
  }
  return lines;
}
