// The agent loop: rounds, ceilings, time limits, one model adapter, one lane.
export { runStep } from './loop.ts';
export type { AgentContext, StepEndReason, StepResult, StepSpec, ToolLane, StepCallRecord } from './loop.ts';
export { CEILING_TEXT } from './calls.ts';
export { toolCallKey } from './events.ts';
