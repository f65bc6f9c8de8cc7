// One step-run's time split four ways, each millisecond counted once: the external agent's
// start-up, the model's responses, the tool calls sent, and the rest (the agent's own work and
// the harness). The parts come from the trace as spans on the pass's clock; an external agent
// may overlap them (two tool calls at once, a side request to the model while a tool runs), so
// a millisecond covered by two parts goes to the first of start-up, model, tools, and the four
// always add up to the step's time.

/** From and to, ms on the pass's clock (trace `t`). */
export interface Span {
  from: number;
  to: number;
}

export interface StepTimeInput {
  /** The step itself: step.end `t` minus its `ms`, to step.end `t`. Every other span is cut to it. */
  step: Span;
  /** From starting the agent to its first model request (none for the built-in loop). */
  startup?: Span | undefined;
  /** Each model response: its `t` minus its `ms`, to its `t`. */
  model: readonly Span[];
  /** Each tool call sent, the same way. */
  tools: readonly Span[];
}

export interface StepTime {
  startupMs: number;
  modelMs: number;
  toolMs: number;
  /** The step's time covered by none of the three. */
  otherMs: number;
}

/** The spans cut to `within`, empty ones dropped, sorted and merged where they touch or overlap. */
export function merged(spans: readonly Span[], within: Span): Span[] {
  const cut = spans
    .map((s) => ({ from: Math.max(s.from, within.from), to: Math.min(s.to, within.to) }))
    .filter((s) => s.to > s.from)
    .sort((x, y) => x.from - y.from);
  const out: Span[] = [];
  for (const span of cut) {
    const last = out.at(-1);
    if (last !== undefined && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else out.push({ ...span });
  }
  return out;
}

/** The milliseconds the spans cover, each once. */
export function covered(spans: readonly Span[], within: Span): number {
  return merged(spans, within).reduce((sum, s) => sum + (s.to - s.from), 0);
}

export function splitStepTime(input: StepTimeInput): StepTime {
  const { step } = input;
  const length = Math.max(0, step.to - step.from);
  const startup = input.startup === undefined ? [] : [input.startup];
  // Each part is what it adds to the union of the parts before it.
  const first = covered(startup, step);
  const second = covered([...startup, ...input.model], step);
  const third = covered([...startup, ...input.model, ...input.tools], step);
  return { startupMs: first, modelMs: second - first, toolMs: third - second, otherMs: length - third };
}
