// The matrix's readers (src/matrix/readers.ts) on small recordings made by hand: each branch of
// each reader, with the exact value, key and evidence it gives, and the boundaries of its times
// and counts (a call at the same millisecond as an answer, a wait of exactly the ttl).
import { describe, expect, it } from 'vitest';
import type { ModelTurn, OfferedTool, SeenResult } from '../../src/matrix/model.ts';
import * as read from '../../src/matrix/readers.ts';
import type { Cell, Recording, StepOutcome } from '../../src/matrix/recording.ts';
import type { WireEntry } from '../../src/matrix/wire.ts';

// --- Builders --------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function wire(t: number, exchange: number, dir: WireEntry['dir'], message?: Json, extra: Partial<WireEntry> = {}): WireEntry {
  return { t, exchange, dir, method: 'POST', ...(message === undefined ? {} : { message }), ...extra };
}
const request = (t: number, exchange: number, id: number, method: string, params: Json = {}, extra: Partial<WireEntry> = {}): WireEntry =>
  wire(t, exchange, 'c2s', { jsonrpc: '2.0', id, method, params }, extra);
const notify = (t: number, exchange: number, method: string, params: Json = {}): WireEntry =>
  wire(t, exchange, 'c2s', { jsonrpc: '2.0', method, params });
const call = (t: number, exchange: number, id: number, name: string, more: Json = {}): WireEntry =>
  request(t, exchange, id, 'tools/call', { name, arguments: {}, ...more });
const answer = (t: number, exchange: number, id: number, result: unknown): WireEntry =>
  wire(t, exchange, 's2c', { jsonrpc: '2.0', id, result });
const refusal = (t: number, exchange: number, id: number, code: number, message: string): WireEntry =>
  wire(t, exchange, 's2c', { jsonrpc: '2.0', id, error: { code, message } });
const http = (t: number, exchange: number, extra: Partial<WireEntry>): WireEntry => wire(t, exchange, 'http', undefined, extra);

function turn(over: Partial<ModelTurn> = {}): ModelTurn {
  return { t: 0, step: 0, format: 'openai', offered: [], names: [], results: [], asked: [], hasPrompt: true, reply: { answer: 'done' }, ...over };
}
const offer = (tool: string, as = tool, inputSchema: Json = {}, description = ''): OfferedTool => ({ tool, as, description, inputSchema });
function seen(tool: string, head: string, over: Partial<SeenResult> = {}): SeenResult {
  return { tool, isError: false, length: head.length, head, tail: head, ...over };
}
const step = (over: Partial<StepOutcome> = {}): StepOutcome => ({ at: 0, answer: 'done', timedOut: false, ms: 10, ...over });

function rec(over: Partial<Recording> = {}): Recording {
  return { scenario: 'test', agent: 'agent', era: 'dual', wire: [], turns: [], steps: [], waitCapS: 60, marks: {}, ...over };
}

/** The cell expected: its key is its value unless given. */
const want = (row: string, value: string, evidence: string, key = value): Cell => ({ row, value, key, evidence });

const SIXTY = 'x'.repeat(60);
const SIXTY_ONE = `${'y'.repeat(60)}z`;

// --- Wire and conversation helpers -------------------------------------------------------------

describe('the wire helpers', () => {
  const entries = [
    request(100, 1, 1, 'initialize'),
    wire(110, 1, 's2c', { jsonrpc: '2.0', method: 'initialize' }),
    wire(120, 1, 'c2s'),
    http(130, 1, { event: 'ended' }),
    request(200, 2, 2, 'tools/list'),
    call(300, 3, 3, 'lookup'),
    call(400, 4, 4, 'other'),
    request(450, 4, 9, 'tools/call', {}),
    call(500, 5, 5, 'lookup'),
  ];
  const r = rec({ wire: entries });

  it('sent: the client messages of one method, in order, never the server\'s', () => {
    expect(read.sent(r, 'initialize')).toEqual([entries[0]]);
    expect(read.sent(r, 'tools/call')).toEqual([entries[5], entries[6], entries[7], entries[8]]);
    expect(read.sent(r, 'ping')).toEqual([]);
  });

  it('callsOf: the tools/call requests of one tool by its name', () => {
    expect(read.callsOf(r, 'lookup')).toEqual([entries[5], entries[8]]);
    expect(read.callsOf(r, 'other')).toEqual([entries[6]]);
    expect(read.callsOf(r, 'none')).toEqual([]);
  });

  it('answerTo: the server\'s result or error with the request\'s id on the request\'s exchange', () => {
    const asked = call(100, 2, 7, 'lookup');
    const result = answer(300, 2, 7, { content: [] });
    const w = [
      asked,
      wire(110, 2, 's2c'),
      answer(120, 3, 7, { content: [] }),
      answer(130, 2, 8, { content: [] }),
      wire(140, 2, 's2c', { jsonrpc: '2.0', id: 7, method: 'elicitation/create' }),
      wire(150, 2, 'c2s', { jsonrpc: '2.0', id: 7, result: {} }),
      result,
    ];
    expect(read.answerTo(rec({ wire: w }), asked)).toBe(result);
    const error = refusal(200, 2, 7, -32603, 'down');
    expect(read.answerTo(rec({ wire: [...w.slice(0, -1), error, result] }), asked)).toBe(error);
    expect(read.answerTo(rec({ wire: w.slice(0, -1) }), asked)).toBeUndefined();
    expect(read.answerTo(rec({ wire: [answer(10, 2, 7, 0)] }), asked)?.t).toBe(10);
    expect(read.answerTo(rec({ wire: w }), wire(5, 2, 'c2s'))).toBeUndefined();
  });

  it('where: the exchange and its time in seconds to a tenth', () => {
    expect(read.where(wire(1234, 3, 'c2s'))).toBe('wire exchange 3 at 1.2 s');
    expect(read.where(wire(0, 1, 'http'))).toBe('wire exchange 1 at 0.0 s');
  });

  it('conversation: only the requests that carried the prompt', () => {
    const a = turn({ t: 1 });
    const b = turn({ t: 2, hasPrompt: false });
    const c = turn({ t: 3 });
    expect(read.conversation(rec({ turns: [a, b, c] }))).toEqual([a, c]);
  });

  it('firstResult: the first conversation turn with a result of the tool, counted among conversation turns', () => {
    const r2 = rec({
      turns: [
        turn({ step: 0, results: [seen('other', 'o')] }),
        turn({ step: 0, hasPrompt: false, results: [seen('lookup', 'side')] }),
        turn({ step: 1, results: [seen('other', 'o2'), seen('lookup', 'first')] }),
        turn({ step: 1, results: [seen('lookup', 'second')] }),
      ],
    });
    expect(read.firstResult(r2, 'lookup')).toEqual({ result: seen('lookup', 'first'), where: 'step 2, model request 2' });
    expect(read.firstResult(r2, 'other')).toEqual({ result: seen('other', 'o'), where: 'step 1, model request 1' });
    expect(read.firstResult(r2, 'none')).toBeUndefined();
  });

  it('askedCount: the calls of the tool in the replies of conversation turns', () => {
    const r2 = rec({
      turns: [
        turn({ reply: { calls: ['lookup', 'other', 'lookup'] } }),
        turn({ reply: { answer: 'lookup' } }),
        turn({ hasPrompt: false, reply: { calls: ['lookup'] } }),
        turn({ reply: { calls: ['lookup'] } }),
      ],
    });
    expect(read.askedCount(r2, 'lookup')).toBe(3);
    expect(read.askedCount(r2, 'other')).toBe(1);
    expect(read.askedCount(r2, 'none')).toBe(0);
    expect(read.askedCount(rec(), 'lookup')).toBe(0);
  });
});

// --- Revisions ---------------------------------------------------------------------------------

