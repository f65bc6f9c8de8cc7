// One tool call through the mechanisms the arm enables, in this order: the within-turn
// breaker (the freshest evidence: this very call failed earlier in the turn), the repeat
// short-circuit (an answer already given costs nothing to point at, even from a server that
// is down now), then the server's circuit, then the wire.
import { isRequestTimeout, rpcCodeOf } from '../mcp/errors.ts';
import type { CallToolResult } from '../mcp/types.ts';
import type { RepeatGuard, ServerCircuits, TurnBreaker } from '../reliability/index.ts';
import type { Outcome } from '../trace/index.ts';
import { abandonedText, errorText, resultText, timeoutText } from './text.ts';

/** The mechanisms an arm switched on; absent means off. */
export interface Mechanisms {
  breaker?: TurnBreaker;
  circuits?: ServerCircuits;
  repeats?: RepeatGuard;
  /** Whether a qualified tool name is deterministic now; the repeat guard asks the same. */
  isDeterministic: (name: string) => boolean;
  /** Timeouts sized to the wait cap, and a timeout text that says the tool may still run. */
  deadline: boolean;
}

export interface CallSite {
  /** Qualified name, as the model called it. */
  name: string;
  server: string;
  /** callKey of the name and arguments, computed once per call: the breaker and the repeat guard key on it. */
  key: string;
  turn: number;
  round: number;
  /**
   * Which start of the server the call goes to (0, then one more per restart or reconnect): the
   * breaker's memory of a failure holds for the incarnation that gave it. Default 0.
   */
  incarnation?: number;
  /**
   * The step's stop signal (its time limit or an interrupt). When it aborts while the call
   * runs, the SDK sends the server notifications/cancelled and stops waiting, and the call is
   * recorded at once as abandoned: inside its step, never after the step or the pass ended.
   */
  signal?: AbortSignal;
}

export interface Decision {
  text: string;
  outcome: Outcome;
  errorType?: string;
  probe?: true;
}

async function send(site: CallSite, mechanisms: Mechanisms, wire: () => Promise<CallToolResult>): Promise<Decision> {
  const started = performance.now();
  try {
    const result = await wire();
    const text = resultText(result);
    return result.isError === true ? { text, outcome: 'failed', errorType: 'tool_error' } : { text, outcome: 'ok' };
  } catch (error) {
    // No answer in the time the step had: to every mechanism a timeout (the server did not
    // answer in time), named apart in the trace.
    if (site.signal?.aborted === true) return { text: abandonedText(site.name), outcome: 'timeout', errorType: 'abandoned' };
    if (isRequestTimeout(error)) {
      const text = mechanisms.deadline ? timeoutText(site.name, performance.now() - started) : errorText(error);
      return { text, outcome: 'timeout', errorType: 'timeout' };
    }
    const code = rpcCodeOf(error)?.toString() ?? (error as Error)?.name ?? 'Error';
    return { text: errorText(error), outcome: 'failed', errorType: code };
  }
}

/**
 * Applies the mechanisms to each call of a pass. The repeat guard never sees a tool the lane
 * does not hold deterministic: it never short-circuits one, and the trace, not the guard,
 * counts repeats.
 */
export class CallPipeline {
  readonly #mechanisms: Mechanisms;

  constructor(mechanisms: Mechanisms) {
    this.#mechanisms = mechanisms;
  }

  get deadline(): boolean {
    return this.#mechanisms.deadline;
  }

  openTurn(turn: number): void {
    this.#mechanisms.breaker?.openTurn(turn);
  }

  /** Decides whether the call is sent, sends it if so, and records the outcome in each mechanism. */
  async call(site: CallSite, wire: () => Promise<CallToolResult>): Promise<Decision> {
    const { breaker, circuits, isDeterministic } = this.#mechanisms;
    const repeats = isDeterministic(site.name) ? this.#mechanisms.repeats : undefined;
    const { name, server, key, turn, round, incarnation = 0 } = site;
    const refused = breaker?.checkKey(name, key, incarnation);
    if (refused !== undefined && !refused.allowed) return { text: refused.text, outcome: 'refused', errorType: 'breaker' };
    const repeat = repeats?.observeKey(name, key);
    if (repeat?.shortCircuit === true) return { text: repeat.text, outcome: 'short_circuited' };
    const circuit = circuits?.check(server);
    if (circuit !== undefined && !circuit.allowed) return { text: circuit.text, outcome: 'unavailable', errorType: 'circuit_open' };

    const decision = await send(site, this.#mechanisms, wire);
    if (decision.outcome === 'ok') {
      circuits?.success(server);
      repeats?.answeredKey(key, turn, round);
    } else {
      // A timeout is no answer either, so it counts against the server; it is not a failure
      // of the call itself, because a long wait re-asked is often exactly right.
      circuits?.failure(server);
      if (decision.outcome === 'failed') breaker?.recordFailureKey(name, key, round, decision.text, incarnation);
    }
    return circuit?.probe === true ? { ...decision, probe: true } : decision;
  }
}
