// What a report can be asked for: its formats, the metrics a gate can name, the bootstrap seed.
// Apart, and importing nothing, so the CLI can define its flags without loading the report.
export const FORMATS = ['table', 'md', 'json', 'html'] as const;
export type Format = (typeof FORMATS)[number];

export const COMPARED_METRICS = [
  'step_pass_rate', 'clean_run_rate', 'ceiling_share', 'dead_calls', 'identical_repeats',
  'zero_tool_rounds', 'tokens_in', 'tokens_out', 'step_ms', 'time_to_answer',
  'tool_precision', 'tool_recall', 'tool_f1', 'path_efficiency', 'extra_calls',
] as const;
export type MetricName = (typeof COMPARED_METRICS)[number];

/** The bootstrap seed when none is given: any fixed number makes the report reproducible. */
export const DEFAULT_REPORT_SEED = 1;