describe('revisionSpoken', () => {
  const row = 'revision spoken';
  const init = request(2000, 2, 1, 'initialize', { protocolVersion: '2025-06-18' });

  it('reads initialize alone', () => {
    expect(read.revisionSpoken(rec({ wire: [init] }))).toEqual(want(row, '2025-06-18', 'wire exchange 2 at 2.0 s'));
  });

  it('says when a server/discover probe came first, or at the same moment', () => {
    const before = request(1000, 1, 0, 'server/discover');
    expect(read.revisionSpoken(rec({ wire: [before, init] }))).toEqual(want(row, '2025-06-18 (after a 2026-07-28 probe)', 'wire exchange 2 at 2.0 s'));
    const same = request(2000, 1, 0, 'server/discover');
    expect(read.revisionSpoken(rec({ wire: [same, init] }))).toEqual(want(row, '2025-06-18 (after a 2026-07-28 probe)', 'wire exchange 2 at 2.0 s'));
  });

  it('does not when the probe came after initialize', () => {
    const after = request(2001, 3, 5, 'server/discover');
    expect(read.revisionSpoken(rec({ wire: [init, after] }))).toEqual(want(row, '2025-06-18', 'wire exchange 2 at 2.0 s'));
  });

  it('takes the first initialize and the first probe', () => {
    const w = [
      request(3000, 4, 0, 'server/discover'),
      init,
      request(1000, 1, 0, 'server/discover'),
      request(4000, 5, 1, 'initialize', { protocolVersion: '2025-03-26' }),
    ];
    expect(read.revisionSpoken(rec({ wire: w }))).toEqual(want(row, '2025-06-18', 'wire exchange 2 at 2.0 s'));
  });

  it('reads the header of a 2026-07-28 request when there is no initialize', () => {
    const w = [
      wire(500, 1, 's2c', { jsonrpc: '2.0', method: 'notifications/message' }, { protocolVersion: '2025-06-18' }),
      wire(600, 2, 'c2s', { jsonrpc: '2.0', id: 1, result: {} }, { protocolVersion: '2025-11-25' }),
      wire(650, 2, 'c2s', undefined, { protocolVersion: '2025-11-25' }),
      request(700, 3, 2, 'tools/list'),
      request(1500, 4, 3, 'tools/list', {}, { protocolVersion: '2026-07-28' }),
      request(1600, 5, 4, 'tools/call', {}, { protocolVersion: '2027-01-01' }),
    ];
    expect(read.revisionSpoken(rec({ wire: w }))).toEqual(want(row, '2026-07-28', 'wire exchange 4 at 1.5 s'));
  });

  it('says so when the client sent nothing', () => {
    const w = [http(100, 1, { status: 401, event: 'response' }), answer(200, 1, 1, {})];
    expect(read.revisionSpoken(rec({ wire: w }))).toEqual(want(row, 'none: it sent no request', 'no client message on the wire'));
  });
});

describe('callWorked', () => {
  const row = 'works with a 2026-07-28-only server';
  const offered = turn({ offered: [offer('lookup')] });

  it('yes: a result with the proof, not an error', () => {
    const r = rec({ turns: [offered, turn({ results: [seen('lookup', 'lookup: a is MX-1')] })] });
    expect(read.callWorked(r, 'lookup', 'MX-1')).toEqual(want(row, 'yes', 'step 1, model request 2'));
  });

  it('no: the proof marked as an error, or no proof', () => {
    const error = rec({ turns: [offered, turn({ results: [seen('lookup', 'MX-1 failed', { isError: true })] })] });
    expect(read.callWorked(error, 'lookup', 'MX-1')).toEqual(want(row, 'no: the model got "MX-1 failed"', 'step 1, model request 2', 'no: the model got "…"'));
    const other = rec({ turns: [offered, turn({ results: [seen('lookup', 'nothing here', { tail: 'MX-1' })] })] });
    expect(read.callWorked(other, 'lookup', 'MX-1')).toEqual(want(row, 'no: the model got "nothing here"', 'step 1, model request 2', 'no: the model got "…"'));
  });

  it('no result although offered', () => {
    const r = rec({ turns: [turn({ hasPrompt: false }), offered] });
    expect(read.callWorked(r, 'lookup', 'MX-1')).toEqual(want(row, 'no: the model got no result', 'every model request'));
  });

  it('not offered: the refused request on the wire, with its method and code', () => {
    const w = [
      request(100, 1, 1, 'initialize'),
      wire(120, 1, 's2c'),
      request(150, 2, 9, 'ping'),
      wire(160, 2, 'c2s'),
      wire(190, 2, 's2c', { jsonrpc: '2.0', id: 1, method: 'roots/list' }),
      request(200, 2, 1, 'server/discover'),
      request(210, 3, 2, 'tools/list'),
      refusal(300, 2, 1, -32601, 'Method not found'),
      refusal(400, 3, 2, -32600, 'later'),
    ];
    const r = rec({ wire: w, turns: [turn({ hasPrompt: false, offered: [offer('lookup')] }), turn()] });
    expect(read.callWorked(r, 'lookup', 'MX-1')).toEqual(want(row, 'no: its server/discover was refused (-32601) and it went no further', 'wire exchange 2 at 0.3 s'));
    // A refusal without an id (a parse error's) pairs with no request's method.
    const parse = rec({ wire: [wire(100, 6, 'c2s'), wire(200, 6, 's2c', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } })] });
    expect(read.callWorked(parse, 'lookup', 'MX-1')).toEqual(want(row, 'no: its request was refused (-32700) and it went no further', 'wire exchange 6 at 0.2 s'));
    const empty = rec({ wire: [request(100, 6, 1, 'tools/list'), wire(200, 6, 's2c', { jsonrpc: '2.0', id: 1, error: null })] });
    expect(() => read.callWorked(empty, 'lookup', 'MX-1')).not.toThrow();
    expect(read.callWorked(empty, 'lookup', 'MX-1').value).toMatch(/^no: its tools\/list was refused /);
    const lone = rec({ wire: [refusal(300, 2, 1, -32000, 'x')] });
    expect(read.callWorked(lone, 'lookup', 'MX-1')).toEqual(want(row, 'no: its request was refused (-32000) and it went no further', 'wire exchange 2 at 0.3 s'));
  });

  it('not offered and nothing refused: the step\'s failure, or every request', () => {
    const w = [request(100, 1, 1, 'initialize'), answer(200, 1, 1, {}), wire(250, 1, 'c2s', { jsonrpc: '2.0', id: 3, error: { code: 1 } })];
    expect(read.callWorked(rec({ wire: w, turns: [turn()] }), 'lookup', 'MX-1'))
      .toEqual(want(row, "no: its model was offered none of the server's tools", 'every model request'));
    const failing = rec({ wire: w, steps: [step(), step({ failure: 'exit 1' }), step({ failure: 'exit 2' })] });
    expect(read.callWorked(failing, 'lookup', 'MX-1'))
      .toEqual(want(row, "no: its model was offered none of the server's tools", "the step's end: exit 1"));
  });
});

// --- Capabilities and listings -------------------------------------------------------------------

describe('elicitationDeclared', () => {
  const row = 'declares elicitation';
  const META = 'io.modelcontextprotocol/clientCapabilities';
  const init = (capabilities?: Json): WireEntry => request(1000, 1, 1, 'initialize', capabilities === undefined ? {} : { capabilities });

  it('unknown when nothing declares', () => {
    const w = [request(100, 1, 1, 'tools/list'), wire(200, 1, 's2c', { jsonrpc: '2.0', id: 1, result: {}, params: { _meta: { [META]: {} } } })];
    expect(read.elicitationDeclared(rec({ wire: w }))).toEqual(want(row, 'unknown: no capabilities on the wire', 'no initialize and no request _meta'));
  });

  it('reads initialize: none, form, form and url', () => {
    expect(read.elicitationDeclared(rec({ wire: [init()] }))).toEqual(want(row, 'no', 'wire exchange 1 at 1.0 s'));
    expect(read.elicitationDeclared(rec({ wire: [init({ sampling: {} })] }))).toEqual(want(row, 'no', 'wire exchange 1 at 1.0 s'));
    expect(read.elicitationDeclared(rec({ wire: [init({ elicitation: {} })] }))).toEqual(want(row, 'form', 'wire exchange 1 at 1.0 s'));
    expect(read.elicitationDeclared(rec({ wire: [init({ elicitation: { form: {} } })] }))).toEqual(want(row, 'form', 'wire exchange 1 at 1.0 s'));
    expect(read.elicitationDeclared(rec({ wire: [init({ elicitation: { form: {}, url: {} } })] }))).toEqual(want(row, 'form and url', 'wire exchange 1 at 1.0 s'));
  });

  it('reads a 2026-07-28 request\'s _meta when there is no initialize', () => {
    const w = (caps: Json): WireEntry[] => [
      request(100, 1, 1, 'server/discover'),
      wire(150, 1, 's2c', { jsonrpc: '2.0', id: 1, params: { _meta: { [META]: { elicitation: { url: {} } } } } }),
      request(2000, 2, 2, 'tools/list', { _meta: { [META]: caps } }),
      request(3000, 3, 3, 'tools/call', { _meta: { [META]: { elicitation: {} } } }),
    ];
    expect(read.elicitationDeclared(rec({ wire: w({ elicitation: { url: {} } }) }))).toEqual(want(row, 'form and url', 'wire exchange 2 at 2.0 s'));
    expect(read.elicitationDeclared(rec({ wire: w({ elicitation: {} }) }))).toEqual(want(row, 'form', 'wire exchange 2 at 2.0 s'));
    expect(read.elicitationDeclared(rec({ wire: w({}) }))).toEqual(want(row, 'no', 'wire exchange 2 at 2.0 s'));
  });

  it('prefers initialize to a request\'s _meta', () => {
    const w = [request(500, 2, 5, 'tools/list', { _meta: { [META]: { elicitation: { url: {} } } } }), init({})];
    expect(read.elicitationDeclared(rec({ wire: w }))).toEqual(want(row, 'no', 'wire exchange 1 at 1.0 s'));
  });
});

