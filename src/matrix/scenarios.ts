// The matrix's scenarios: each a server the agent faces as it is, a script for the model, and
// the readers that make its cells. A scenario is one pass of one agent (one or two steps), so
// the families share runs where one run can show several things: `basics` reads the revision,
// the capabilities, names, schemas and parallel calls from one conversation.
import { protocolError } from '../mcp/errors.ts';
import { inputRequired, inputResponse } from '../mcp/server.ts';
import { marker } from './model.ts';
import type { Script } from './model.ts';
import * as read from './readers.ts';
import type { Cell, Recording } from './recording.ts';
import type { ScenarioEra, ScenarioServer, ScenarioTool, ToolContext } from './server.ts';

export interface Scenario {
  readonly name: string;
  /** The family it answers, shown in the table's first column. */
  readonly family: string;
  readonly era: ScenarioEra;
  readonly steps: number;
  /** ttlMs on each listing (roster). */
  readonly listingTtlMs?: number;
  readonly resourcesAndPrompts?: boolean;
  /** The server's tools at the start; `setup` may change them while the agent works. */
  tools(control: ScenarioControl): ScenarioTool[];
  /** Tools the server adds later: the model's requests are matched against these too. */
  readonly laterTools?: readonly string[];
  /** Set up the server once it runs (a request to drop, say). */
  setup?(server: ScenarioServer): void;
  readonly script: Script;
  /** Seconds each step may take beyond the wait cap. */
  readonly stepS: number;
  /** Whether a step's limit must cover the wait cap too (the slow calls). */
  readonly waits?: boolean;
  cells(rec: Recording): Cell[];
}

/** What a tool can do to the scenario while it runs: change the server, mark the moment. */
export interface ScenarioControl {
  server(): ScenarioServer;
  mark(name: string): void;
  /** The longest a slow call is held, ms. */
  readonly waitCapMs: number;
}

const object = (properties: Record<string, unknown> = {}, required: string[] = []): Record<string, unknown> => ({
  type: 'object', properties, ...(required.length === 0 ? {} : { required }),
});
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
const sleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  const done = (): void => {
    clearTimeout(timer);
    signal.removeEventListener('abort', done);
    resolve();
  };
  const timer = setTimeout(done, ms);
  signal.addEventListener('abort', done, { once: true });
});
const tool = (name: string, description: string, inputSchema: Record<string, unknown>, call: ScenarioTool['call'], extra: Partial<ScenarioTool> = {}): ScenarioTool => ({
  name, description: `${description} ${marker(name)}`, inputSchema, call, ...extra,
});

const TOPIC = object({ topic: { type: 'string', description: 'What to look up' } }, ['topic']);
const lookup = (delayMs = 0, description = 'Looks a topic up in the catalog'): ScenarioTool =>
  tool('lookup', description, TOPIC, async (args, ctx) => {
    await sleep(delayMs, ctx.signal);
    return text(`lookup: ${String(args.topic)} is MX-LOOKUP-1`);
  });

/** A script that makes these turns in order (one list of calls each), then answers. */
const turns = (...each: { tool: string; args?: Record<string, unknown> }[][]): Script => (view) => {
  const next = each[view.turn];
  if (next === undefined) return { answer: `Done: ${view.results.length} results.` };
  const calls = next.filter((c) => view.offered.has(c.tool)).map((c) => ({ tool: c.tool, args: c.args ?? {} }));
  return calls.length === 0 ? { answer: 'None of the tools I need is here.' } : { calls };
};

// --- basics: revision, capabilities, names, schemas, parallel calls, resources and prompts ---

const LONG_NAME = 'lookup_with_a_name_that_runs_past_the_sixty_four_characters_limit_x';
const SCHEMAS = {
  any_of: object({ value: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, ['value']),
  one_of: object({ value: { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] } }, ['value']),
  ref: { ...object({ where: { $ref: '#/$defs/place' } }, ['where']), $defs: { place: object({ city: { type: 'string' } }, ['city']) } },
} as const;

