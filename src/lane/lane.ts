// The lane: Ladder's MCP client side. It connects to a pass's servers, fixes each turn's
// tool list, makes every call through the mechanisms its arm enables, and emits one trace
// event per listing and per call (docs/lane.md).
import { callDefinition, callTool } from '../mcp/client.ts';
import type { CallOptions } from '../mcp/client.ts';
import type { ElicitationAnswer, ElicitationAsked } from '../mcp/client.ts';
import type { Client, Notification, RequestOptions, Tool } from '../mcp/types.ts';
import {
  RepeatGuard, RosterCache, ServerCircuits, TurnBreaker, callKey, HARNESS_SERVER, REFRESH_TOOL, SEPARATOR,
} from '../reliability/index.ts';
import type { TurnRoster } from '../reliability/index.ts';
import type { Emit, ToolCallEvent } from '../trace/index.ts';
import { ARM_ON, parseArm } from './arm.ts';
import type { Arm } from './arm.ts';
import { CallPipeline } from './calls.ts';
import type { CallSite, Decision } from './calls.ts';
import { validateServerNames } from './config.ts';
import type { ServerConfig } from './config.ts';
import { connectServer } from './connections.ts';
import { answerFor } from './elicit.ts';
import type { DeclaredAnswer } from './elicit.ts';
import { ServerStartError } from './connections.ts';
import type { Connection } from './connections.ts';
import { nodeCommand } from './nodeBin.ts';
import { notStartedText, restartingText, unknownToolText } from './text.ts';
import { openRoster, refreshTool } from './turn.ts';
import {
  DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_LIST_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS,
} from './types.ts';
import { hashCallKey } from './callHash.ts';
import type { CallAt, CallResult, LaneOptions, LaneTool, Turn } from './types.ts';



/** Where a qualified tool name goes: its server, its name there, and its definition as listed. */
interface Route {
  server: string;
  tool: string;
  definition: Tool;
  /**
   * The request options of each call to it, made when the turn opens: the deadline's (or the
   * server's plain timeout) and the definition the SDK is handed. Undefined when they differ
   * per call (an onProgress handler names the call).
   */
  options: CallOptions | undefined;
}

interface OpenTurn {
  turn: number;
  roster: TurnRoster<Tool>;
  routes: Map<string, Route>;
}


type ToolCallInput = Omit<ToolCallEvent, 'v' | 't'>;

const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * The call key (what the mechanisms key on), its hash (what the trace records) and the
 * argument bytes, computed once per call; undefined when the arguments cannot be JSON (a
 * cycle, a BigInt).
 */
function measure(name: string, args: Record<string, unknown>): { callKey: string; key: string; argBytes: number } | undefined {
  try {
    const key = callKey(name, args);
    return { callKey: key, key: hashCallKey(key), argBytes: Buffer.byteLength(JSON.stringify(args)) };
  } catch {
    return undefined;
  }
}

/** One handler for every call when nobody listens: the SDK asks servers for progress only when there is one. */
const IGNORE_PROGRESS = (): void => undefined;

export class Lane {
  readonly arm: Arm;
  /** Servers that did not start (and have not been reconnected since); the lane runs on without them. */
  get startErrors(): readonly ServerStartError[] {
    return this.#startErrors;
  }

