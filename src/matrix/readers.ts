// The readers that turn a scenario's recording into the matrix's cells. Each reads only what
// was recorded (the wire between the agent's client and the scenario's server, the requests the
// model got, how each step ended) and says where it read it; a reader that finds nothing to read
// says that, never a guess. Under the mutation battery, with a named mutation for each family.
import type { ModelTurn, SeenResult } from './model.ts';
import { cell } from './recording.ts';
import type { Cell, Recording } from './recording.ts';
import type { WireEntry } from './wire.ts';

type Message = Readonly<Record<string, unknown>>;
const params = (e: WireEntry): Message => (e.message?.params ?? {}) as Message;

/** The client's messages of a method, in order. */
export function sent(rec: Recording, method: string): WireEntry[] {
  return rec.wire.filter((e) => e.dir === 'c2s' && e.message?.method === method);
}

/** The tools/call requests for one tool that reached the server, in order. */
export function callsOf(rec: Recording, tool: string): WireEntry[] {
  return sent(rec, 'tools/call').filter((e) => params(e).name === tool);
}

/** The server's answer to a request: a result or error with its id, on the same exchange. */
export function answerTo(rec: Recording, request: WireEntry): WireEntry | undefined {
  return rec.wire.find((e) => e.dir === 's2c' && e.exchange === request.exchange && e.message?.id === request.message?.id
    && (e.message?.result !== undefined || e.message?.error !== undefined));
}

export const where = (e: WireEntry): string => `wire exchange ${e.exchange} at ${(e.t / 1000).toFixed(1)} s`;
const turnWhere = (turn: ModelTurn, index: number): string => `step ${turn.step + 1}, model request ${index + 1}`;

/** Requests that carried their step's prompt: the model turns of the conversation. */
export function conversation(rec: Recording): ModelTurn[] {
  return rec.turns.filter((t) => t.hasPrompt);
}

/** The first result of a tool the model got, with the request it came in. */
export function firstResult(rec: Recording, tool: string): { result: SeenResult; where: string } | undefined {
  const turns = conversation(rec);
  for (const [i, turn] of turns.entries()) {
    const result = turn.results.find((r) => r.tool === tool);
    if (result !== undefined) return { result, where: turnWhere(turn, i) };
  }
  return undefined;
}

/** Calls of a tool the model asked for, in every conversation turn's reply. */
export function askedCount(rec: Recording, tool: string): number {
  return conversation(rec).reduce((n, turn) => n + ('calls' in turn.reply ? turn.reply.calls.filter((c) => c === tool).length : 0), 0);
}

/** A step that ended in the agent's own failure: the first, for the evidence. */
const failed = (rec: Recording): string | undefined => rec.steps.find((s) => s.failure !== undefined)?.failure;

/** The cell for a result that never reached the model: whether the agent failed on the way. */
function noResult(rec: Recording, row: string): Cell {
  const failure = failed(rec);
  return failure === undefined ? cell(row, 'no result reached the model', 'every model request')
    : cell(row, 'no result: the agent failed', `the step's end: ${failure}`);
}

const quote = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

// --- Revisions -----------------------------------------------------------------------------

/** The revision the client spoke: its initialize's, or 2026-07-28 when it went on without one. */
export function revisionSpoken(rec: Recording): Cell {
  const row = 'revision spoken';
  const init = sent(rec, 'initialize')[0];
  const probe = sent(rec, 'server/discover')[0];
  if (init !== undefined) {
    const version = String(params(init).protocolVersion);
    const after = probe !== undefined && probe.t <= init.t ? ' (after a 2026-07-28 probe)' : '';
    return cell(row, `${version}${after}`, where(init));
  }
  const modern = rec.wire.find((e) => e.dir === 'c2s' && e.protocolVersion !== undefined && e.message?.method !== undefined);
  if (modern !== undefined) return cell(row, modern.protocolVersion!, where(modern));
  return cell(row, 'none: it sent no request', 'no client message on the wire');
}