const basics: Scenario = {
  name: 'basics',
  family: 'Revisions, names and schemas, parallel calls, resources and prompts',
  era: 'dual',
  steps: 1,
  stepS: 120,
  resourcesAndPrompts: true,
  tools: () => [
    lookup(300),
    tool('dotted.name', 'A tool whose name has a dot', object(), () => text('dotted: MX-DOT-2')),
    tool(LONG_NAME, 'A tool whose name is 68 characters long', object(), () => text('long: MX-LONG-3')),
    tool('any_of', 'Takes a string or a number', SCHEMAS.any_of, () => text('any_of: ok')),
    tool('one_of', 'Takes a short string or an integer', SCHEMAS.one_of, () => text('one_of: ok')),
    tool('ref', 'Takes a place by reference', SCHEMAS.ref, () => text('ref: ok')),
  ],
  script: turns([{ tool: 'lookup', args: { topic: 'a' } }, { tool: 'lookup', args: { topic: 'b' } }, { tool: 'lookup', args: { topic: 'c' } }]),
  cells: (rec) => [
    read.revisionSpoken(rec),
    read.elicitationDeclared(rec),
    read.offeredAtOnce(rec, 6),
    read.toolAsOffered(rec, 'dotted.name', object(), 'a name with a dot'),
    read.toolAsOffered(rec, LONG_NAME, object(), 'a name of 68 characters'),
    read.toolAsOffered(rec, 'any_of', SCHEMAS.any_of, 'anyOf in a schema'),
    read.toolAsOffered(rec, 'one_of', SCHEMAS.one_of, 'oneOf in a schema'),
    read.toolAsOffered(rec, 'ref', SCHEMAS.ref, '$ref in a schema'),
    read.parallelCalls(rec, 'lookup', 3),
    read.listedAndOffered(rec, 'resources'),
    read.listedAndOffered(rec, 'prompts'),
    read.listings(rec, 'tools/list in one step'),
  ],
};

// --- modern-only: a server that speaks 2026-07-28 and nothing else ------------------------------

const modernOnly: Scenario = {
  name: 'modern-only',
  family: 'Revisions: a server that speaks 2026-07-28 only',
  era: 'modern',
  steps: 1,
  stepS: 120,
  tools: () => [lookup()],
  script: turns([{ tool: 'lookup', args: { topic: 'a' } }]),
  cells: (rec) => [read.callWorked(rec, 'lookup', 'MX-LOOKUP-1')],
};

// --- results: what the model gets for each kind of result -----------------------------------

const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const big = (kb: number, start: string, end: string): string => {
  const line = 'matrix filler line, the same text again and again to make the result long.\n';
  const body = line.repeat(Math.ceil((kb * 1024) / line.length)).slice(0, kb * 1024 - start.length - end.length - 2);
  return `${start}\n${body}\n${end}`;
};
const OUTPUT = object({ code: { type: 'string' }, temp: { type: 'number' } });

const results: Scenario = {
  name: 'results',
  family: 'Results',
  era: 'dual',
  steps: 1,
  stepS: 150,
  tools: () => [
    tool('failing', 'Fails as a tool', object(), () => ({ isError: true, content: [{ type: 'text', text: 'failing: the disk is full (MX-ERR-7)' }] })),
    tool('rpc_error', 'Fails as a request', object(), () => { throw protocolError(-32603, 'rpc_error: the backend refused (MX-RPC-9)'); }),
    tool('structured', 'Answers with text and structured content', object(), () => ({
      content: [{ type: 'text', text: 'structured: the reading is MX-SC-TEXT' }], structuredContent: { code: 'MX-SC-DATA', temp: 21 },
    }), { outputSchema: OUTPUT }),
    tool('structured_only', 'Answers with structured content alone', object(), () => ({ content: [], structuredContent: { code: 'MX-SO-DATA', temp: 4 } }), { outputSchema: OUTPUT }),
    tool('big', 'Answers 100 KB of text', object(), () => text(big(100, 'MX-BIG-START', 'MX-BIG-END'))),
    tool('huge', 'Answers 1 MB of text', object(), () => text(big(1024, 'MX-HUGE-START', 'MX-HUGE-END'))),
    tool('picture', 'Answers with an image', object(), () => ({ content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] })),
  ],
  // One kind a turn, so an agent that fails on one still shows the others; the JSON-RPC error,
  // which some clients throw on, last.
  script: turns(...['failing', 'structured', 'structured_only', 'big', 'huge', 'picture', 'rpc_error'].map((t) => [{ tool: t }])),
  cells: (rec) => [
    read.resultAsSeen(rec, 'failing', 'MX-ERR-7', 'isError: true'),
    read.resultAsSeen(rec, 'rpc_error', 'MX-RPC-9', 'a JSON-RPC error'),
    read.structuredAsSeen(rec, 'structured', 'MX-SC-TEXT', 'MX-SC-DATA', 'structuredContent with text'),
    read.structuredAsSeen(rec, 'structured_only', undefined, 'MX-SO-DATA', 'structuredContent alone'),
    read.sizeAsSeen(rec, 'big', 'MX-BIG-START', 'MX-BIG-END', 100 * 1024, 'a 100 KB result'),
    read.sizeAsSeen(rec, 'huge', 'MX-HUGE-START', 'MX-HUGE-END', 1024 * 1024, 'a 1 MB result'),
    read.imageAsSeen(rec, 'picture', IMAGE),
  ],
};