describe('listings', () => {
  it('counts tools/list against conversation requests', () => {
    expect(read.listings(rec(), 'tools/list in one step')).toEqual(want('tools/list in one step', '0 for 0 model requests', 'no tools/list on the wire'));
    const w = [request(100, 1, 1, 'initialize'), wire(150, 1, 's2c', { jsonrpc: '2.0', method: 'tools/list' }), request(2500, 2, 2, 'tools/list'), request(3500, 3, 3, 'tools/list')];
    expect(read.listings(rec({ wire: w, turns: [turn(), turn({ hasPrompt: false })] }), 'r'))
      .toEqual(want('r', '2 for 1 model request', 'first at wire exchange 2 at 2.5 s'));
    expect(read.listings(rec({ wire: w.slice(0, 3), turns: [turn(), turn()] }), 'r'))
      .toEqual(want('r', '1 for 2 model requests', 'first at wire exchange 2 at 2.5 s'));
  });
});

// --- Names and schemas ---------------------------------------------------------------------------

describe('canonical', () => {
  it('sorts keys at every depth, keeps array order, and writes scalars as JSON', () => {
    expect(canonicalOf({ b: 1, a: [2, { d: null, c: 'x' }, []], e: {} })).toBe('{"a":[2,{"c":"x","d":null},[]],"b":1,"e":{}}');
    expect(canonicalOf([{ z: true, y: false }, 'a"b'])).toBe('[{"y":false,"z":true},"a\\"b"]');
    expect(canonicalOf(null)).toBe('null');
    expect(canonicalOf(3.5)).toBe('3.5');
    expect(canonicalOf({ a: 1, b: 2 })).toBe(canonicalOf({ b: 2, a: 1 }));
  });
});
function canonicalOf(value: unknown): string {
  return read.canonical(value);
}

describe('schemaChanges', () => {
  it('lists the keywords and property names only one side has, the written side\'s first', () => {
    const written = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const offered = { type: 'object', properties: { a: { anyOf: [{ type: 'string', format: 'uri' }] }, b: {} } };
    expect(read.schemaChanges(written, offered)).toEqual(['-required', '+anyOf', '+format', '+b']);
    expect(read.schemaChanges(offered, written)).toEqual(['-anyOf', '-format', '-b', '+required']);
    expect(read.schemaChanges(written, { ...written })).toEqual([]);
    expect(read.schemaChanges([{ x: 1 }], null)).toEqual(['-x']);
    expect(read.schemaChanges('text', [[{ y: [{ z: 1 }] }]])).toEqual(['+y', '+z']);
  });
});

describe('toolAsOffered', () => {
  const schema = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] };
  const reordered = { required: ['topic'], properties: { topic: { type: 'string' } }, type: 'object' };
  const row = 'lookup as offered';
  const at = (offered: OfferedTool[]): Recording => rec({ turns: [turn({ offered: [] }), turn({ hasPrompt: false, offered: [offer('lookup', 'side')] }), turn({ offered }), turn({ offered: [offer('lookup', 'late')] })] });

  it('no tools offered at all', () => {
    expect(read.toolAsOffered(rec({ turns: [turn(), turn({ hasPrompt: false, offered: [offer('lookup')] })] }), 'lookup', schema, row))
      .toEqual(want(row, 'no tools offered at all', 'every model request'));
  });

  it('the first request offers it', () => {
    expect(read.toolAsOffered(rec({ turns: [turn({ offered: [offer('lookup', 'lookup', schema)] })] }), 'lookup', schema, row)).toEqual(want(row, 'as written', 'step 1, model request 1'));
  });

  it('left out of the first request that offers any', () => {
    expect(read.toolAsOffered(at([offer('other')]), 'lookup', schema, row)).toEqual(want(row, 'left out', 'step 1, model request 2'));
  });

  it('as written: the same name, or it after a server prefix, and the same schema in any key order', () => {
    for (const as of ['lookup', 'mcp_lookup', 'srv.lookup', 'srv/lookup']) {
      expect(read.toolAsOffered(at([offer('other'), offer('lookup', as, reordered)]), 'lookup', schema, row)).toEqual(want(row, 'as written', 'step 1, model request 2'));
    }
  });

  it('renamed: a name that does not end in the tool after a separator', () => {
    for (const as of ['lookup_x', 'mcplookup', 'lookup.', 'lookup/']) {
      expect(read.toolAsOffered(at([offer('lookup', as, schema)]), 'lookup', schema, row)).toEqual(want(row, `renamed ${as}`, 'step 1, model request 2'));
    }
  });

  it('the schema\'s changes listed, after a rename', () => {
    const changed = { type: 'object', properties: { topic: { anyOf: [{ type: 'string' }] } } };
    expect(read.toolAsOffered(at([offer('lookup', 'lookup', changed)]), 'lookup', schema, row)).toEqual(want(row, 'schema -required +anyOf', 'step 1, model request 2'));
    expect(read.toolAsOffered(at([offer('lookup', 'x_lookup2', changed)]), 'lookup', schema, row)).toEqual(want(row, 'renamed x_lookup2; schema -required +anyOf', 'step 1, model request 2'));
  });

  it('a schema changed in its values only: values changed', () => {
    const retyped = { type: 'object', properties: { topic: { type: 'number' } }, required: ['topic'] };
    expect(read.toolAsOffered(at([offer('lookup', 'lookup', retyped)]), 'lookup', schema, row)).toEqual(want(row, 'schema values changed', 'step 1, model request 2'));
    const listed = { type: 'object', properties: { topic: { type: 'string' } }, required: [] };
    expect(read.toolAsOffered(at([offer('lookup', 'lkp', listed)]), 'lookup', schema, row)).toEqual(want(row, 'renamed lkp; schema values changed', 'step 1, model request 2'));
  });
});

describe('offeredAtOnce', () => {
  const row = 'tools offered at once';
  const two = [offer('a'), offer('b')];

  it('no model request', () => {
    expect(read.offeredAtOnce(rec({ turns: [turn({ hasPrompt: false, offered: two })] }), 2)).toEqual(want(row, 'no model request', 'the model gateway'));
  });

  it('yes when the first request offers all (or more)', () => {
    const r = rec({ turns: [turn({ hasPrompt: false }), turn({ step: 1, offered: two })] });
    expect(read.offeredAtOnce(r, 2)).toEqual(want(row, 'yes', 'step 2, model request 1'));
    expect(read.offeredAtOnce(r, 1)).toEqual(want(row, 'yes', 'step 2, model request 1'));
  });

  it('all from a later request, naming the first request\'s search tools', () => {
    const r = rec({
      turns: [
        turn({ offered: [offer('a')], names: ['search_tools', 'a', 'find_x', 'Discover', 'read'] }),
        turn({ offered: [offer('a')] }),
        turn({ step: 1, offered: two }),
        turn({ step: 1, offered: [offer('a'), offer('b'), offer('c')] }),
      ],
    });
    expect(read.offeredAtOnce(r, 2)).toEqual(want(row, 'no: all from request 3 (first request offered search_tools, find_x, Discover)', 'step 2, model request 3'));
    expect(read.offeredAtOnce(r, 3)).toEqual(want(row, 'no: all from request 4 (first request offered search_tools, find_x, Discover)', 'step 2, model request 4'));
  });

  it('all from the second request', () => {
    const r = rec({ turns: [turn({ offered: [offer('a')] }), turn({ offered: two })] });
    expect(read.offeredAtOnce(r, 2)).toEqual(want(row, 'no: all from request 2', 'step 1, model request 2'));
  });

  it('never all offered', () => {
    const r = rec({ turns: [turn({ offered: [offer('a')], names: ['a', 'b'] }), turn({ offered: [offer('a')] })] });
    expect(read.offeredAtOnce(r, 2)).toEqual(want(row, 'no: 1 of 2 ever offered', 'step 1, model request 1'));
    const searching = rec({ turns: [turn({ names: ['tool_search'] })] });
    expect(read.offeredAtOnce(searching, 1)).toEqual(want(row, 'no: 0 of 1 ever offered (first request offered tool_search)', 'step 1, model request 1'));
  });
});