/** Whether a scenario's one call went through with a server that speaks one era only. */
export function callWorked(rec: Recording, tool: string, proof: string): Cell {
  const row = 'works with a 2026-07-28-only server';
  const seen = firstResult(rec, tool);
  if (seen !== undefined && !seen.result.isError && seen.result.head.includes(proof)) return cell(row, 'yes', seen.where);
  const offered = conversation(rec).some((t) => t.offered.length > 0);
  if (!offered) {
    const refused = rec.wire.find((e) => e.dir === 's2c' && e.message?.error !== undefined);
    const error = refused?.message?.error as Message | undefined;
    const request = refused === undefined ? undefined : rec.wire.find((e) => e.dir === 'c2s' && e.exchange === refused.exchange && e.message?.id === refused.message?.id);
    if (refused !== undefined) return cell(row, `no: its ${String(request?.message?.method ?? 'request')} was refused (${String(error?.code)}) and it went no further`, where(refused));
    return cell(row, "no: its model was offered none of the server's tools", failed(rec) === undefined ? 'every model request' : `the step's end: ${failed(rec)!}`);
  }
  return cell(row, `no: the model got ${seen === undefined ? 'no result' : quote(seen.result.head)}`, seen?.where ?? 'every model request');
}

// --- Capabilities and listings -------------------------------------------------------------

/** What elicitation the client declared: in initialize, or in a 2026-07-28 request's _meta. */
export function elicitationDeclared(rec: Recording): Cell {
  const row = 'declares elicitation';
  const init = sent(rec, 'initialize')[0];
  const modern = rec.wire.find((e) => e.dir === 'c2s' && (params(e)._meta as Message | undefined)?.['io.modelcontextprotocol/clientCapabilities'] !== undefined);
  const from = init ?? modern;
  if (from === undefined) return cell(row, 'unknown: no capabilities on the wire', 'no initialize and no request _meta');
  const caps = (init !== undefined ? params(init).capabilities : (params(from)._meta as Message)['io.modelcontextprotocol/clientCapabilities']) as Message | undefined;
  const elicitation = caps?.elicitation as Message | undefined;
  if (elicitation === undefined) return cell(row, 'no', where(from));
  const modes = [elicitation.url !== undefined ? 'url' : undefined].filter(Boolean);
  return cell(row, modes.length === 0 ? 'form' : 'form and url', where(from));
}

/** How often the client listed the tools, against the model requests it served. */
export function listings(rec: Recording, row: string): Cell {
  const lists = sent(rec, 'tools/list');
  const turns = conversation(rec).length;
  return cell(row, `${lists.length} for ${turns} model request${turns === 1 ? '' : 's'}`, lists[0] === undefined ? 'no tools/list on the wire' : `first at ${where(lists[0])}`);
}

// --- Names and schemas ---------------------------------------------------------------------

/** A canonical JSON text: keys sorted, so two schemas equal in content compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Message)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Keywords and property names that differ between two schemas, as `-word` and `+word`. */
export function schemaChanges(written: unknown, offered: unknown): string[] {
  const words = (value: unknown, into = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const one of value) words(one, into);
    else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        into.add(k);
        words(v, into);
      }
    }
    return into;
  };
  const a = words(written);
  const b = words(offered);
  return [...[...a].filter((w) => !b.has(w)).map((w) => `-${w}`), ...[...b].filter((w) => !a.has(w)).map((w) => `+${w}`)];
}

/** How a tool reached the model: its name and schema as the server wrote them, changed, or left out. */
export function toolAsOffered(rec: Recording, tool: string, schema: Readonly<Record<string, unknown>>, row: string): Cell {
  const turns = conversation(rec);
  const index = turns.findIndex((t) => t.offered.length > 0);
  if (index < 0) return cell(row, 'no tools offered at all', 'every model request');
  const offered = turns[index]!.offered.find((o) => o.tool === tool);
  const at = turnWhere(turns[index]!, index);
  if (offered === undefined) return cell(row, 'left out', at);
  const suffix = offered.as === tool || offered.as.endsWith(`_${tool}`) || offered.as.endsWith(`.${tool}`) || offered.as.endsWith(`/${tool}`);
  const name = suffix ? '' : `renamed ${offered.as}`;
  const changes = schemaChanges(schema, offered.inputSchema);
  // Keys are sorted before the comparison, so what differs with the same keywords is a value (a type, a bound).
  const schemaText = canonical(offered.inputSchema) === canonical(schema) ? '' : changes.length === 0 ? 'schema values changed' : `schema ${changes.join(' ')}`;
  const parts = [name, schemaText].filter((p) => p !== '');
  return cell(row, parts.length === 0 ? 'as written' : parts.join('; '), at);
}

