// An acp agent: one process per pass, behind the group guard, speaking the Agent Client
// Protocol over its stdio. The handshake (initialize, session/new with the gateway as its MCP
// server and the file's sessionMeta, the file's session mode and session model) starts with the
// pass and finishes inside the first step's time limit; each step is one session/prompt, its
// answer the text of the agent messages streamed for that prompt, its notes what the agent did
// beside it (notices, a permission asked, its plan, a session title, its slash commands), and a
// message or turn error matching the file's loopGuard the agent stopping itself. At the time limit the turn is cancelled (session/cancel); an agent
// that does not stop within CANCEL_GRACE_MS loses its whole process group. A process that dies
// fails its step with one line, and every later step at once with the same line.
import { isAbsolute, relative, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import * as acp from '@agentclientprotocol/sdk';
import { LADDER_VERSION } from '../lane/install.ts';
import { hasExited, spawnGroup, stopGroup } from '../lane/processGroup.ts';
import { commandName, exitLine, loopGuardLine, seconds, stderrNotes, Tail } from './faults.ts';
import type { AgentSession, AgentStepResult, PreparedAgent, StepOptions } from './session.ts';
import { timeLimitWords } from './startup.ts';

/** What the issue allows an agent to take to stop a cancelled turn before its group is ended. */
export const CANCEL_GRACE_MS = 2_000;
/** How long a failed request waits for the process's exit, so the line says why it died. */
const DEATH_WAIT_MS = 1_000;
/** A glance, not a log: notes per step. */
const MAX_STEP_NOTES = 5;
const ACP_PROTOCOL_VERSION = 1;

type Decision = acp.RequestPermissionResponse;

function pathsOf(toolCall: acp.ToolCallUpdate): string[] {
  const paths = (toolCall.locations ?? []).map((l) => l.path);
  const input = toolCall.rawInput;
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    // The fields agents name their targets by (Codex: cwd; file tools: path, file_path).
    for (const key of ['path', 'file_path', 'filePath', 'cwd', 'paths']) {
      const value = (input as Record<string, unknown>)[key];
      for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string' && item !== '') paths.push(item);
    }
  }
  return paths;
}