  #startErrors: ServerStartError[];
  readonly #circuits: ServerCircuits | undefined;
  #repeats: RepeatGuard | undefined;
  /** Set when repeats are counted per turn: makes the next turn's guard. */
  readonly #newRepeats: (() => RepeatGuard) | undefined;
  readonly #options: LaneOptions;
  readonly #servers: string[];
  readonly #connections: Map<string, Connection>;
  /** Per server, how many times it was started or reached again since the first (reconnect). */
  readonly #incarnations = new Map<string, number>();
  readonly #pipeline: CallPipeline;
  readonly #roster: RosterCache<Tool> | undefined;
  readonly #hints = new Map<string, boolean>();
  readonly #emit: Emit;
  /** The deadline's request options when they are the same for every call (no onProgress). */
  readonly #sharedCallOptions: RequestOptions | undefined;
  /** Deadline off: the plain timeout of each server that has one (the rest get the SDK's). */
  readonly #plainOptions: ReadonlyMap<string, RequestOptions>;
  readonly #isDeterministic: (name: string) => boolean;
  #turn: OpenTurn | undefined;
  #turns = 0;
  /** JSON of the tools the previous turn offered. */
  #lastOffered: string | undefined;
  /** JSON of the revisions the previous turn's tools.list recorded. */
  #lastProtocols: string | undefined;
  #closed = false;