describe('parallelCalls', () => {
  const row = 'three calls in one model turn';
  /** Calls of lookup at these times, each on its own exchange, answered at those (undefined: never). */
  const calls = (sent: number[], answered: (number | undefined)[]): Recording => rec({
    wire: [
      call(0, 99, 50, 'other'),
      ...sent.flatMap((t, i) => [call(t, i + 1, i + 1, 'lookup'), ...(answered[i] === undefined ? [] : [answer(answered[i]!, i + 1, i + 1, {})])]),
    ],
  });

  it('made fewer than expected', () => {
    expect(read.parallelCalls(calls([], []), 'lookup', 3)).toEqual(want(row, 'made 0 of 3', 'no tools/call on the wire'));
    expect(read.parallelCalls(calls([1000, 2000], [1500, 2500]), 'lookup', 3)).toEqual(want(row, 'made 2 of 3', 'wire exchange 1 at 1.0 s'));
  });

  it('sent at once: every call before the first answer, only the expected number read', () => {
    expect(read.parallelCalls(calls([1000, 1100, 1200, 5000], [3000, 2000, 4000, 6000]), 'lookup', 3)).toEqual(want(row, 'sent at once', 'wire exchange 1 at 1.0 s'));
    expect(read.parallelCalls(calls([1000, 1100, 1200], [undefined, undefined, undefined]), 'lookup', 3)).toEqual(want(row, 'sent at once', 'wire exchange 1 at 1.0 s'));
  });

  it('a call at the moment of the first answer is not at once', () => {
    expect(read.parallelCalls(calls([1000, 1100, 1200], [1200, 1300, 1400]), 'lookup', 3)).toEqual(want(row, 'partly at once', 'wire exchange 1 at 1.0 s'));
  });

  it('one after another: each call at or after the answer before it', () => {
    expect(read.parallelCalls(calls([1000, 2000, 3000], [2000, 3000, 4000]), 'lookup', 3)).toEqual(want(row, 'one after another', 'wire exchange 1 at 1.0 s'));
    expect(read.parallelCalls(calls([1000, 2000, 3000], [1500, 2500, undefined]), 'lookup', 3)).toEqual(want(row, 'one after another', 'wire exchange 1 at 1.0 s'));
  });

  it('partly at once: a call before the answer before it, or after a call never answered', () => {
    expect(read.parallelCalls(calls([1000, 2000, 2100], [1500, 2500, 3000]), 'lookup', 3)).toEqual(want(row, 'partly at once', 'wire exchange 1 at 1.0 s'));
    expect(read.parallelCalls(calls([1000, 2000, 3000], [1500, undefined, 3500]), 'lookup', 3)).toEqual(want(row, 'partly at once', 'wire exchange 1 at 1.0 s'));
  });
});

describe('listedAndOffered', () => {
  it('resources: listed, the model\'s own tools for them, reads', () => {
    const w = [
      request(100, 1, 1, 'prompts/list'),
      request(1200, 2, 2, 'resources/list'),
      request(1300, 3, 3, 'resources/read'),
      request(1400, 4, 4, 'resources/read'),
      request(1500, 5, 5, 'prompts/get'),
    ];
    const turns = [
      turn({ names: ['lookup', 'list_resources', 'get_prompt'] }),
      turn({ names: ['ReadResource', 'list_resources'] }),
      turn({ hasPrompt: false, names: ['resource_templates'] }),
    ];
    expect(read.listedAndOffered(rec({ wire: w, turns }), 'resources'))
      .toEqual(want('resources', 'listed; the model gets list_resources, ReadResource; 2 read', 'wire exchange 2 at 1.2 s'));
    expect(read.listedAndOffered(rec({ wire: w, turns }), 'prompts'))
      .toEqual(want('prompts', 'listed; the model gets get_prompt; 1 read', 'wire exchange 1 at 0.1 s'));
  });

  it('neither listed nor offered nor read', () => {
    const turns = [turn({ names: ['lookup'] })];
    expect(read.listedAndOffered(rec({ turns, wire: [request(100, 1, 1, 'resources/list')] }), 'prompts'))
      .toEqual(want('prompts', 'not listed; not offered to the model', 'no list request on the wire'));
    expect(read.listedAndOffered(rec({ turns: [turn({ names: ['prompt_me'] })] }), 'resources'))
      .toEqual(want('resources', 'not listed; not offered to the model', 'no list request on the wire'));
  });
});

// --- Results -----------------------------------------------------------------------------------

describe('resultAsSeen', () => {
  const row = 'isError: true';

  it('no result: the agent failed, or none reached the model', () => {
    expect(read.resultAsSeen(rec({ turns: [turn({ results: [seen('other', 'MX')] })] }), 'failing', 'MX', row)).toEqual(want(row, 'no result reached the model', 'every model request'));
    expect(read.resultAsSeen(rec({ steps: [step(), step({ failure: 'crashed' }), step({ failure: 'later' })] }), 'failing', 'MX', row))
      .toEqual(want(row, 'no result: the agent failed', "the step's end: crashed"));
  });

  it('the server\'s text, found at the head or the tail, marked as an error or not', () => {
    const r = (result: SeenResult): Recording => rec({ turns: [turn(), turn({ results: [result] })] });
    expect(read.resultAsSeen(r(seen('failing', 'failing: MX-ERR-7', { isError: true })), 'failing', 'MX-ERR-7', row))
      .toEqual(want(row, "the server's text, marked as an error", 'step 1, model request 2'));
    expect(read.resultAsSeen(r(seen('failing', 'head', { tail: '... MX-ERR-7' })), 'failing', 'MX-ERR-7', row))
      .toEqual(want(row, "the server's text, not marked as an error", 'step 1, model request 2'));
  });

  it('other text, quoted whole to 60 characters and cut past them', () => {
    const r = (result: SeenResult): Recording => rec({ turns: [turn({ results: [result] })] });
    expect(read.resultAsSeen(r(seen('failing', SIXTY)), 'failing', 'MX', row))
      .toEqual(want(row, `other text, not marked as an error: "${SIXTY}"`, 'step 1, model request 1', 'other text, not marked as an error: "…"'));
    expect(read.resultAsSeen(r(seen('failing', SIXTY_ONE, { isError: true })), 'failing', 'MX', row))
      .toEqual(want(row, `other text, marked as an error: "${'y'.repeat(60)}…"`, 'step 1, model request 1', 'other text, marked as an error: "…"'));
  });
});

describe('structuredAsSeen', () => {
  const row = 'structuredContent';
  const r = (result: SeenResult): Recording => rec({ turns: [turn({ results: [result] })] });
  const check = (result: SeenResult, text: string | undefined, value: string, key = value): void => {
    expect(read.structuredAsSeen(r(result), 'structured', text, 'MX-DATA', row)).toEqual(want(row, value, 'step 1, model request 1', key));
  };

  it('which of the text and the JSON reached the model', () => {
    check(seen('structured', 'MX-TEXT', { tail: '{"code":"MX-DATA"}' }), 'MX-TEXT', 'text and structured JSON');
    check(seen('structured', '{"code":"MX-DATA"}', { tail: 'MX-TEXT' }), 'MX-TEXT', 'text and structured JSON');
    check(seen('structured', 'MX-TEXT only'), 'MX-TEXT', 'text only');
    check(seen('structured', 'x', { tail: 'MX-TEXT' }), 'MX-TEXT', 'text only');
    check(seen('structured', '{"code":"MX-DATA"}'), undefined, 'structured JSON');
    check(seen('structured', 'undefined {"code":"MX-DATA"}'), undefined, 'structured JSON');
    check(seen('structured', '{"code":"MX-DATA"}'), 'MX-TEXT', 'structured JSON');
    check(seen('structured', '', { length: 0 }), undefined, 'nothing (empty)');
    check(seen('structured', '', { length: 0 }), 'MX-TEXT', 'nothing (empty)');
    check(seen('structured', 'something else'), 'MX-TEXT', 'other: "something else"', 'other: "…"');
  });

  it('no result', () => {
    expect(read.structuredAsSeen(rec({ steps: [step({ failure: 'gone' })] }), 'structured', 'MX-TEXT', 'MX-DATA', row)).toEqual(want(row, 'no result: the agent failed', "the step's end: gone"));
    expect(read.structuredAsSeen(rec(), 'structured', 'MX-TEXT', 'MX-DATA', row)).toEqual(want(row, 'no result reached the model', 'every model request'));
  });
});

