// `ladder gateway --otlp URL`: the gateway's turns as OpenTelemetry spans, sent while it runs,
// with the names and attributes `ladder export` gives a run's (src/otlp/spans.ts): a turn is
// exported as a pass of the rung `gateway` (invoke_workflow gateway, its tools/list and one
// execute_tool span a call), so a dashboard built for runs reads the gateway too. A turn's spans
// are sent when the next turn begins and when the gateway stops: a span is whole only when its
// turn is, and a collector gets each once. Sending never holds up a call; a collector that fails
// is said on stderr, once per failure, and its spans are dropped.
import { performance } from 'node:perf_hooks';
import { encodeRequest, encodeSpan } from '../otlp/encode.ts';
import type { Origin } from '../otlp/encode.ts';
import { post, shown, tracesEndpoint } from '../otlp/send.ts';
import type { Transport } from '../otlp/send.ts';
import { passSpans } from '../otlp/spans.ts';
import { LADDER_VERSION } from '../lane/index.ts';
import { TRACE_VERSION } from '../trace/index.ts';
import type { PassStart, TraceEvent, TraceEventInput } from '../trace/index.ts';

export const GATEWAY_RUNG = 'gateway';

export interface GatewayOtlpOptions {
  url: string;
  arm: string;
  headers?: Record<string, string>;
  transport?: Transport;
  log?: (line: string) => void;
}

interface OpenTurn {
  start: PassStart;
  startedAt: number;
  events: TraceEvent[];
}

export class GatewayOtlp {
  readonly #url: URL;
  readonly #options: GatewayOtlpOptions;
  readonly #runId = `gateway-${process.pid}-${new Date().toISOString().replace(/[-:.]/g, '')}`;
  readonly #origin: Origin;
  readonly #transport: Transport;
  #turn: OpenTurn | undefined;
  #sending: Promise<void> = Promise.resolve();

  /** Throws ExportError (one line) for a URL that cannot be an OTLP/HTTP endpoint. */
  constructor(options: GatewayOtlpOptions) {
    this.#url = tracesEndpoint(options.url);
    this.#options = options;
    this.#origin = {
      resource: { 'service.name': 'ladder-gateway', 'service.version': LADDER_VERSION, 'ladder.run.id': this.#runId },
      scope: { name: 'ladder', version: LADDER_VERSION },
    };
    this.#transport = options.transport ?? { fetch, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
  }

  get runId(): string {
    return this.#runId;
  }

  /** Sees every event the gateway emits; a tools.list of a new turn sends the turn before. */
  readonly emit = (event: TraceEventInput): void => {
    if (event.type === 'tools.list' && event.turn !== this.#turn?.start.pass) {
      this.#send();
      const start: PassStart = {
        v: TRACE_VERSION, type: 'pass.start', t: 0, rung: GATEWAY_RUNG, arm: this.#options.arm, pass: event.turn, seed: 0,
        time: new Date(Date.now() - event.ms).toISOString(), content: 'redacted',
      } as PassStart;
      this.#turn = { start, startedAt: performance.now() - event.ms, events: [start] };
    }
    const turn = this.#turn;
    if (turn === undefined) return;
    if (event.type !== 'tools.list' && event.type !== 'tool.call') return;
    turn.events.push({ v: TRACE_VERSION, t: performance.now() - turn.startedAt, ...event } as TraceEvent);
  };

  #send(): void {
    const turn = this.#turn;
    this.#turn = undefined;
    if (turn === undefined) return;
    const ms = performance.now() - turn.startedAt;
    // The root span ends with the turn; "passed" says every call of it was answered ok.
    const passed = turn.events.every((e) => e.type !== 'tool.call' || e.outcome === 'ok' || e.outcome === 'short_circuited');
    turn.events.push({ v: TRACE_VERSION, type: 'pass.end', t: ms, passed, steps: 0, ms: Math.round(ms) } as TraceEvent);
    const spans = passSpans({ file: 'gateway', start: turn.start, events: turn.events }, { runId: this.#runId, content: false });
    const body = encodeRequest(this.#origin, spans.map(encodeSpan));
    this.#sending = this.#sending.then(() => post(this.#url, this.#options.headers ?? {}, body, this.#transport).then(
      () => undefined,
      (error: Error) => this.#options.log?.(`ladder gateway: --otlp ${shown(this.#url)}: turn ${turn.start.pass} not exported: ${error.message}`),
    ));
  }

  /** Sends the open turn and waits for every send. */
  async close(): Promise<void> {
    this.#send();
    await this.#sending;
  }
}