  private constructor(options: LaneOptions, arm: Arm, connections: Map<string, Connection>, errors: ServerStartError[]) {
    this.#options = options;
    this.arm = arm;
    this.#servers = Object.keys(options.servers);
    this.#connections = connections;
    this.#startErrors = errors;
    this.#emit = options.emit ?? (() => undefined);
    const clock = options.clock ?? Date.now;
    const isDeterministic = (name: string): boolean =>
      options.deterministic?.(name) === true || (options.trustServerHints === true && this.#hints.get(name) === true);
    this.#isDeterministic = isDeterministic;
    this.#circuits = arm.circuit ? new ServerCircuits({ ...options.circuit, clock }) : undefined;
    const newRepeats = (): RepeatGuard => new RepeatGuard({ ...(options.repeats?.threshold === undefined ? {} : { threshold: options.repeats.threshold }), isDeterministic });
    this.#repeats = arm.repeats ? newRepeats() : undefined;
    this.#newRepeats = options.repeats?.scope === 'turn' && arm.repeats ? newRepeats : undefined;
    const mechanisms: ConstructorParameters<typeof CallPipeline>[0] = {
      ...(arm.breaker ? { breaker: new TurnBreaker({ key: arm.breakerKey }) } : {}),
      ...(this.#circuits === undefined ? {} : { circuits: this.#circuits }),
      isDeterministic,
      deadline: arm.deadline,
    };
    // An accessor, read on every call, so a turn-scoped guard can be replaced when a turn opens
    // (a spread would copy the first guard's value).
    if (arm.repeats) Object.defineProperty(mechanisms, 'repeats', { get: () => this.#repeats, enumerable: true });
    this.#pipeline = new CallPipeline(mechanisms);
    this.#roster = arm.roster ? new RosterCache<Tool>({ ...options.roster, servers: this.#servers, clock, zeroTtl: arm.rosterTtl }) : undefined;
    this.#sharedCallOptions = arm.deadline && options.onProgress === undefined ? this.#deadlineOptions(IGNORE_PROGRESS) : undefined;
    this.#plainOptions = new Map(Object.entries(arm.deadline ? {} : (options.plainTimeoutMs ?? {})).map(([server, timeout]) => [server, { timeout }]));
  }

  /** Connects every server in parallel; one that fails is in `startErrors`, the rest work. */
  static async connect(options: LaneOptions): Promise<Lane> {
    validateServerNames(Object.keys(options.servers));
    const arm = typeof options.arm === 'string' ? parseArm(options.arm) : (options.arm ?? ARM_ON);
    const configs = Object.entries(options.servers).map(([name, config]) =>
      [name, 'command' in config ? nodeCommand(config) : config] as const);
    const connections = new Map<string, Connection>();
    const errors: ServerStartError[] = [];
    let lane: Lane | undefined;
    const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const settled = await Promise.allSettled(configs.map(([name, config]) =>
      connectServer(name, config, { timeoutMs, signal: options.signal, protocol: arm.protocol, ...Lane.#hooks(() => lane, name, options.elicit) })));
    settled.forEach((result) => {
      if (result.status === 'fulfilled') connections.set(result.value.name, result.value);
      else errors.push(result.reason as ServerStartError);
    });
    lane = new Lane(options, arm, connections, errors);
    return lane;
  }

  /** What a connection tells the lane: a changed tool list, a close it did not ask for. */
  static #hooks(lane: () => Lane | undefined, name: string, declared: readonly DeclaredAnswer[] | undefined) {
    return {
      onToolListChanged: () => {
        const current = lane();
        if (current === undefined) return;
        current.#roster?.markStale(name);
        current.#options.onToolListChanged?.(name);
      },
      onNotification: (notification: Notification) => {
        const current = lane();
        if (current !== undefined) current.#options.onServerNotification?.(name, notification);
      },
      ...(declared === undefined ? {} : {
        onElicit: async (asked: ElicitationAsked): Promise<ElicitationAnswer> => {
          const { answer, declared: matched } = answerFor(asked, declared);
          const current = lane();
          if (current !== undefined) {
            current.#emit({
              type: 'elicitation', 'mcp.method.name': 'elicitation/create', server: name, turn: current.#turn?.turn ?? 0,
              message: asked.message, action: answer.action, declared: matched, ...(answer.content === undefined ? {} : { content: answer.content }),
            });
          }
          return answer;
        },
      }),
      onClosed: () => {
        const current = lane();
        if (current === undefined || current.#closed || current.#options.onServerClosed === undefined) return;
        // Someone restarts it: until then its calls are answered "restarting", not the SDK's
        // "Not connected" (which would also count toward opening its circuit).
        current.#connections.delete(name);
        current.#options.onServerClosed(name);
      },
    };
  }

  /** The configured servers, in the configuration's order. */
  get servers(): readonly string[] {
    return this.#servers;
  }

  /**
   * The MCP client of a server now connected, for what the lane does not mediate (the gateway's
   * resources and prompts); undefined while it is down. Tool calls go through call().
   */
  clientOf(server: string): Client | undefined {
    return this.#connections.get(server)?.client;
  }

  /** The MCP revision each server now connected speaks with the lane, by server name. */
  protocols(): Record<string, string> {
    return Object.fromEntries([...this.#connections].map(([name, connection]) => [name, connection.protocol]));
  }

  /** How many times the server was started or reached again (reconnect) since the lane connected: 0 at first. */
  incarnation(server: string): number {
    return this.#incarnations.get(server) ?? 0;
  }

  /** The server's circuit (`closed`, `open`, `half_open`), or undefined on an arm without one. */
  circuitState(server: string): string | undefined {
    return this.#circuits?.state(server);
  }

  /**
   * Starts or reaches a server again (it exited, its session dropped, it never started): the
   * new connection replaces the old, and the next turn re-lists its tools. Throws
   * ServerStartError as a first start does; the old connection is gone either way.
   */
  async reconnect(name: string): Promise<void> {
    this.#assertOpen();
    const config = this.#options.servers[name];
    if (config === undefined) throw new RangeError(`Lane.reconnect: no server named ${name}`);
    const old = this.#connections.get(name);
    this.#connections.delete(name);
    await old?.close().catch(() => undefined);
    const resolved = 'command' in config ? nodeCommand(config) : config;
    const connection = await connectServer(name, resolved, {
      timeoutMs: this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, protocol: this.arm.protocol, ...Lane.#hooks(() => this, name, this.#options.elicit),
    }).catch((error: unknown) => {
      if (error instanceof ServerStartError) this.#startErrors = [...this.#startErrors.filter((e) => e.server !== name), error];
      throw error;
    });
    if (this.#closed) {
      await connection.close();
      return;
    }
    this.#connections.set(name, connection);
    // A new process or session: failures the breaker remembers of the old one refuse nothing now.
    this.#incarnations.set(name, this.incarnation(name) + 1);
    this.#startErrors = this.#startErrors.filter((e) => e.server !== name);
    this.#roster?.markStale(name);
  }

  /** Fixes the new turn's tool list, re-listing only what the roster needs, and emits tools.list. */
  async openTurn(): Promise<Turn> {
    this.#assertOpen();
    const started = performance.now();
    const turn = (this.#turns += 1);
    this.#pipeline.openTurn(turn);
    if (this.#newRepeats !== undefined) this.#repeats = this.#newRepeats();
    const timeout = this.#options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
    const { roster, failed } = await openRoster({
      // Roster off: a fresh cache every turn is a plain re-list of every server, no fallback.
      cache: this.#roster ?? new RosterCache<Tool>({ servers: this.#servers }),
      connections: this.#connections,
      requestOptions: this.#pipeline.deadline ? { timeout } : undefined,
    });
    const routes = new Map<string, Route>();
    for (const offered of roster.tools) {
      routes.set(offered.name, {
        server: offered.server, tool: offered.tool.name, definition: offered.tool, options: this.#sharedOptions(offered.server, offered.tool),
      });
      this.#hints.set(offered.name, offered.tool._meta?.['ladder/deterministic'] === true);
    }
    const tools: LaneTool[] = roster.tools.map(({ name, tool }) => ({
      name, description: tool.description ?? '', inputSchema: tool.inputSchema,
    }));
    if (this.#roster !== undefined && roster.refreshOffered) tools.push(refreshTool());
    this.#turn = { turn, roster, routes };
    // The tools as offered go into the trace when they differ from the turn before, so a
    // transcript shows what the model was given without repeating it every turn.
    const offered = JSON.stringify(tools);
    const changed = offered !== this.#lastOffered;
    this.#lastOffered = offered;
    // The revisions likewise: on the first listing, then when a reconnect changed one.
    const protocols = this.protocols();
    const spoken = JSON.stringify(protocols);
    const protocolsChanged = spoken !== this.#lastProtocols && Object.keys(protocols).length > 0;
    if (protocolsChanged) this.#lastProtocols = spoken;
    this.#emit({
      type: 'tools.list', 'mcp.method.name': 'tools/list', turn, ...roster.counters,
      tools: tools.length, failed, ms: round3(performance.now() - started),
      ...(changed ? { offered: tools } : {}),
      ...(protocolsChanged ? { protocols } : {}),
      ...(this.#roster === undefined ? {} : { rules: roster.rules }),
    });
    return { turn, tools, counters: roster.counters };
  }

  /**
   * Calls a tool of the current turn by its qualified name; always answers with text. `at`
   * places the call (CallAt): with `at.signal`, a call its step stops is answered at once.
   */
  async call(name: string, args: Record<string, unknown> | undefined, at: CallAt): Promise<CallResult> {
    this.#assertOpen();
    const current = this.#turn;
    if (current === undefined) throw new Error('Lane.call: open a turn with openTurn() before calling tools');
    const started = performance.now();
    const input = args ?? {};
    const sized = measure(name, input);
    const route = current.routes.get(name);
    const refresh = name === REFRESH_TOOL;
    const server = route?.server ?? (refresh ? HARNESS_SERVER : (this.#deadServer(name) ?? ''));
    const tool = route?.tool ?? (refresh ? name.slice(HARNESS_SERVER.length + SEPARATOR.length) : name);
    const decision = sized === undefined
      ? { text: 'The arguments have no JSON form, so the call was not sent.', outcome: 'failed' as const, errorType: 'invalid_arguments' }
      : await this.#decide(current, name, input, sized.callKey, at, route);
    const { key, argBytes } = sized ?? { key: hashCallKey(name), argBytes: 0 };
    const resultBytes = Buffer.byteLength(decision.text);
    const event: ToolCallInput = {
      type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name,
      turn: current.turn, round: at.round, server, tool, key, outcome: decision.outcome,
      ms: round3(performance.now() - started), argBytes, resultBytes,
      // Recorded on every arm, so the report can split repeat rates even where repeats is off.
      deterministic: this.#isDeterministic(name),
    };
    if (decision.errorType !== undefined) event['error.type'] = decision.errorType;
    if (decision.probe === true) event.probe = true;
    if (at.id !== undefined) event['gen_ai.tool.call.id'] = at.id;
    this.#emit(event);
    const isError = decision.outcome !== 'ok' && decision.outcome !== 'short_circuited';
    return { text: decision.text, isError, outcome: decision.outcome, server, tool, key };
  }

  /** Not async: a routed call's promise is handed straight back rather than wrapped in another. */
  #decide(current: OpenTurn, name: string, args: Record<string, unknown>, key: string, at: CallAt,
    route: Route | undefined): Decision | Promise<Decision> {
    if (route === undefined) {
      if (name === REFRESH_TOOL && this.#roster !== undefined && current.roster.refreshOffered) {
        const { ok, text } = this.#roster.refresh(current.roster);
        return ok ? { text, outcome: 'ok' } : { text, outcome: 'failed', errorType: 'empty_roster' };
      }
      const dead = this.#deadServer(name);
      if (dead !== undefined) return { text: notStartedText(dead, name), outcome: 'unavailable', errorType: 'not_started' };
      return { text: unknownToolText(name), outcome: 'failed', errorType: 'unknown_tool' };
    }
    const connection = this.#connections.get(route.server);
    if (connection === undefined) return { text: restartingText(route.server, name), outcome: 'unavailable', errorType: 'restarting' };
    const site: CallSite = {
      name, server: route.server, key, turn: current.turn, round: at.round, incarnation: this.incarnation(route.server), signal: at.signal,
    };
    // The step's signal goes to the SDK as it is: its v2 client takes its abort listener off a
    // request's signal when the request ends (the v1 client left it, so each call had to get a
    // signal of its own that followed the step's; test/lane/calls.test.ts holds the SDK to it).
    return this.#pipeline.call(site, () => callTool(connection.client, route.tool, args, this.#requestOptions(site, route, at.signal)));
  }

  /** A call's request options: its route's, with the step's signal when it has one. */
  #requestOptions(site: CallSite, route: Route, signal: AbortSignal | undefined): CallOptions {
    const options = route.options ?? { ...this.#timeoutOptions(site), toolDefinition: callDefinition(route.definition) };
    return signal === undefined ? options : { ...options, signal };
  }

  /** The options every call of a tool sends, or undefined when an onProgress handler makes them per call. */
  #sharedOptions(server: string, tool: Tool): CallOptions | undefined {
    if (this.#pipeline.deadline && this.#sharedCallOptions === undefined) return undefined;
    const timeout = this.#pipeline.deadline ? this.#sharedCallOptions : this.#plainOptions.get(server);
    return { ...timeout, toolDefinition: callDefinition(tool) };
  }

  #timeoutOptions(site: CallSite): RequestOptions | undefined {
    if (!this.#pipeline.deadline) return this.#plainOptions.get(site.server);
    const onProgress = this.#options.onProgress;
    if (onProgress === undefined) return this.#sharedCallOptions;
    return this.#deadlineOptions((p) => onProgress({ turn: site.turn, round: site.round, name: site.name, ...p }));
  }

  #deadlineOptions(onprogress: NonNullable<RequestOptions['onprogress']>): RequestOptions {
    return {
      timeout: this.#options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      maxTotalTimeout: this.#options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      resetTimeoutOnProgress: true,
      // A progress handler is what makes the SDK send a progress token; without one a server
      // cannot report progress, and the timeout could not be reset by it.
      onprogress,
    };
  }

  /** The configured server a name points at when that server did not start. */
  #deadServer(name: string): string | undefined {
    const server = name.split(SEPARATOR)[0] ?? '';
    return this.startErrors.some((e) => e.server === server) ? server : undefined;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('Lane: used after close()');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#connections.values()].map((c) => c.close()));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