describe('sizeAsSeen', () => {
  const row = 'a 100 KB result';
  const CHARS = 100 * 1024;
  const r = (result: SeenResult): Recording => rec({ turns: [turn({ results: [result] })] });
  const size = (result: SeenResult): Cell => read.sizeAsSeen(r(result), 'big', 'START', 'END', CHARS, row);

  it('whole: both markers and every character (or more)', () => {
    expect(size(seen('big', 'START ...', { tail: '... END', length: CHARS }))).toEqual(want(row, 'whole (100 KB)', 'step 1, model request 1'));
    expect(size(seen('big', 'START ...', { tail: '... END', length: CHARS + 600 }))).toEqual(want(row, 'whole (101 KB)', 'step 1, model request 1'));
  });

  it('cut in the middle: both markers, fewer characters', () => {
    expect(size(seen('big', 'START ...', { tail: '... END', length: CHARS - 1 }))).toEqual(want(row, 'cut in the middle to 100 KB', 'step 1, model request 1'));
    expect(size(seen('big', 'START ...', { tail: '... END', length: 1535 }))).toEqual(want(row, 'cut in the middle to 1 KB', 'step 1, model request 1'));
  });

  it('cut at the end: the start marker only (the end read from the tail alone)', () => {
    expect(size(seen('big', 'START ... END', { tail: '... cut', length: 1536 }))).toEqual(want(row, 'cut to 2 KB', 'step 1, model request 1'));
  });

  it('replaced: no start marker at the head, an error or not', () => {
    expect(size(seen('big', 'too large', { tail: 'START ... END', length: CHARS }))).toEqual(want(row, 'replaced: "too large"', 'step 1, model request 1', 'replaced: "…"'));
    expect(size(seen('big', 'Result too large', { isError: true }))).toEqual(want(row, 'replaced by an error: "Result too large"', 'step 1, model request 1', 'replaced by an error: "…"'));
  });

  it('no result, with and without a failed step', () => {
    expect(read.sizeAsSeen(rec(), 'big', 'START', 'END', CHARS, row)).toEqual(want(row, 'no result reached the model', 'every model request'));
    expect(read.sizeAsSeen(rec({ steps: [step({ failure: 'out of memory' })] }), 'big', 'START', 'END', CHARS, row))
      .toEqual(want(row, 'no result: the agent failed', "the step's end: out of memory"));
  });
});

describe('imageAsSeen', () => {
  const row = 'image result';
  const BASE64 = `${'A'.repeat(40)}BCDEFGHIJK`;
  const r = (head: string, over: Partial<SeenResult> = {}): Recording => rec({ turns: [turn({ results: [seen('image', head, over)] })] });
  const image = (head: string, over: Partial<SeenResult> = {}): Cell => read.imageAsSeen(r(head, over), 'image', BASE64);

  it('as an image block: the gateway\'s note where the block was', () => {
    for (const head of ['[image: not carried by the model gateway, which passes text only]', 'x not carried by the model gateway']) {
      expect(image(head)).toEqual(want(row, 'as an image block', 'step 1, model request 1'));
    }
  });

  it('as base64 text: its first 40 characters', () => {
    expect(image(`data ${'A'.repeat(40)}`)).toEqual(want(row, 'as base64 text', 'step 1, model request 1'));
  });

  it('as other text, or dropped', () => {
    expect(image('A'.repeat(39))).toEqual(want(row, `as text: "${'A'.repeat(39)}"`, 'step 1, model request 1', 'as text: "…"'));
    expect(image('[image: not carried by the gateway]')).toEqual(want(row, 'as text: "[image: not carried by the gateway]"', 'step 1, model request 1', 'as text: "…"'));
    expect(image('', { length: 0 })).toEqual(want(row, 'dropped (empty result)', 'step 1, model request 1'));
  });

  it('no result', () => {
    expect(read.imageAsSeen(rec(), 'image', BASE64)).toEqual(want(row, 'no result reached the model', 'every model request'));
    expect(read.imageAsSeen(rec({ steps: [step({ failure: 'bad' })] }), 'image', BASE64)).toEqual(want(row, 'no result: the agent failed', "the step's end: bad"));
  });
});

// --- The roster changes --------------------------------------------------------------------------

describe('changeReached', () => {
  const row = 'a tool added mid-step';
  const shows = (t: ModelTurn): boolean => t.offered.some((o) => o.tool === 'added');
  const added = [offer('added')];

  it('the change was never made', () => {
    expect(read.changeReached(rec({ turns: [turn({ offered: added })] }), shows, 'toolsChanged', row)).toEqual(want(row, 'the change was never made', 'the scenario server'));
  });

  it('never: no request after the change shows it', () => {
    const r = rec({ marks: { toolsChanged: 100 }, turns: [turn({ t: 100, offered: added }), turn({ t: 101 }), turn({ t: 200, hasPrompt: false, offered: added }), turn({ t: 300 })] });
    expect(read.changeReached(r, shows, 'toolsChanged', row)).toEqual(want(row, 'never', '2 model requests after the change'));
  });

  it('the next request: the first after the change (not one at its moment)', () => {
    const r = rec({ marks: { toolsChanged: 100 }, turns: [turn({ t: 50 }), turn({ t: 100, offered: added }), turn({ t: 150, hasPrompt: false }), turn({ t: 101, offered: added })] });
    expect(read.changeReached(r, shows, 'toolsChanged', row)).toEqual(want(row, 'the next request', 'step 1, model request 3'));
  });

  it('request N after it, in the same step', () => {
    const r = rec({ marks: { toolsChanged: 100 }, turns: [turn({ t: 200 }), turn({ t: 300 }), turn({ t: 400, offered: added })] });
    expect(read.changeReached(r, shows, 'toolsChanged', row)).toEqual(want(row, 'request 3 after it', 'step 1, model request 3'));
  });

  it('the next step: the first request that shows it is in a later step', () => {
    const r = rec({ marks: { toolsChanged: 100 }, turns: [turn({ t: 50 }), turn({ t: 200 }), turn({ t: 300, step: 1, offered: added })] });
    expect(read.changeReached(r, shows, 'toolsChanged', row)).toEqual(want(row, 'the next step', 'step 2, model request 3'));
    const first = rec({ marks: { toolsChanged: 100 }, turns: [turn({ t: 300, step: 1, offered: added })] });
    expect(read.changeReached(first, shows, 'toolsChanged', row)).toEqual(want(row, 'the next request', 'step 2, model request 1'));
  });
});