/** Whether the scenario's tools were offered in the first request, or only later (behind a search tool). */
export function offeredAtOnce(rec: Recording, total: number): Cell {
  const row = 'tools offered at once';
  const turns = conversation(rec);
  if (turns.length === 0) return cell(row, 'no model request', 'the model gateway');
  const first = turns[0]!;
  if (first.offered.length >= total) return cell(row, 'yes', turnWhere(first, 0));
  // Counted from the second request: the first did not offer them all.
  const later = turns.slice(1).findIndex((t) => t.offered.length >= total);
  const own = first.names.filter((n) => /search|find|discover/i.test(n));
  const behind = own.length === 0 ? '' : ` (first request offered ${own.join(', ')})`;
  if (later < 0) return cell(row, `no: ${first.offered.length} of ${total} ever offered${behind}`, turnWhere(first, 0));
  return cell(row, `no: all from request ${later + 2}${behind}`, turnWhere(turns[later + 1]!, later + 1));
}

/** A model turn with several calls: sent to the server at once, or each after the one before answered. */
export function parallelCalls(rec: Recording, tool: string, expected: number): Cell {
  const row = 'three calls in one model turn';
  const calls = callsOf(rec, tool).slice(0, expected);
  if (calls.length < expected) return cell(row, `made ${calls.length} of ${expected}`, calls[0] === undefined ? 'no tools/call on the wire' : where(calls[0]));
  const answers = calls.map((c) => answerTo(rec, c));
  const firstAnswer = Math.min(...answers.map((a) => a?.t ?? Infinity));
  if (calls.every((c) => c.t < firstAnswer)) return cell(row, 'sent at once', where(calls[0]!));
  const serial = calls.every((c, i) => i === 0 || (answers[i - 1] !== undefined && c.t >= answers[i - 1]!.t));
  return cell(row, serial ? 'one after another' : 'partly at once', where(calls[0]!));
}

/** Resources or prompts: listed on the wire, and offered to the model through tools of the agent's own. */
export function listedAndOffered(rec: Recording, kind: 'resources' | 'prompts'): Cell {
  const row = kind;
  const lists = sent(rec, `${kind}/list`);
  const reads = sent(rec, kind === 'resources' ? 'resources/read' : 'prompts/get');
  const word = kind === 'resources' ? /resource/i : /prompt/i;
  const tools = [...new Set(conversation(rec).flatMap((t) => t.names.filter((n) => word.test(n))))];
  const listed = lists.length > 0 ? 'listed' : 'not listed';
  const offered = tools.length > 0 ? `; the model gets ${tools.join(', ')}` : '; not offered to the model';
  const read = reads.length > 0 ? `; ${reads.length} read` : '';
  return cell(row, `${listed}${offered}${read}`, lists[0] === undefined ? 'no list request on the wire' : where(lists[0]));
}

// --- Results -------------------------------------------------------------------------------

/** What the model got for a result: the text the server wrote (found by its proof), marked as an error or not. */
export function resultAsSeen(rec: Recording, tool: string, proof: string, row: string): Cell {
  const seen = firstResult(rec, tool);
  if (seen === undefined) return noResult(rec, row);
  const { result } = seen;
  const flag = result.isError ? ', marked as an error' : ', not marked as an error';
  if (result.head.includes(proof) || result.tail.includes(proof)) return cell(row, `the server's text${flag}`, seen.where);
  return cell(row, `other text${flag}: ${quote(result.head)}`, seen.where);
}

/** A result with structured content: which of its text and its JSON reached the model. */
export function structuredAsSeen(rec: Recording, tool: string, textProof: string | undefined, dataProof: string, row: string): Cell {
  const seen = firstResult(rec, tool);
  if (seen === undefined) return noResult(rec, row);
  const has = (proof: string): boolean => seen.result.head.includes(proof) || seen.result.tail.includes(proof);
  const text = textProof !== undefined && has(textProof);
  const data = has(dataProof);
  const value = text && data ? 'text and structured JSON' : text ? 'text only' : data ? 'structured JSON' : seen.result.length === 0 ? 'nothing (empty)' : `other: ${quote(seen.result.head)}`;
  return cell(row, value, seen.where);
}

/** A large result of `chars` characters: whole, cut (at its end or in its middle), or replaced, read from its markers and length. */
export function sizeAsSeen(rec: Recording, tool: string, start: string, end: string, chars: number, row: string): Cell {
  const seen = firstResult(rec, tool);
  if (seen === undefined) return noResult(rec, row);
  const { result } = seen;
  const kb = Math.round(result.length / 1024);
  const begins = result.head.includes(start);
  const ends = result.tail.includes(end);
  if (begins && ends) return cell(row, result.length >= chars ? `whole (${kb} KB)` : `cut in the middle to ${kb} KB`, seen.where);
  if (begins) return cell(row, `cut to ${kb} KB`, seen.where);
  return cell(row, `replaced${result.isError ? ' by an error' : ''}: ${quote(result.head)}`, seen.where);
}

