// What one scenario run recorded, and the cell a reader makes of it. Plain JSON: the recording
// is kept beside the table as the cells' evidence (docs/agents-matrix.md says where).
import type { ModelTurn } from './model.ts';
import type { ScenarioEra } from './server.ts';
import type { WireEntry } from './wire.ts';

export interface StepOutcome {
  /** When the step began, ms on the recording's clock (the wire's and the model requests'). */
  readonly at: number;
  readonly answer: string;
  readonly failure?: string;
  readonly stoppedItself?: string;
  readonly timedOut: boolean;
  readonly ms: number;
  /** What the agent said beside its answer (stderr lines, ACP notices): evidence, never read into a cell. */
  readonly notes?: readonly string[];
}

export interface Recording {
  readonly scenario: string;
  readonly agent: string;
  readonly era: ScenarioEra;
  readonly wire: readonly WireEntry[];
  readonly turns: readonly ModelTurn[];
  readonly steps: readonly StepOutcome[];
  /** The longest a slow call is held, in seconds: past it a wait reads "more than". */
  readonly waitCapS: number;
  /** When the scenario changed the server (a tool added, sessions forgotten), ms on the same clock as the wire. */
  readonly marks: Readonly<Record<string, number>>;
}

/** One cell of the table: what is shown, what a baseline compares, and where it was read. */
export interface Cell {
  readonly row: string;
  readonly value: string;
  /** What CI compares with the baseline: `value` with measured times rounded, so noise cannot flip it. */
  readonly key: string;
  /** The step and message it was read from. */
  readonly evidence: string;
}

/**
 * A cell. Its key, unless given, is its value with quoted text left out: what an agent printed
 * (a wall time, a path) may differ from run to run, what the reader decided may not.
 */
export const cell = (row: string, value: string, evidence: string, key: string = value.replace(/"(?:[^"\\]|\\.)*"/g, '"…"')): Cell => ({ row, value, key, evidence });