// --- roster: a tool added mid-step, a tool changed under its name, ttlMs ---------------------

const ROSTER_TTL_MS = 2000;
/** How long the changing call waits after it announced the change: a client that lists again on the notice has done so before its next model request. */
const ANNOUNCED_MS = 1500;
const roster: Scenario = {
  name: 'roster',
  family: 'The tool list changes',
  era: 'dual',
  steps: 2,
  stepS: 120,
  listingTtlMs: ROSTER_TTL_MS,
  laterTools: ['added'],
  tools: (control) => {
    const added = tool('added', 'A tool the server adds mid-step', object(), () => text('added: MX-ADDED-8'));
    const first: ScenarioTool = tool('lookup', 'Looks a topic up in the catalog', TOPIC, async (args, ctx) => {
      const server = control.server();
      if (!server.tools.some((t) => t.name === 'added')) {
        control.mark('toolsChanged');
        server.setTools([lookup(0, 'Looks a topic up in the catalog, version 2 (MX-V2)'), added]);
        await sleep(ANNOUNCED_MS, ctx.signal);
      }
      return text(`lookup: ${String(args.topic)} is MX-LOOKUP-1`);
    });
    return [first];
  },
  // Each reply waits well past the listing's ttlMs, so a 2026-07-28 client's list is stale at its
  // next request unless it lists again; a list it just made is far inside it.
  script: (view) => {
    const delayMs = ROSTER_TTL_MS + 1500;
    if (view.step === 0 && view.turn === 0) return { calls: [{ tool: 'lookup', args: { topic: 'a' } }], delayMs };
    if (view.step === 0 && view.turn === 1) return { calls: [{ tool: 'lookup', args: { topic: 'b' } }], delayMs };
    if (view.step === 1 && view.turn === 0 && view.offered.has('added')) return { calls: [{ tool: 'added', args: {} }], delayMs };
    return { answer: `Done: ${view.results.length} results.`, delayMs };
  },
  cells: (rec) => [
    read.changeReached(rec, (t) => t.offered.some((o) => o.tool === 'added'), 'toolsChanged', 'a tool added mid-step'),
    read.changeReached(rec, (t) => t.offered.some((o) => o.tool === 'lookup' && o.description.includes('MX-V2')), 'toolsChanged', 'a tool changed under its name'),
    read.relistsOnChange(rec),
    read.ttlHonoured(rec, ROSTER_TTL_MS),
    read.listings(rec, 'tools/list over two steps'),
  ],
};

// --- elicitation: a form and a URL asked of a headless agent ----------------------------------

const confirmation = object({ confirm: { type: 'boolean' } }, ['confirm']);
const asks = (name: string, request: () => unknown): ScenarioTool => tool(name, 'Asks the user before it acts', object(), (_args, ctx: ToolContext) => {
  const answer = inputResponse(ctx.inputResponses as never, 'ask');
  if (answer.kind === 'missing') return inputRequired({ inputRequests: { ask: request() as never } });
  return text(`${name}: the user answered ${answer.kind === 'elicit' ? answer.action : answer.kind} (MX-ASKED)`);
});
const elicitation: Scenario = {
  name: 'elicitation',
  family: 'Elicitation',
  era: 'dual',
  steps: 1,
  // An agent that waits for a user who is not there waits out the step: a minute says so.
  stepS: 60,
  tools: () => [
    asks('confirm_form', () => inputRequired.elicit({ message: 'Deploy to production?', requestedSchema: confirmation as never })),
    asks('confirm_url', () => inputRequired.elicitUrl({ message: 'Sign in to continue', url: 'https://example.invalid/sign-in' })),
  ],
  script: turns([{ tool: 'confirm_form' }], [{ tool: 'confirm_url' }]),
  cells: (rec) => [read.elicitationAnswer(rec, 'confirm_form', 'form'), read.elicitationAnswer(rec, 'confirm_url', 'url')],
};

// --- slow: a call that never answers, and one that sends progress ---------------------------