function within(workspace: string, path: string): boolean {
  const rel = relative(workspace, resolve(workspace, path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * How a permission request is answered. `allow`: an allow option when every path the request
 * names is inside the workspace (one that names none, such as an MCP tool call through the
 * gateway, has nothing outside it); `deny`, or a path outside: a reject option. The note says
 * what was refused, so a step that failed for it can be read from the trace.
 */
export function decidePermission(request: acp.RequestPermissionRequest, workspace: string, policy: 'allow' | 'deny'): { decision: Decision; note?: string } {
  const pick = (...kinds: acp.PermissionOptionKind[]): acp.PermissionOption | undefined => {
    for (const kind of kinds) {
      const option = request.options.find((o) => o.kind === kind);
      if (option !== undefined) return option;
    }
    return undefined;
  };
  const outside = pathsOf(request.toolCall).find((p) => !within(workspace, p));
  const allow = pick('allow_once', 'allow_always');
  if (policy === 'allow' && outside === undefined && allow !== undefined) return { decision: { outcome: { outcome: 'selected', optionId: allow.optionId } } };
  const reject = pick('reject_once', 'reject_always');
  const what = request.toolCall.title ?? request.toolCall.toolCallId;
  const why = policy === 'deny' ? "the agent file's permissions is deny" : outside !== undefined ? `it names a path outside the workspace: ${outside}` : 'it offered no allow option';
  const decision: Decision = reject !== undefined ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : { outcome: { outcome: 'cancelled' } };
  return { decision, note: `refused a permission request (${what}): ${why}` };
}

/**
 * Agent messages that are the agent's warnings, not its answer. codex-acp 0.16.0 forwards
 * Codex's warning events as ordinary agent_message_chunk updates (no messageId), one chunk
 * each, ahead of the model's text: seen here as "Model metadata for `tiny` not found.
 * Defaulting to fallback metadata; ...". A chunk that is one of these, whole, becomes a note.
 */
const WARNING_CHUNKS = [/^Model metadata for `[^`]*` not found\./];

/** The models a session offers, as ACP says them: a config option's values, or the older `models` list. */
interface OfferedModels {
  /** `session/set_config_option` with this config id, or `session/set_model`. */
  via: { configId: string } | 'set_model';
  current: string;
  models: { id: string; name: string }[];
}

/**
 * Gemini CLI 0.61.0 answers session/new with `models` (`currentModelId`, `availableModels`) and
 * takes `session/set_model`, which the SDK's stable schema no longer has; opencode 1.18.33 and
 * Zed's Claude adapter 0.23.1 with a config option of category `model`, Qwen Code 0.24.4 with both.
 */
type SessionOffer = acp.NewSessionResponse & { models?: { currentModelId: string; availableModels: { modelId: string; name: string }[] } | null };

function offeredModels(session: SessionOffer): OfferedModels | undefined {
  const option = session.configOptions?.find((o) => o.category === 'model' && o.type === 'select');
  if (option !== undefined && option.type === 'select') {
    const models = option.options.flatMap((o) => ('group' in o ? o.options : [o])).map((o) => ({ id: o.value, name: o.name }));
    return { via: { configId: option.id }, current: option.currentValue, models };
  }
  if (session.models) {
    return { via: 'set_model', current: session.models.currentModelId, models: session.models.availableModels.map((m) => ({ id: m.modelId, name: m.name })) };
  }
  return undefined;
}

export type ModelChoice =
  | { set: 'none' }
  | { set: 'config'; configId: string; value: string }
  | { set: 'model'; modelId: string }
  | { failure: string };

/**
 * How the session comes to run `want` (the agent file's sessionModel, filled): nothing when it
 * already does (its current model's id, or the name of the offered model that is current), else
 * the request that selects the offered model whose id or name is `want`. A session that offers
 * no choice, or no such model, is a failure the agent file can fix.
 */
export function chooseModel(session: SessionOffer, want: string): ModelChoice {
  const offer = offeredModels(session);
  if (offer === undefined) return { failure: "its session/new offers no choice of model (no config option of category model, no models); remove the agent file's sessionModel" };
  const match = offer.models.find((m) => m.id === want) ?? offer.models.find((m) => m.name === want);
  if (offer.current === want || (match !== undefined && match.id === offer.current)) return { set: 'none' };
  if (match === undefined) return { failure: `its session offers no model "${want}" (the agent file's sessionModel); it offers ${offer.models.map((m) => m.id).join(', ') || 'none'}` };
  return offer.via === 'set_model' ? { set: 'model', modelId: match.id } : { set: 'config', configId: offer.via.configId, value: match.id };
}

/**
 * What an agent does over ACP and not headless, as a note (shown as stderr warnings are): its
 * plan, the title it gives the session, its slash commands, a mode it switches to. Undefined for
 * the updates that are the turn itself (messages, thoughts, tool calls, usage).
 */
export function updateNote(update: acp.SessionUpdate): string | undefined {
  switch (update.sessionUpdate) {
    case 'plan': {
      const entries = update.entries.length;
      return `updated its plan (ACP plan, ${entries} ${entries === 1 ? 'entry' : 'entries'})`;
    }
    case 'session_info_update': return update.title ? `named the session "${update.title}"` : undefined;
    case 'available_commands_update': return `announced ${update.availableCommands.length} slash commands (available_commands_update)`;
    case 'current_mode_update': return `switched its session mode to ${update.currentModeId}`;
    default: return undefined;
  }
}

/** What one step gathers while its prompt runs. */
class StepLog {
  readonly chunks: string[] = [];
  readonly notes: string[] = [];
  readonly stderr = new Tail();
  /** Every message and notice text of the turn, for the agent's loop-guard message. */
  readonly said: string[] = [];

  note(line: string): void {
    if (!this.notes.includes(line)) this.notes.push(line);
  }

  update(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
      const { text } = update.content;
      if (WARNING_CHUNKS.some((warning) => warning.test(text.trim()))) this.note(text.trim());
      else this.chunks.push(text);
      this.said.push(text);
      return;
    }
    if (update.sessionUpdate === 'notice') {
      const line = update.description ? `${update.title}: ${update.description}` : update.title;
      this.note(line);
      this.said.push(line);
      return;
    }
    const note = updateNote(update);
    if (note !== undefined) this.note(note);
  }

  allNotes(): string[] {
    return [...this.notes, ...stderrNotes(this.stderr.text())].slice(0, MAX_STEP_NOTES);
  }
}

type Ready = { sessionId: string } | { failure: string };

export function acpSession(agent: PreparedAgent): AgentSession {
  const { file, values } = agent;
  const name = commandName(agent.command);
  const started = Date.now();
  const spawnedAt = performance.now();
  const child = spawnGroup(agent.command, file.args.map((arg) => agent.fill(arg)), {
    cwd: values.workspace,
    env: agent.env(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr = new Tail();
  let step: StepLog | undefined;
  child.stderr!.on('data', (chunk: Buffer) => (stderr.push(chunk), step?.stderr.push(chunk)));
  // A dead agent closes its stdin under the SDK's writer; the exit line says what happened.
  child.stdin!.on('error', () => {});
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`${name} could not be started (${error.message})`));
    child.once('close', (code, signal) => {
      resolve(exitLine(file, agent.command, code, signal, stderr.text()) ?? `${name} exited (code 0) before the pass ended`);
    });
  });
  /** Once set, every step fails at once with this line: the agent is gone or was ended. */
  let dead: string | undefined;
  void exited.then((line) => (dead ??= line));

  let sessionId: string | undefined;
  /** What the agent said between steps (its slash commands come right after session/new): the next step's notes. */
  const between = new StepLog();
  const app = acp
    .client({ name: 'ladder' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      // Before session/new has answered, its id is not known yet: an update then is the session's.
      if (sessionId === undefined || params.sessionId === sessionId) (step ?? between).update(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const { decision, note } = decidePermission(params, values.workspace, file.permissions);
      (step ?? between).note(note ?? `asked permission (${params.toolCall.title ?? params.toolCall.toolCallId}): allowed`);
      return decision;
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));

  /** The exit line when the process has died (or dies within DEATH_WAIT_MS), else `line`. */
  async function deathOr(line: string): Promise<string> {
    return Promise.race([exited, delay(DEATH_WAIT_MS).then(() => line)]);
  }

  let startupMs: number | undefined;
  const ready: Promise<Ready> = (async () => {
    let stage = 'initialize';
    try {
      const init = await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: ACP_PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: 'ladder', version: LADDER_VERSION },
      });
      startupMs = Date.now() - started;
      if (init.protocolVersion !== ACP_PROTOCOL_VERSION) return { failure: `${name} speaks ACP protocol version ${init.protocolVersion}; Ladder speaks ${ACP_PROTOCOL_VERSION}` };
      let server: acp.McpServer;
      if (init.agentCapabilities?.mcpCapabilities?.http === true) {
        server = { type: 'http', name: 'ladder', url: values.mcpUrl, headers: [{ name: 'Authorization', value: `Bearer ${values.mcpToken}` }] };
      } else if (values.mcpStdio !== undefined) {
        server = { name: 'ladder', command: values.mcpStdio.command, args: values.mcpStdio.args, env: [{ name: 'LADDER_MCP_TOKEN', value: values.mcpToken }] };
      } else {
        return { failure: `${name} takes no HTTP MCP servers (its initialize says so) and this pass has no stdio bridge to give it` };
      }
      stage = 'session/new';
      const session: SessionOffer = await connection.agent.request(acp.methods.agent.session.new, {
        cwd: values.workspace, mcpServers: [server], ...(file.sessionMeta === undefined ? {} : { _meta: file.sessionMeta }),
      });
      sessionId = session.sessionId;
      if (file.mode !== undefined) {
        const modes = session.modes?.availableModes.map((m) => m.id);
        if (modes !== undefined && !modes.includes(file.mode)) {
          return { failure: `${name} has no session mode "${file.mode}" (the agent file's mode); its modes are ${modes.join(', ')}` };
        }
        stage = 'session/set_mode';
        await connection.agent.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: file.mode });
      }
      if (file.sessionModel !== undefined) {
        const choice = chooseModel(session, agent.fill(file.sessionModel));
        if ('failure' in choice) return { failure: `${name}: ${choice.failure}` };
        if (choice.set === 'config') {
          stage = 'session/set_config_option';
          await connection.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: session.sessionId, configId: choice.configId, value: choice.value });
        } else if (choice.set === 'model') {
          stage = 'session/set_model';
          await connection.agent.request('session/set_model', { sessionId: session.sessionId, modelId: choice.modelId });
        }
      }
      return { sessionId: session.sessionId };
    } catch (error) {
      return { failure: await deathOr(`${name} answered ${stage} with an error: ${(error as Error).message}`) };
    }
  })();

  async function end(line: string): Promise<void> {
    dead ??= line;
    connection.close();
    await stopGroup(child);
  }

  let waitedForStart = false;
  async function runStep(prompt: string, options: StepOptions): Promise<AgentStepResult> {
    if (dead !== undefined) return { answer: '', failure: dead, timedOut: false, notes: [] };
    const log = new StepLog();
    for (const line of between.notes.splice(0)) log.note(line);
    const first = !waitedForStart;
    waitedForStart = true;
    // The process started with the session, in the first step: its start-up is that step's.
    if (first) options.onSpawn?.(spawnedAt);
    const result = (fields: Omit<AgentStepResult, 'notes' | 'startupMs'>): AgentStepResult => ({
      ...fields,
      notes: log.allNotes(),
      ...(first && startupMs !== undefined ? { startupMs } : {}),
    });

    // One clock for the whole step: the handshake (first step) and the prompt share the limit.
    let stopLine: string | undefined;
    let onAbort: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'stopped'>((resolve) => {
      const timeUp = (): void => {
        stopLine = `${name} did not answer ${timeLimitWords(options.timeLimitMs, options.timeUp !== undefined)}`;
        resolve('stopped');
      };
      // With the runner's clock (timeUp), the limit is the runner's: it leaves the start-up out.
      if (options.timeUp === undefined) timer = setTimeout(timeUp, options.timeLimitMs);
      onAbort = () => {
        if (options.timeUp?.aborted === true) return timeUp();
        stopLine = `${name} was stopped: the step was cancelled`;
        resolve('stopped');
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const done = (): void => {
      clearTimeout(timer);
      if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
    };

    try {
      step = log;
      const started = await Promise.race([ready, limit]);
      if (started === 'stopped') {
        await end(`${name} did not finish starting (ACP initialize, session/new) within the first step's time limit; its process group was ended`);
        return result({ answer: '', failure: `${stopLine!} while it was starting; its process group was ended`, timedOut: true });
      }
      if ('failure' in started) {
        await end(started.failure);
        return result({ answer: '', failure: started.failure, timedOut: false });
      }
      if (dead !== undefined) return result({ answer: '', failure: dead, timedOut: false });

      const turn = connection.agent
        .request(acp.methods.agent.session.prompt, { sessionId: started.sessionId, prompt: [{ type: 'text', text: prompt }] })
        .then((response) => ({ response }), (error: unknown) => ({ error: error as Error }));
      // The SDK rejects a pending request when the stream ends; the exit is watched too, in
      // case a dead agent's grandchild still holds its stdout open.
      const gone = exited.then(async (line) => (await delay(DEATH_WAIT_MS / 10), { gone: line }));
      const outcome = await Promise.race([turn, limit, gone]);
      if (outcome === 'stopped') {
        await connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: started.sessionId }).catch(() => {});
        const after = await Promise.race([turn, delay(CANCEL_GRACE_MS).then(() => 'ignored' as const)]);
        if (after === 'ignored') {
          await end(`${name} was ended at an earlier step: it did not end a cancelled turn within ${seconds(CANCEL_GRACE_MS)}`);
          return result({ answer: '', failure: `${stopLine!}; it did not end its turn within ${seconds(CANCEL_GRACE_MS)} of session/cancel, so its process group was ended`, timedOut: true });
        }
        return result({ answer: '', failure: `${stopLine!}; its turn was cancelled (session/cancel)`, timedOut: true });
      }
      const guard = loopGuardLine(file, log.stderr.text(), [...log.said, 'error' in outcome ? outcome.error.message : ''].join('\n'));
      if (guard !== undefined) return result({ answer: '', stoppedItself: guard, timedOut: false });
      if ('gone' in outcome) return result({ answer: '', failure: outcome.gone, timedOut: false });
      if ('error' in outcome) {
        const line = await deathOr(`${name} answered session/prompt with an error: ${outcome.error.message}`);
        if (hasExited(child)) dead ??= line;
        return result({ answer: '', failure: line, timedOut: false });
      }
      const { stopReason } = outcome.response;
      if (stopReason !== 'end_turn') log.note(`the turn ended with stopReason ${stopReason}`);
      const answer = log.chunks.join('').trim();
      if (answer === '') return result({ answer: '', failure: `${name} ended its turn (${stopReason}) with no agent message`, timedOut: false });
      return result({ answer, timedOut: false });
    } finally {
      done();
      step = undefined;
    }
  }

  return {
    runStep,
    async close() {
      await end(`${name}: the pass has ended`);
    },
  };
}