/** An image result: passed as an image (the gateway's placeholder says so), as its base64 text, or lost. */
export function imageAsSeen(rec: Recording, tool: string, base64: string): Cell {
  const row = 'image result';
  const seen = firstResult(rec, tool);
  if (seen === undefined) return noResult(rec, row);
  const text = seen.result.head;
  // The model gateway passes text only and puts its own note where an image block was
  // (src/gateway/model/messages.ts, responses.ts): an agent that sent the image block is seen by that note.
  if (text.includes('not carried by the model gateway')) return cell(row, 'as an image block', seen.where);
  if (text.includes(base64.slice(0, 40))) return cell(row, 'as base64 text', seen.where);
  return cell(row, seen.result.length === 0 ? 'dropped (empty result)' : `as text: ${quote(text)}`, seen.where);
}

// --- The roster changes --------------------------------------------------------------------

/** When a change the server made mid-step reached the model: the first request that shows it. */
export function changeReached(rec: Recording, shows: (turn: ModelTurn) => boolean, mark: string, row: string): Cell {
  const at = rec.marks[mark];
  if (at === undefined) return cell(row, 'the change was never made', 'the scenario server');
  const turns = conversation(rec);
  const after = turns.filter((t) => t.t > at);
  const index = after.findIndex(shows);
  if (index < 0) return cell(row, 'never', `${after.length} model requests after the change`);
  const turn = after[index]!;
  const stepOfChange = after[0]!.step;
  const value = turn.step > stepOfChange ? 'the next step' : index === 0 ? 'the next request' : `request ${index + 1} after it`;
  return cell(row, value, turnWhere(turn, turns.indexOf(turn)));
}

/** Whether the client listed again after it was told the list changed, and how it listens. */
export function relistsOnChange(rec: Recording): Cell {
  const row = 're-lists on list_changed';
  const told = rec.wire.find((e) => e.dir === 's2c' && e.message?.method === 'notifications/tools/list_changed');
  if (told === undefined) {
    const listens = rec.wire.some((e) => e.dir === 'c2s' && (e.method === 'GET' || e.message?.method === 'subscriptions/listen'));
    return cell(row, listens ? 'not told (its stream was closed)' : 'not told: it opened no stream to hear it', 'no list_changed on the wire');
  }
  // Up to the next step: an agent that starts afresh each step lists then because it starts, not because it was told.
  const nextStep = rec.steps.find((s) => s.at > told.t)?.at ?? Infinity;
  const again = sent(rec, 'tools/list').filter((e) => e.t > told.t && e.t < nextStep);
  // The count is shown, not compared: a client that lists on a timer lists a number of times the clock decides.
  return again.length === 0 ? cell(row, 'no', where(told)) : cell(row, `yes (${again.length} listing${again.length === 1 ? '' : 's'} after)`, where(told), 'yes');
}

/** For a 2026-07-28 client, whether it used a tool list past its ttlMs without listing again. */
export function ttlHonoured(rec: Recording, ttlMs: number): Cell {
  const row = 'honours ttlMs';
  const lists = sent(rec, 'tools/list');
  if (!lists.some((e) => e.protocolVersion === '2026-07-28')) return cell(row, 'not asked: a 2025 revision has no ttlMs', lists[0] === undefined ? 'no tools/list' : where(lists[0]));
  const turns = conversation(rec);
  const stale = turns.filter((turn) => {
    const last = lists.filter((e) => e.t < turn.t).at(-1);
    return last !== undefined && turn.t - last.t > ttlMs;
  });
  return cell(row, stale.length === 0 ? 'yes: listed again before each stale use' : `no: ${stale.length} of ${turns.length} model requests used a list older than ${ttlMs} ms`, where(lists[0]!));
}

// --- Elicitation ---------------------------------------------------------------------------

