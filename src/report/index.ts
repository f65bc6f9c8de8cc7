// Metrics, paired comparison and reports over a results folder (docs/report.md, "Metrics").
export { summarizeRun, writeSummary, summaryJson, loadRun, summarizeLoaded, SUMMARY_FORMAT } from './summary.ts';
export type { RunSummary, ArmSummary, RungSummary, StepSummary, LoadedRun } from './summary.ts';
export { compareRuns, compareLoaded, gateFailures, parseGates, baselineArm, DEFAULT_REPORT_SEED, COMPARISON_FORMAT } from './compare.ts';
export type { ComparisonReport, ArmComparison, CompareOptions } from './compare.ts';
export { COMPARED_METRICS } from './paired.ts';
export type { MetricComparison, MetricName, Verdict } from './paired.ts';
export type { Metrics, Rate } from './metrics.ts';
export { compareOutput, renderComparison, runReportHtml, comparisonJson, FORMATS } from './output.ts';
export type { Format } from './output.ts';
export { ReportInputError } from '../results/read.ts';
export { SYNTHETIC_NOTICE } from './summary.ts';