describe('relistsOnChange', () => {
  const row = 're-lists on list_changed';
  const told = wire(1000, 4, 's2c', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' });

  it('not told: with a stream open, or none', () => {
    const none = [wire(5, 1, 's2c'), wire(6, 1, 'c2s'), http(10, 1, { method: 'GET', status: 200 }), notify(20, 1, 'notifications/tools/list_changed'), wire(30, 2, 's2c', { jsonrpc: '2.0', method: 'subscriptions/listen' })];
    expect(read.relistsOnChange(rec({ wire: none }))).toEqual(want(row, 'not told: it opened no stream to hear it', 'no list_changed on the wire'));
    expect(read.relistsOnChange(rec({ wire: [...none, wire(40, 3, 'c2s', undefined, { method: 'GET' })] }))).toEqual(want(row, 'not told (its stream was closed)', 'no list_changed on the wire'));
    expect(read.relistsOnChange(rec({ wire: [...none, request(40, 3, 9, 'subscriptions/listen')] }))).toEqual(want(row, 'not told (its stream was closed)', 'no list_changed on the wire'));
  });

  it('told: the listings after it and before the next step began', () => {
    const w = [told, request(1200, 5, 2, 'tools/list'), request(1500, 6, 3, 'tools/list'), request(2000, 7, 4, 'tools/list')];
    const steps = [step({ at: 0 }), step({ at: 1000 }), step({ at: 1500 }), step({ at: 1800 })];
    expect(read.relistsOnChange(rec({ wire: w, steps }))).toEqual(want(row, 'yes (1 listing after)', 'wire exchange 4 at 1.0 s', 'yes'));
    expect(read.relistsOnChange(rec({ wire: w, steps: steps.slice(0, 2) }))).toEqual(want(row, 'yes (3 listings after)', 'wire exchange 4 at 1.0 s', 'yes'));
    expect(read.relistsOnChange(rec({ wire: w, steps: [step({ at: 0 }), step({ at: 1100 })] }))).toEqual(want(row, 'no', 'wire exchange 4 at 1.0 s'));
  });

  it('told: the listings strictly after it', () => {
    const before = [wire(900, 3, 's2c'), request(500, 2, 1, 'tools/list'), told, request(1000, 5, 2, 'tools/list')];
    expect(read.relistsOnChange(rec({ wire: before }))).toEqual(want(row, 'no', 'wire exchange 4 at 1.0 s'));
    expect(read.relistsOnChange(rec({ wire: [...before, request(1001, 6, 3, 'tools/list')] }))).toEqual(want(row, 'yes (1 listing after)', 'wire exchange 4 at 1.0 s', 'yes'));
    expect(read.relistsOnChange(rec({ wire: [...before, request(1001, 6, 3, 'tools/list'), request(2000, 7, 4, 'tools/list')] })))
      .toEqual(want(row, 'yes (2 listings after)', 'wire exchange 4 at 1.0 s', 'yes'));
  });
});

describe('ttlHonoured', () => {
  const row = 'honours ttlMs';
  const list = (t: number, exchange: number, protocolVersion: string): WireEntry => request(t, exchange, exchange, 'tools/list', {}, { protocolVersion });

  it('not asked of a 2025 revision', () => {
    expect(read.ttlHonoured(rec(), 1000)).toEqual(want(row, 'not asked: a 2025 revision has no ttlMs', 'no tools/list'));
    expect(read.ttlHonoured(rec({ wire: [list(1500, 2, '2025-06-18'), request(100, 1, 1, 'initialize', {}, { protocolVersion: '2026-07-28' })] }), 1000))
      .toEqual(want(row, 'not asked: a 2025 revision has no ttlMs', 'wire exchange 2 at 1.5 s'));
  });

  it('counts the conversation requests whose last earlier listing is older than the ttl', () => {
    const wireOf = [list(0, 1, '2025-06-18'), list(2000, 2, '2026-07-28')];
    const turns = [0, 1000, 1001, 2000, 3000].map((t) => turn({ t }));
    expect(read.ttlHonoured(rec({ wire: wireOf, turns: [...turns, turn({ t: 9000, hasPrompt: false })] }), 1000))
      .toEqual(want(row, 'no: 2 of 5 model requests used a list older than 1000 ms', 'wire exchange 1 at 0.0 s'));
  });

  it('yes when every use is within the ttl', () => {
    const wireOf = [list(100, 1, '2026-07-28'), list(1100, 2, '2026-07-28')];
    expect(read.ttlHonoured(rec({ wire: wireOf, turns: [turn({ t: 50 }), turn({ t: 1100 }), turn({ t: 2100 })] }), 1000))
      .toEqual(want(row, 'yes: listed again before each stale use', 'wire exchange 1 at 0.1 s'));
  });
});

// --- Elicitation -------------------------------------------------------------------------------

describe('elicitationAnswer', () => {
  const form = 'form elicitation, headless';
  const ask = (t: number, id: number, mode?: string): WireEntry =>
    wire(t, 3, 's2c', { jsonrpc: '2.0', id, method: 'elicitation/create', params: mode === undefined ? { message: 'ok?' } : { mode, message: 'ok?' } });
  const respond = (t: number, id: number, body: Json): WireEntry => wire(t, 4, 'c2s', { jsonrpc: '2.0', id, ...body });

  it('a 2025 request answered: its action', () => {
    for (const action of ['accept', 'decline', 'cancel']) {
      const w = [request(50, 1, 3, 'elicitation/create'), call(100, 3, 0, 'confirm_form'), wire(140, 3, 's2c'), wire(150, 3, 's2c', { jsonrpc: '2.0', method: 'notifications/progress', params: {} }), ask(200, 0), wire(210, 4, 'c2s'), request(250, 5, 0, 'ping'), respond(260, 1, { result: { action: 'x' } }), respond(1300, 0, { result: { action } })];
      expect(read.elicitationAnswer(rec({ wire: w }), 'confirm_form', 'form')).toEqual(want(form, action, 'wire exchange 4 at 1.3 s'));
    }
    const url = [ask(200, 5, 'form'), ask(300, 6, 'url'), respond(2000, 6, { result: { action: 'decline' } }), respond(2100, 5, { result: { action: 'accept' } })];
    expect(read.elicitationAnswer(rec({ wire: url }), 'confirm_url', 'url')).toEqual(want('url elicitation, headless', 'decline', 'wire exchange 4 at 2.0 s'));
    expect(read.elicitationAnswer(rec({ wire: url }), 'confirm_form', 'form')).toEqual(want(form, 'accept', 'wire exchange 4 at 2.1 s'));
    expect(read.elicitationAnswer(rec({ wire: [ask(200, 5), respond(2100, 5, { result: {} })] }), 'confirm_form', 'form'))
      .toEqual(want(form, 'an answer without action', 'wire exchange 4 at 2.1 s'));
    expect(read.elicitationAnswer(rec({ wire: [ask(200, 5), respond(2200, 5, {})] }), 'confirm_form', 'form'))
      .toEqual(want(form, 'an answer without action', 'wire exchange 4 at 2.2 s'));
    // A request without an id pairs with a client entry without one.
    const bare = wire(200, 3, 's2c', { jsonrpc: '2.0', method: 'elicitation/create', params: {} });
    expect(read.elicitationAnswer(rec({ wire: [bare, wire(2300, 4, 'c2s')] }), 'confirm_form', 'form'))
      .toEqual(want(form, 'an answer without action', 'wire exchange 4 at 2.3 s'));
  });

  it('a 2025 request refused with an error', () => {
    const w = [ask(200, 5), respond(700, 5, { error: { code: -32601, message: 'Method not found' } })];
    expect(read.elicitationAnswer(rec({ wire: w }), 'confirm_form', 'form')).toEqual(want(form, 'refused: error -32601 "Method not found"', 'wire exchange 4 at 0.7 s', 'refused: error -32601 "…"'));
  });

  it('asked and never answered', () => {
    const w = [ask(200, 5), wire(300, 3, 's2c', { jsonrpc: '2.0', id: 5, result: {} }), call(400, 4, 9, 'confirm_form', { inputResponses: { ask: { action: 'accept' } } })];
    expect(read.elicitationAnswer(rec({ wire: w }), 'confirm_form', 'form')).toEqual(want(form, 'asked; never answered', 'wire exchange 3 at 0.2 s'));
  });

  it('a 2026-07-28 retry of the call with inputResponses', () => {
    const w = (responses: Json): WireEntry[] => [call(100, 1, 1, 'confirm_form'), call(150, 2, 2, 'other', { inputResponses: { ask: { action: 'cancel' } } }), call(1800, 3, 3, 'confirm_form', { inputResponses: responses })];
    expect(read.elicitationAnswer(rec({ wire: w({ ask: { action: 'decline' } }) }), 'confirm_form', 'form')).toEqual(want(form, 'decline', 'wire exchange 3 at 1.8 s'));
    expect(read.elicitationAnswer(rec({ wire: w({ ask: {} }) }), 'confirm_form', 'form')).toEqual(want(form, 'an answer without action', 'wire exchange 3 at 1.8 s'));
    expect(read.elicitationAnswer(rec({ wire: w({}) }), 'confirm_form', 'form')).toEqual(want(form, 'an answer without action', 'wire exchange 3 at 1.8 s'));
  });

  it('not asked: the call went through, with what the model got', () => {
    const w = [call(900, 2, 1, 'confirm_form'), call(1900, 3, 2, 'confirm_form')];
    expect(read.elicitationAnswer(rec({ wire: w }), 'confirm_form', 'form')).toEqual(want(form, 'not asked', 'wire exchange 2 at 0.9 s'));
    const r = rec({ wire: w, turns: [turn({ results: [seen('confirm_form', 'done (MX-ASKED)')] })] });
    expect(read.elicitationAnswer(r, 'confirm_form', 'form')).toEqual(want(form, 'not asked: the model got "done (MX-ASKED)"', 'wire exchange 2 at 0.9 s', 'not asked: the model got "…"'));
  });

  it('the call never reached the server', () => {
    expect(read.elicitationAnswer(rec({ wire: [call(10, 1, 1, 'other')] }), 'confirm_url', 'url')).toEqual(want('url elicitation, headless', 'the call never reached the server', 'no tools/call on the wire'));
  });
});

// --- Slow calls --------------------------------------------------------------------------------

describe('waitFor', () => {
  const slow = call(1000, 2, 7, 'slow');
  const cancel = (t: number, requestId: number): WireEntry => notify(t, 9, 'notifications/cancelled', { requestId });
  const closed = (t: number, exchange = 2): WireEntry => http(t, exchange, { event: 'client-closed' });

  it('undefined when the call never came', () => {
    expect(read.waitFor(rec({ wire: [call(0, 1, 1, 'other')] }), 'slow')).toBeUndefined();
  });

  it('waited out the cap when nothing ended it', () => {
    const w = [slow, cancel(2000, 8), closed(3000, 3), http(4000, 2, { event: 'ended' }), wire(4500, 2, 'c2s', { jsonrpc: '2.0', method: 'ping' }, { event: 'client-closed' }), call(5000, 4, 9, 'slow'), cancel(6000, 9)];
    expect(read.waitFor(rec({ wire: w, waitCapS: 90 }), 'slow')).toEqual({ seconds: 90, how: 'waited out the cap', call: slow });
  });

  it('cancelled: a notifications/cancelled for its id at or after it', () => {
    expect(read.waitFor(rec({ wire: [cancel(500, 7), slow, cancel(13500, 7)] }), 'slow')).toEqual({ seconds: 12.5, how: 'cancelled', call: slow });
    expect(read.waitFor(rec({ wire: [slow, cancel(1000, 7)] }), 'slow')).toEqual({ seconds: 0, how: 'cancelled', call: slow });
  });

  it('closed the request: its exchange closed by the client', () => {
    expect(read.waitFor(rec({ wire: [slow, closed(31000)] }), 'slow')).toEqual({ seconds: 30, how: 'closed the request', call: slow });
  });

  it('the earlier of the two', () => {
    expect(read.waitFor(rec({ wire: [slow, cancel(5000, 7), closed(3000)] }), 'slow')).toEqual({ seconds: 2, how: 'closed the request', call: slow });
    expect(read.waitFor(rec({ wire: [slow, closed(6000), cancel(4000, 7)] }), 'slow')).toEqual({ seconds: 3, how: 'cancelled', call: slow });
  });
});

describe('silentWait, progressExtends, cancelsOnGivingUp', () => {
  const slow = (t = 1000): WireEntry => call(t, 2, 7, 'slow');
  const kept = (token?: unknown): WireEntry => call(2000, 3, 8, 'slow_progress', token === undefined ? { _meta: {} } : { _meta: { progressToken: token } });
  const cancel = (t: number, requestId = 7): WireEntry => notify(t, 9, 'notifications/cancelled', { requestId });
  const closed = (t: number, exchange = 2): WireEntry => http(t, exchange, { event: 'client-closed' });

  it('silentWait: never reached, capped, cancelled, closed; its key rounded to 5 s, 5 s at the least', () => {
    const row = 'waits for a silent call';
    expect(read.silentWait(rec(), 'slow')).toEqual(want(row, 'the call never reached the server', 'no tools/call on the wire'));
    expect(read.silentWait(rec({ wire: [slow()] }), 'slow')).toEqual(want(row, 'more than 60 s', 'wire exchange 2 at 1.0 s'));
    expect(read.silentWait(rec({ wire: [slow(), cancel(13340)] }), 'slow')).toEqual(want(row, '12.3 s, then cancelled', 'wire exchange 2 at 1.0 s', '~10 s, then cancelled'));
    expect(read.silentWait(rec({ wire: [slow(), cancel(13500)] }), 'slow')).toEqual(want(row, '12.5 s, then cancelled', 'wire exchange 2 at 1.0 s', '~15 s, then cancelled'));
    expect(read.silentWait(rec({ wire: [slow(), closed(38600)] }), 'slow')).toEqual(want(row, '37.6 s, then closed the request', 'wire exchange 2 at 1.0 s', '~40 s, then closed the request'));
    expect(read.silentWait(rec({ wire: [slow(), closed(1400)] }), 'slow')).toEqual(want(row, '0.4 s, then closed the request', 'wire exchange 2 at 1.0 s', '~5 s, then closed the request'));
    expect(read.silentWait(rec({ wire: [slow(), closed(8600)] }), 'slow')).toEqual(want(row, '7.6 s, then closed the request', 'wire exchange 2 at 1.0 s', '~10 s, then closed the request'));
  });

  it('progressExtends: a call missing, because the agent failed or not', () => {
    const row = 'progress extends the wait';
    expect(read.progressExtends(rec({ wire: [kept('p')] }), 'slow', 'slow_progress')).toEqual(want(row, 'not seen: a call never reached the server', 'no tools/call on the wire'));
    expect(read.progressExtends(rec({ wire: [slow()] }), 'slow', 'slow_progress')).toEqual(want(row, 'not seen: a call never reached the server', 'no tools/call on the wire'));
    expect(read.progressExtends(rec({ wire: [slow()], steps: [step(), step({ failure: 'timed out' }), step({ failure: 'again' })] }), 'slow', 'slow_progress'))
      .toEqual(want(row, 'not seen: the agent failed first', "the step's end: timed out"));
  });

  it('progressExtends: no token', () => {
    const row = 'progress extends the wait';
    expect(read.progressExtends(rec({ wire: [slow(), kept()] }), 'slow', 'slow_progress')).toEqual(want(row, 'no: it sends no progress token', 'wire exchange 3 at 2.0 s'));
    expect(read.progressExtends(rec({ wire: [slow(), call(2000, 3, 8, 'slow_progress')] }), 'slow', 'slow_progress')).toEqual(want(row, 'no: it sends no progress token', 'wire exchange 3 at 2.0 s'));
  });

  it('progressExtends: both capped, the one with progress capped, the one with progress ended', () => {
    const row = 'progress extends the wait';
    expect(read.progressExtends(rec({ wire: [slow(), kept(0)] }), 'slow', 'slow_progress')).toEqual(want(row, 'not seen: both waited more than 60 s', 'wire exchange 3 at 2.0 s'));
    expect(read.progressExtends(rec({ wire: [slow(), kept('p'), cancel(13340)] }), 'slow', 'slow_progress'))
      .toEqual(want(row, 'yes: more than 60 s with progress, 12.3 s without', 'wire exchange 3 at 2.0 s', 'yes: more than 60 s with progress, ~10 s without'));
    expect(read.progressExtends(rec({ wire: [slow(), kept('p'), closed(32000, 3)] }), 'slow', 'slow_progress'))
      .toEqual(want(row, 'no: 30.0 s with progress', 'wire exchange 3 at 2.0 s', 'no: ~30 s with progress'));
    expect(read.progressExtends(rec({ wire: [slow(), kept('p'), closed(11000), cancel(4400, 8)] }), 'slow', 'slow_progress'))
      .toEqual(want(row, 'no: 2.4 s with progress', 'wire exchange 3 at 2.0 s', 'no: ~5 s with progress'));
  });

  it('cancelsOnGivingUp: closing a 2026-07-28 request is its cancel; closing a 2025 one is not', () => {
    const row = 'cancels when it gives up';
    const modern = call(1000, 2, 7, 'slow', {});
    const w = (protocolVersion: string): WireEntry[] => [{ ...modern, protocolVersion }, closed(9000)];
    expect(read.cancelsOnGivingUp(rec({ wire: w('2026-07-28') }), 'slow')).toEqual(want(row, 'yes: it closed the request (2026-07-28 cancels so)', 'wire exchange 2 at 1.0 s'));
    expect(read.cancelsOnGivingUp(rec({ wire: w('2025-11-25') }), 'slow')).toEqual(want(row, 'no: it closed the request without notifications/cancelled', 'wire exchange 2 at 1.0 s'));
    expect(read.cancelsOnGivingUp(rec({ wire: [{ ...modern, protocolVersion: '2026-07-28' }, cancel(9000)] }), 'slow')).toEqual(want(row, 'yes', 'wire exchange 2 at 1.0 s'));
  });

  it('cancelsOnGivingUp: never reached, capped, cancelled, closed', () => {
    const row = 'cancels when it gives up';
    expect(read.cancelsOnGivingUp(rec(), 'slow')).toEqual(want(row, 'the call never reached the server', 'no tools/call on the wire'));
    expect(read.cancelsOnGivingUp(rec({ wire: [slow()], waitCapS: 45 }), 'slow')).toEqual(want(row, 'not seen: it waited more than 45 s', 'wire exchange 2 at 1.0 s'));
    expect(read.cancelsOnGivingUp(rec({ wire: [slow(), cancel(9000)] }), 'slow')).toEqual(want(row, 'yes', 'wire exchange 2 at 1.0 s'));
    expect(read.cancelsOnGivingUp(rec({ wire: [slow(), closed(9000)] }), 'slow')).toEqual(want(row, 'no: it closed the request without notifications/cancelled', 'wire exchange 2 at 1.0 s'));
  });
});

// --- Repeats, failures, reconnection -----------------------------------------------------------

describe('repeatGuard', () => {
  const row = 'identical calls, answered';
  const calls = (n: number): WireEntry[] => [call(0, 99, 99, 'other'), ...Array.from({ length: n }, (_, i) => call(1000 * (i + 1), i + 1, i + 1, 'lookup'))];
  const asking = (n: number): ModelTurn[] => Array.from({ length: n }, () => turn({ reply: { calls: ['lookup'] } }));

  it('no guard when the calls reached the limit, whatever the step says', () => {
    expect(read.repeatGuard(rec({ wire: calls(4), steps: [step({ stoppedItself: 'loop' })] }), 'lookup', 4, row)).toEqual(want(row, 'no guard within 4 calls', '4 tools/call on the wire'));
    expect(read.repeatGuard(rec({ wire: calls(5) }), 'lookup', 4, row)).toEqual(want(row, 'no guard within 4 calls', '5 tools/call on the wire'));
  });

  it('stopped itself: by its loop guard, which outranks a failure, or by failing', () => {
    expect(read.repeatGuard(rec({ wire: calls(3), turns: asking(5), steps: [step({ stoppedItself: 'repeated call', failure: 'x' })] }), 'lookup', 4, row))
      .toEqual(want(row, 'stopped itself after 3 calls (its loop guard: "repeated call")', '3 tools/call on the wire', 'stopped itself after 3 calls'));
    expect(read.repeatGuard(rec({ wire: calls(3), turns: asking(5), steps: [step({ failure: 'too many errors' })] }), 'lookup', 4, row))
      .toEqual(want(row, 'stopped itself after 3 calls (it failed: "too many errors")', '3 tools/call on the wire', 'stopped itself after 3 calls'));
  });

  it('kept calls from the server: asked more than reached (a later step\'s failure is not the first\'s)', () => {
    expect(read.repeatGuard(rec({ wire: calls(3), turns: asking(5), steps: [step(), step({ failure: 'later' })] }), 'lookup', 4, row))
      .toEqual(want(row, 'kept 2 of 5 asked calls from the server', '3 tools/call on the wire'));
  });

  it('the model stopped asking: asked no more than reached', () => {
    expect(read.repeatGuard(rec({ wire: calls(3), turns: asking(3) }), 'lookup', 4, row)).toEqual(want(row, 'the model stopped asking after 3', '3 tools/call on the wire'));
    expect(read.repeatGuard(rec(), 'lookup', 4, row)).toEqual(want(row, 'the model stopped asking after 0', '0 tools/call on the wire'));
  });
});

describe('resends', () => {
  const row = 're-sends a failed call';
  const asking = (n: number): ModelTurn[] => Array.from({ length: n }, () => turn({ reply: { calls: ['lookup'] } }));

  it('the call never reached the server', () => {
    expect(read.resends(rec({ wire: [call(0, 1, 1, 'other')], turns: asking(1) }), 'lookup', row)).toEqual(want(row, 'the call never reached the server', 'no tools/call on the wire'));
  });

  it('yes: more sends than asks, the second send as evidence', () => {
    const w = [call(1000, 1, 1, 'lookup'), call(2000, 2, 2, 'lookup'), call(3000, 3, 3, 'lookup')];
    expect(read.resends(rec({ wire: w, turns: asking(2) }), 'lookup', row)).toEqual(want(row, 'yes: 3 sends for 2 asked', 'wire exchange 2 at 2.0 s'));
    expect(read.resends(rec({ wire: w.slice(0, 1) }), 'lookup', row)).toEqual(want(row, 'yes: 1 sends for 0 asked', 'wire exchange 1 at 1.0 s'));
  });

  it('no: as many sends as asks, with what reached the model', () => {
    const w = [call(1000, 1, 1, 'lookup'), call(2000, 2, 2, 'lookup')];
    expect(read.resends(rec({ wire: w, turns: asking(2) }), 'lookup', row)).toEqual(want(row, 'no: no result reached the model', 'wire exchange 1 at 1.0 s'));
    expect(read.resends(rec({ wire: w, turns: asking(3), steps: [step(), step({ failure: 'died' })] }), 'lookup', row)).toEqual(want(row, 'no: the agent failed', "the step's end: died"));
    const got = [...asking(2), turn({ results: [seen('lookup', 'the catalog is down (MX-DOWN)')] })];
    expect(read.resends(rec({ wire: w, turns: got }), 'lookup', row))
      .toEqual(want(row, 'no: the model got "the catalog is down (MX-DOWN)"', 'wire exchange 1 at 1.0 s', 'no: the model got "…"'));
  });
});

describe('reconnects', () => {
  const row = 'reconnects after the server restarts';
  const init = (t: number, exchange: number): WireEntry => request(t, exchange, 0, 'initialize', { protocolVersion: '2025-06-18' });
  const lookup = (t: number, exchange: number, id: number): WireEntry => call(t, exchange, id, 'lookup');
  const ok = (t: number, exchange: number, id: number): WireEntry => answer(t, exchange, id, { content: [{ type: 'text', text: 'MX-1' }] });
  const before = [init(100, 1), lookup(500, 2, 1), ok(600, 2, 1)];
  const marks = { sessionsForgotten: 1000 };
  const results = (...heads: string[]): ModelTurn[] => heads.map((h, i) => turn({ hasPrompt: i === 0, results: [seen('lookup', h), seen('other', 'x')] }));

  it('the server never restarted', () => {
    expect(read.reconnects(rec({ wire: before }), 'lookup', 'MX-1')).toEqual(want(row, 'the server never restarted', 'the scenario server'));
  });

  it('not asked of a 2026-07-28 client', () => {
    expect(read.reconnects(rec({ marks, wire: [lookup(500, 2, 1)] }), 'lookup', 'MX-1')).toEqual(want(row, 'not asked: a 2026-07-28 client has no session', 'no initialize on the wire'));
  });

  it('no call after the restart, with the 404 if one came after it', () => {
    const w = [...before, lookup(1000, 3, 2), http(1000, 3, { status: 404, event: 'response' })];
    expect(read.reconnects(rec({ marks, wire: w }), 'lookup', 'MX-1')).toEqual(want(row, 'no: no call after it', 'the wire after the restart'));
    expect(read.reconnects(rec({ marks, wire: [...w, wire(1100, 9, 's2c', { jsonrpc: '2.0', method: 'ping' }, { status: 404 }), http(1200, 4, { status: 200 }), http(1300, 4, { status: 404, event: 'response' })] }), 'lookup', 'MX-1'))
      .toEqual(want(row, 'no: no call after it (404 seen)', 'wire exchange 4 at 1.3 s'));
  });

  it('yes: a new session after the restart and a later call answered with the proof', () => {
    const w = [...before, init(1000, 3), http(1100, 4, { status: 404 }), init(1200, 5), init(1300, 6), lookup(1350, 8, 3), refusal(1360, 8, 3, -32600, 'no session'), lookup(1400, 7, 2), ok(1500, 7, 2)];
    expect(read.reconnects(rec({ marks, wire: w }), 'lookup', 'MX-1')).toEqual(want(row, 'yes: a new session, the call went through', 'wire exchange 5 at 1.2 s'));
  });

  it('no: the call went through without a new session, or a new session and no answer with the proof', () => {
    const through = [...before, init(1000, 3), lookup(1400, 7, 2), ok(1500, 7, 2)];
    expect(read.reconnects(rec({ marks, wire: through, turns: results('MX-1') }), 'lookup', 'MX-1')).toEqual(want(row, 'no: no result reached the model', 'wire exchange 7 at 1.4 s'));
    const refused = [...before, init(1200, 5), lookup(1400, 7, 2), refusal(1500, 7, 2, -32600, 'MX-1 session gone'), answer(1600, 8, 2, { text: 'MX-1' })];
    expect(read.reconnects(rec({ marks, wire: refused }), 'lookup', 'MX-1')).toEqual(want(row, 'no: no result reached the model', 'wire exchange 7 at 1.4 s'));
  });

  it('no: the model got an error text, with the 404 as evidence when there was one', () => {
    const w = [...before, lookup(1400, 7, 2), answer(1500, 7, 2, { content: 'Session not found' })];
    const turns = results('MX-1', 'retrying', 'Session not found');
    expect(read.reconnects(rec({ marks, wire: w, turns }), 'lookup', 'MX-1')).toEqual(want(row, 'no: the model got "Session not found"', 'wire exchange 7 at 1.4 s', 'no: the model got "…"'));
    expect(read.reconnects(rec({ marks, wire: [...w, http(1450, 7, { status: 404 })], turns }), 'lookup', 'MX-1'))
      .toEqual(want(row, 'no: the model got "Session not found"', 'wire exchange 7 at 1.4 s', 'no: the model got "…"'));
    expect(read.reconnects(rec({ marks, wire: [...w, http(1470, 8, { status: 404 })], turns, steps: [step({ failure: 'x' })] }), 'lookup', 'MX-1'))
      .toEqual(want(row, 'no: the model got "Session not found"', 'wire exchange 8 at 1.5 s', 'no: the model got "…"'));
  });

  it('no: the agent failed, or no result reached the model', () => {
    const w = [...before, lookup(1400, 7, 2)];
    expect(read.reconnects(rec({ marks, wire: w, steps: [step({ failure: 'session lost' })] }), 'lookup', 'MX-1')).toEqual(want(row, 'no: the agent failed', "the step's end: session lost"));
    expect(read.reconnects(rec({ marks, wire: w, turns: results('MX-1') }), 'lookup', 'MX-1')).toEqual(want(row, 'no: no result reached the model', 'wire exchange 7 at 1.4 s'));
    expect(read.reconnects(rec({ marks, wire: w, turns: results('MX-1'), steps: [step({ failure: 'gave up' })] }), 'lookup', 'MX-1')).toEqual(want(row, 'no: the agent failed', "the step's end: gave up"));
  });
});

describe('cell', () => {
  it('keys a value without its quoted text, an escaped quote inside it included', async () => {
    const { cell } = await import('../../src/matrix/recording.ts');
    expect(cell('r', 'no: the model got "say \\"hi\\" at 12:03" then', 'e')).toEqual(want('r', 'no: the model got "say \\"hi\\" at 12:03" then', 'e', 'no: the model got "…" then'));
    expect(cell('r', 'a "x" and "y"', 'e').key).toBe('a "…" and "…"');
    expect(cell('r', 'plain', 'e', 'given').key).toBe('given');
  });
});

describe('waitFor, a cancel and a close at one moment', () => {
  it('reads as the cancel', () => {
    const slow = call(1000, 2, 7, 'slow');
    const w = [slow, http(4000, 2, { event: 'client-closed' }), notify(4000, 9, 'notifications/cancelled', { requestId: 7 })];
    expect(read.waitFor(rec({ wire: w }), 'slow')).toEqual({ seconds: 3, how: 'cancelled', call: slow });
  });
});