/** What the client answered to an elicitation: over the 2025 request, or in a 2026-07-28 retry of the call. */
export function elicitationAnswer(rec: Recording, tool: string, mode: 'form' | 'url'): Cell {
  const row = `${mode} elicitation, headless`;
  const asked = rec.wire.find((e) => e.dir === 's2c' && e.message?.method === 'elicitation/create' && (params(e).mode ?? 'form') === mode);
  if (asked !== undefined) {
    const reply = rec.wire.find((e) => e.dir === 'c2s' && e.message?.id === asked.message?.id && e.message?.method === undefined);
    if (reply === undefined) return cell(row, 'asked; never answered', where(asked));
    const error = reply.message?.error as Message | undefined;
    if (error !== undefined) return cell(row, `refused: error ${String(error.code)} ${quote(String(error.message))}`, where(reply));
    return cell(row, String((reply.message?.result as Message | undefined)?.action ?? 'an answer without action'), where(reply));
  }
  const retry = callsOf(rec, tool).find((e) => params(e).inputResponses !== undefined);
  if (retry !== undefined) {
    const responses = Object.values(params(retry).inputResponses as Message) as Message[];
    return cell(row, String(responses[0]?.action ?? 'an answer without action'), where(retry));
  }
  const call = callsOf(rec, tool)[0];
  const seen = firstResult(rec, tool);
  if (call === undefined) return cell(row, 'the call never reached the server', 'no tools/call on the wire');
  return cell(row, `not asked${seen === undefined ? '' : `: the model got ${quote(seen.result.head)}`}`, where(call));
}

// --- Slow calls ----------------------------------------------------------------------------

/** How long the client waited for a call: until it cancelled or closed the request, or past the cap. */
export function waitFor(rec: Recording, tool: string): { seconds: number; how: 'cancelled' | 'closed the request' | 'waited out the cap'; call: WireEntry } | undefined {
  const call = callsOf(rec, tool)[0];
  if (call === undefined) return undefined;
  const cancel = sent(rec, 'notifications/cancelled').find((e) => params(e).requestId === call.message?.id && e.t >= call.t);
  const closed = rec.wire.find((e) => e.dir === 'http' && e.exchange === call.exchange && e.event === 'client-closed');
  // Whichever came first; a cancel and a close at the same moment read as the cancel.
  const first = cancel !== undefined && (closed === undefined || cancel.t <= closed.t) ? { t: cancel.t, how: 'cancelled' as const }
    : closed !== undefined ? { t: closed.t, how: 'closed the request' as const } : undefined;
  if (first === undefined) return { seconds: rec.waitCapS, how: 'waited out the cap', call };
  return { seconds: (first.t - call.t) / 1000, how: first.how, call };
}

/** Seconds shown to a tenth, and compared to the nearest 5 s: a timeout of the client's is a round figure, the machine's jitter is not. */
const shown = (s: number): string => `${s.toFixed(1)} s`;
const rounded = (s: number): string => `~${Math.max(5, Math.round(s / 5) * 5)} s`;

export function silentWait(rec: Recording, tool: string): Cell {
  const row = 'waits for a silent call';
  const wait = waitFor(rec, tool);
  if (wait === undefined) return cell(row, 'the call never reached the server', 'no tools/call on the wire');
  if (wait.how === 'waited out the cap') return cell(row, `more than ${rec.waitCapS} s`, where(wait.call));
  return cell(row, `${shown(wait.seconds)}, then ${wait.how}`, where(wait.call), `${rounded(wait.seconds)}, then ${wait.how}`);
}

export function progressExtends(rec: Recording, silent: string, withProgress: string): Cell {
  const row = 'progress extends the wait';
  const plain = waitFor(rec, silent);
  const kept = waitFor(rec, withProgress);
  if (plain === undefined || kept === undefined) {
    const failure = failed(rec);
    return failure === undefined ? cell(row, 'not seen: a call never reached the server', 'no tools/call on the wire') : cell(row, 'not seen: the agent failed first', `the step's end: ${failure}`);
  }
  const token = (params(kept.call)._meta as Message | undefined)?.progressToken;
  if (token === undefined) return cell(row, 'no: it sends no progress token', where(kept.call));
  const capped = (w: typeof plain): boolean => w.how === 'waited out the cap';
  if (capped(plain) && capped(kept)) return cell(row, `not seen: both waited more than ${rec.waitCapS} s`, where(kept.call));
  if (capped(kept)) return cell(row, `yes: more than ${rec.waitCapS} s with progress, ${shown(plain.seconds)} without`, where(kept.call), `yes: more than ${rec.waitCapS} s with progress, ${rounded(plain.seconds)} without`);
  return cell(row, `no: ${shown(kept.seconds)} with progress`, where(kept.call), `no: ${rounded(kept.seconds)} with progress`);
}