/** How often the slow tool with progress reports it: well inside a client timeout of a second or more. */
const PROGRESS_EVERY_MS = 1000;
const held = (name: string, description: string, withProgress: boolean, control: ScenarioControl): ScenarioTool =>
  tool(name, description, object(), async (_args, ctx) => {
    const { waitCapMs } = control;
    const until = Date.now() + waitCapMs;
    while (Date.now() < until && !ctx.signal.aborted) {
      await sleep(Math.min(PROGRESS_EVERY_MS, until - Date.now()), ctx.signal);
      if (withProgress && !ctx.signal.aborted) await ctx.progress(Date.now() - (until - waitCapMs), waitCapMs, 'still working').catch(() => false);
    }
    return text(`${name}: held to the cap (MX-HELD)`);
  });
const slow: Scenario = {
  name: 'slow',
  family: 'Slow calls',
  era: 'dual',
  steps: 1,
  stepS: 90,
  waits: true,
  tools: (control) => [held('slow', 'Takes long and says nothing', false, control), held('slow_progress', 'Takes long and reports progress', true, control)],
  script: turns([{ tool: 'slow' }, { tool: 'slow_progress' }]),
  cells: (rec) => [read.silentWait(rec, 'slow'), read.progressExtends(rec, 'slow', 'slow_progress'), read.cancelsOnGivingUp(rec, 'slow')],
};

// --- repeats: the same call again and again, answered and failing ---------------------------

const REPEATS = 12;
const repeating = (name: string, fails: boolean): Scenario => ({
  name,
  family: 'Repeats and failures',
  era: 'dual',
  steps: 1,
  stepS: 120,
  tools: () => [tool('lookup', 'Looks a topic up in the catalog', TOPIC, () => (fails
    ? { isError: true, content: [{ type: 'text', text: 'lookup: the catalog is down (MX-DOWN)' }] }
    : text('lookup: same is MX-LOOKUP-1')))],
  script: (view) => (view.asked.length >= REPEATS ? { answer: 'Stopping after the repeats.' } : { calls: [{ tool: 'lookup', args: { topic: 'same' } }] }),
  cells: (rec) => [
    read.repeatGuard(rec, 'lookup', REPEATS, fails ? 'identical calls, failing' : 'identical calls, answered'),
    ...(fails ? [read.resends(rec, 'lookup', 're-sends a failed call')] : []),
  ],
});

// --- restart: the server forgets its sessions; a request's connection is cut ------------------

const restart: Scenario = {
  name: 'restart',
  family: 'Repeats and failures',
  era: 'dual',
  steps: 1,
  stepS: 120,
  tools: (control) => [
    tool('lookup', 'Looks a topic up in the catalog', TOPIC, (args) => {
      if (String(args.topic) === 'a') {
        // Answer this call, then forget the sessions: the next request names a session the server no longer has.
        setTimeout(() => {
          control.mark('sessionsForgotten');
          control.server().forgetSessions();
        }, 200).unref();
      }
      return text(`lookup: ${String(args.topic)} is MX-LOOKUP-1`);
    }),
  ],
  // The second call waits until the server has forgotten.
  script: (view) => {
    if (view.turn === 0) return { calls: [{ tool: 'lookup', args: { topic: 'a' } }] };
    if (view.turn === 1) return { calls: [{ tool: 'lookup', args: { topic: 'b' } }], delayMs: 600 };
    return { answer: `Done: ${view.results.length} results.` };
  },
  cells: (rec) => [read.reconnects(rec, 'lookup', 'MX-LOOKUP-1')],
};

const dropped: Scenario = {
  name: 'dropped',
  family: 'Repeats and failures',
  era: 'dual',
  steps: 1,
  stepS: 120,
  tools: () => [tool('dropped', 'Answers, once its request arrives whole', object(), () => text('dropped: MX-DROPPED-10'))],
  setup: (server) => server.dropNextCall('dropped'),
  script: turns([{ tool: 'dropped' }]),
  cells: (rec) => [read.resends(rec, 'dropped', 're-sends a dropped request')],
};

export const SCENARIOS: readonly Scenario[] = [basics, modernOnly, results, roster, elicitation, slow, repeating('repeats', false), repeating('repeats-failing', true), restart, dropped];

/** The tools a scenario's server may ever offer: what the model's requests are matched against. */
export function everyTool(scenario: Scenario, control: ScenarioControl): string[] {
  return [...new Set([...scenario.tools(control).map((t) => t.name), ...(scenario.laterTools ?? [])])];
}
