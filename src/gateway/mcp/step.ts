// The MCP gateway of a run's pass: the pass's lane served to an external agent, one step at a
// time. A step is a turn (docs/lane.md, "External agents"): the runner opens it, which fixes
// the tool list the gateway answers with for the whole step; every call through the gateway
// counts against the step's tool-call ceiling; the step's end stops its calls. The lane
// applies the arm's mechanisms and emits tools.list and tool.call exactly as in the built-in
// loop, so every reader works unchanged.
import { CEILING_TEXT } from '../../agent/index.ts';
import type { StepCallRecord } from '../../agent/index.ts';
import type { CallResult, LaneTool, Turn } from '../../lane/index.ts';
import type { Lane } from '../../lane/index.ts';
import { callKey } from '../../reliability/index.ts';
import { ToolsChanged } from './backend.ts';
import type { GatewayAnswer, GatewayBackend, GatewayCallAt } from './backend.ts';

/** What a call made outside a step is answered: the agent kept working after its step ended. */
export const NO_STEP_TEXT = 'No step is open (the step this call belonged to has ended), so this call was not made.';

/** The part of the lane the gateway uses. */
export type StepLane = Pick<Lane, 'openTurn' | 'call'>;

/** A call the model asked for in its latest response, so the lane's record carries the model's id. */
export interface AskedCall {
  id: string;
  /** The gateway's name for the tool (`wb__files_read`). */
  tool: string;
  args: Readonly<Record<string, unknown>>;
}

interface OpenStep {
  index: number;
  ceiling: number;
  signal: AbortSignal;
  turn: Turn;
  calls: StepCallRecord[];
  ceilingReached: boolean;
  round: number;
  /** Calls asked for and not yet seen, by call key. */
  asked: Map<string, string[]>;
  /** Calls in flight, so the step's end can wait for their records. */
  inFlight: Set<Promise<unknown>>;
}

export interface StepCalls {
  calls: StepCallRecord[];
  /** A call came past the ceiling and was refused: the step ends `ceiling`. */
  ceilingReached: boolean;
}

export class StepGateway implements GatewayBackend {
  readonly #lane: StepLane;
  readonly #changed = new ToolsChanged();
  #step: OpenStep | undefined;
  /** The tools of the last turn, answered between steps too, so an agent's list stays whole. */
  #tools: readonly LaneTool[] = [];
  /** What each call the model asked for answered, by the model's call id, as the lane gave it. */
  readonly #results = new Map<string, { text: string; isError: boolean }>();

  constructor(lane: StepLane) {
    this.#lane = lane;
  }

  /** Opens the step's turn; the agent is told when the list differs from the turn before. */
  async openStep(input: { index: number; ceiling: number; signal: AbortSignal }): Promise<Turn> {
    const turn = await this.#lane.openTurn();
    const changed = JSON.stringify(turn.tools) !== JSON.stringify(this.#tools);
    this.#tools = turn.tools;
    this.#step = {
      ...input, turn, calls: [], ceilingReached: false, round: 1, asked: new Map(), inFlight: new Set(),
    };
    if (changed) this.#changed.fire();
    return turn;
  }

  /** The model round the next calls belong to, and the calls that round asked for. */
  setRound(round: number, asked: readonly AskedCall[]): void {
    const step = this.#step;
    if (step === undefined) return;
    step.round = round;
    step.asked.clear();
    for (const call of asked) {
      const key = callKey(call.tool, call.args);
      step.asked.set(key, [...(step.asked.get(key) ?? []), call.id]);
    }
  }

  /** Ends the step: waits for the records of calls still in flight (its signal has stopped them). */
  async endStep(): Promise<StepCalls> {
    const step = this.#step;
    this.#step = undefined;
    if (step === undefined) return { calls: [], ceilingReached: false };
    await Promise.allSettled([...step.inFlight]);
    return { calls: step.calls, ceilingReached: step.ceilingReached };
  }

  /**
   * The lane's answer to the call the model asked for under `id`: the agent may wrap a result
   * (content items as JSON, an "Error:" prefix) or drop whether it failed, as Chat Completions'
   * tool messages cannot say; a synthetic policy reads the answer as the lane gave it.
   */
  resultFor(id: string): { text: string; isError: boolean } | undefined {
    return this.#results.get(id);
  }

  get stepOpen(): boolean {
    return this.#step !== undefined;
  }

  async tools(): Promise<readonly LaneTool[]> {
    return this.#tools;
  }

  onToolsChanged(listener: () => void): () => void {
    return this.#changed.subscribe(listener);
  }

  async call(name: string, args: Record<string, unknown> | undefined, at: GatewayCallAt): Promise<GatewayAnswer> {
    const step = this.#step;
    if (step === undefined) return { text: NO_STEP_TEXT, isError: true, outcome: 'refused' };
    if (step.calls.length >= step.ceiling) {
      step.ceilingReached = true;
      return { text: CEILING_TEXT, isError: true, outcome: 'ceiling' };
    }
    const input = args ?? {};
    let key: string | undefined;
    try {
      key = callKey(name, input);
    } catch {
      key = undefined;
    }
    const id = key === undefined ? undefined : step.asked.get(key)?.shift();
    const record: StepCallRecord = { tool: name, key: key ?? callKey(name, {}), args: input, outcome: 'pending' };
    // Counted when sent, so concurrent calls cannot pass the ceiling together.
    step.calls.push(record);
    const { signal, release } = eitherSignal(at.signal, step.signal);
    const sent = this.#lane.call(name, input, { round: step.round, signal, ...(id === undefined ? {} : { id }) });
    step.inFlight.add(sent);
    let result: CallResult;
    try {
      result = await sent;
    } finally {
      step.inFlight.delete(sent);
      release();
    }
    record.outcome = step.signal.aborted && result.outcome === 'timeout' ? 'abandoned' : result.outcome;
    if (id !== undefined) this.#results.set(id, { text: result.text, isError: result.isError });
    return { text: result.text, isError: result.isError, outcome: result.outcome };
  }
}

/**
 * A signal for one call that aborts when either given one does (with its reason), and a release
 * that detaches it once the call is done. AbortSignal.any does the same through weak references
 * the collector has to clear, which the gateway's profile showed as a cost on every call.
 */
export function eitherSignal(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; release: () => void } {
  const own = new AbortController();
  const fromA = (): void => own.abort(a.reason);
  const fromB = (): void => own.abort(b.reason);
  if (a.aborted) fromA();
  else if (b.aborted) fromB();
  else {
    a.addEventListener('abort', fromA, { once: true });
    b.addEventListener('abort', fromB, { once: true });
  }
  return {
    signal: own.signal,
    release: () => {
      a.removeEventListener('abort', fromA);
      b.removeEventListener('abort', fromB);
    },
  };
}