export function cancelsOnGivingUp(rec: Recording, tool: string): Cell {
  const row = 'cancels when it gives up';
  const wait = waitFor(rec, tool);
  if (wait === undefined) return cell(row, 'the call never reached the server', 'no tools/call on the wire');
  if (wait.how === 'waited out the cap') return cell(row, `not seen: it waited more than ${rec.waitCapS} s`, where(wait.call));
  if (wait.how === 'cancelled') return cell(row, 'yes', where(wait.call));
  // In 2026-07-28 a request's own stream is its life: closing it is how a client cancels (Streamable HTTP, that revision).
  if (wait.call.protocolVersion === '2026-07-28') return cell(row, 'yes: it closed the request (2026-07-28 cancels so)', where(wait.call));
  return cell(row, 'no: it closed the request without notifications/cancelled', where(wait.call));
}

// --- Repeats, failures, reconnection -------------------------------------------------------

/** How a run of identical calls ended: the agent stopped itself (after how many), or it let every one through. */
export function repeatGuard(rec: Recording, tool: string, most: number, row: string): Cell {
  const reached = callsOf(rec, tool).length;
  const asked = askedCount(rec, tool);
  const step = rec.steps[0];
  const how = step?.stoppedItself !== undefined ? `its loop guard: ${quote(step.stoppedItself)}`
    : step?.failure !== undefined ? `it failed: ${quote(step.failure)}` : undefined;
  if (reached >= most) return cell(row, `no guard within ${most} calls`, `${reached} tools/call on the wire`);
  if (how !== undefined) return cell(row, `stopped itself after ${reached} calls (${how})`, `${reached} tools/call on the wire`, `stopped itself after ${reached} calls`);
  if (asked > reached) return cell(row, `kept ${asked - reached} of ${asked} asked calls from the server`, `${reached} tools/call on the wire`);
  return cell(row, `the model stopped asking after ${reached}`, `${reached} tools/call on the wire`);
}

/** Whether the client sent a call again without the model asking (a failed result, a dropped request). */
export function resends(rec: Recording, tool: string, row: string): Cell {
  const reached = callsOf(rec, tool);
  const asked = askedCount(rec, tool);
  if (reached.length === 0) return cell(row, 'the call never reached the server', 'no tools/call on the wire');
  if (reached.length > asked) return cell(row, `yes: ${reached.length} sends for ${asked} asked`, where(reached[1] ?? reached[0]!));
  const seen = firstResult(rec, tool);
  if (seen === undefined) return failed(rec) === undefined ? cell(row, 'no: no result reached the model', where(reached[0]!)) : cell(row, 'no: the agent failed', `the step's end: ${failed(rec)!}`);
  return cell(row, `no: the model got ${quote(seen.result.head)}`, where(reached[0]!));
}

/** After the server forgot its sessions: did the client open a new one and the next call go through. */
export function reconnects(rec: Recording, tool: string, proof: string): Cell {
  const row = 'reconnects after the server restarts';
  const at = rec.marks.sessionsForgotten;
  if (at === undefined) return cell(row, 'the server never restarted', 'the scenario server');
  if (sent(rec, 'initialize').length === 0) return cell(row, 'not asked: a 2026-07-28 client has no session', 'no initialize on the wire');
  const lost = rec.wire.find((e) => e.dir === 'http' && e.status === 404 && e.t > at);
  const again = sent(rec, 'initialize').filter((e) => e.t > at);
  const later = callsOf(rec, tool).filter((e) => e.t > at);
  const through = later.some((e) => {
    const answer = answerTo(rec, e);
    const result = answer?.message?.result;
    return result !== undefined && JSON.stringify(result).includes(proof);
  });
  if (later.length === 0) return cell(row, `no: no call after it${lost === undefined ? '' : ' (404 seen)'}`, lost === undefined ? 'the wire after the restart' : where(lost));
  if (through && again.length > 0) return cell(row, 'yes: a new session, the call went through', where(again[0]!));
  const seen = rec.turns.flatMap((t) => t.results.filter((r) => r.tool === tool)).at(-1);
  if (seen === undefined || seen.head.includes(proof)) return failed(rec) === undefined ? cell(row, 'no: no result reached the model', where(later[0]!)) : cell(row, 'no: the agent failed', `the step's end: ${failed(rec)!}`);
  return cell(row, `no: the model got ${quote(seen.head)}`, lost === undefined ? where(later[0]!) : where(lost));
}
