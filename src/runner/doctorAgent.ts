// `ladder doctor --agent NAME`: one pass of a one-step rung with the agent on it, through the
// same machinery as `ladder run --agent` (both gateways, the workbench behind the MCP gateway),
// with a scripted synthetic model behind the model gateway that calls one tool and then answers.
// What the trace and the model saw say how far the agent got, one line per stage: found, started,
// reached the model gateway (in which wire format), listed the MCP gateway's tools, called one,
// answered. The first stage that failed says what to do; the ones after it are not tried.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentFile } from '../agents/index.ts';
import { installName, notInstalledLine } from '../agents/faults.ts';
import { agentVersion, locateAgent } from '../agents/locate.ts';
import { createSyntheticModel } from '../models/synthetic/index.ts';
import type { ModelAdapter } from '../models/types.ts';
import { rungSchema } from '../rungs/schema.ts';
import { readTraceAll } from '../trace/index.ts';
import type { TraceEvent } from '../trace/index.ts';
import { scriptOf } from './agents.ts';
import { runPass } from './pass.ts';

/** Codex answers the doctor's step in about 2 s; opencode needed about 20 s to its first request on a loaded 2-core machine. */
export const DOCTOR_STEP_S = 120;
const TOOL = 'wb__catalog_lookup';
const ANSWER = 'ladder doctor: the catalog documents port 8080';

/** The doctor's rung: the workbench, one step, one deterministic lookup, then the answer. */
const DOCTOR_RUNG = rungSchema.parse({
  name: 'doctor',
  description: 'One tool call through the MCP gateway, then an answer through the model gateway.',
  servers: { wb: { workbench: {} } },
  steps: [{
    prompt: `Look up the catalog topic config/service with the ${TOOL} tool, then answer with the port it documents.`,
    ceiling: 5,
    timeLimitS: DOCTOR_STEP_S,
    checks: [{ succeeded: TOOL }],
    reference: { calls: [{ tool: TOOL, args: { topic: 'config/service' } }], answer: ANSWER },
  }],
});

const WIRES: Record<string, string> = {
  'openai-chat': 'OpenAI Chat Completions (POST /v1/chat/completions)',
  'openai-responses': 'OpenAI Responses (POST /v1/responses)',
  'anthropic-messages': 'Anthropic Messages (POST /v1/messages)',
  gemini: "Google's Gemini API (POST /v1beta/models/{model}:streamGenerateContent)",
};

export interface AgentDoctorResult {
  ok: boolean;
  /** One line per stage reached: `ok    <stage>: ...` or `FAIL  <stage>: ... ; what to do`. */
  lines: string[];
}

/** The model behind the gateway, seen: the gateway tools each request offered (a synthetic model is shown only those). */
function watched(model: ModelAdapter, offered: number[]): ModelAdapter {
  return new Proxy(model, {
    get(target, key, receiver) {
      if (key !== 'complete') return Reflect.get(target, key, receiver);
      return (request: Parameters<ModelAdapter['complete']>[0], signal?: AbortSignal) => {
        offered.push(request.tools.length);
        return target.complete(request, signal);
      };
    },
  });
}

const quote = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** The stages, read from the doctor pass's trace and what its model was offered. */
export function stageLines(file: AgentFile, events: readonly TraceEvent[], offered: readonly number[]): AgentDoctorResult {
  const lines: string[] = [];
  const fail = (stage: string, why: string): AgentDoctorResult => ({ ok: false, lines: [...lines, `FAIL  ${stage}: ${why}`] });
  const end = events.find((e) => e.type === 'step.end');
  const passEnd = events.find((e) => e.type === 'pass.end');
  if (end?.type !== 'step.end') {
    const why = passEnd?.type === 'pass.end' && passEnd.error !== undefined ? passEnd.error : 'the pass ended before its step';
    return fail('started', `Ladder could not set up the pass (${why}); this is Ladder's side: run ladder doctor again, and report it if it stays`);
  }
  const said = end.error === undefined ? `the step ended ${end.reason}` : end.error;
  const requests = events.filter((e) => e.type === 'model.request');
  if (requests.length === 0 && end.reason === 'agent_failed') return fail('started', `${said}; run it by hand to see why, or fix the agent file's command and args`);
  const startup = end.agentStartupMs === undefined ? '' : ` (first output after ${(end.agentStartupMs / 1000).toFixed(1)} s)`;
  lines.push(`ok    started: ${file.name} (${file.kind})${startup}`);
  if (requests.length === 0) {
    return fail('reached the model gateway', `no model request came (${said}); check that the agent file points it at {openaiBaseUrl} or {anthropicBaseUrl} with {apiKey} as its key, and gives it {model}`);
  }
  const wires = [...new Set(requests.flatMap((e) => (e.type === 'model.request' && e.wire !== undefined ? [e.wire] : [])))];
  lines.push(`ok    reached the model gateway: ${wires.map((w) => WIRES[w] ?? w).join(', ') || 'format not recorded'}, ${requests.length} request${requests.length === 1 ? '' : 's'}`);
  const most = Math.max(0, ...offered);
  if (most === 0) {
    return fail('listed the MCP gateway\'s tools', `its model requests offered none of them (${said}); check that the agent file gives it the MCP gateway: {mcpUrl} with the bearer {mcpToken}, or {mcpConfig}`);
  }
  lines.push(`ok    listed the MCP gateway's tools: its model was offered ${most} of them`);
  const calls = events.filter((e) => e.type === 'tool.call');
  const made = calls.find((e) => e.type === 'tool.call' && e['gen_ai.tool.name'] === TOOL && e.outcome === 'ok');
  if (made === undefined) {
    const seen = calls.length === 0 ? 'no call reached the MCP gateway' : `${calls.length} call(s) reached it, none of ${TOOL} answered ok`;
    return fail('called one', `the model asked for ${TOOL} and ${seen} (${said}); check that the agent may call the gateway's tools without asking (its permission or approval settings)`);
  }
  lines.push(`ok    called one: ${TOOL} through the MCP gateway, answered ok`);
  if (end.reason !== 'answered') return fail('answered', `${said}; the agent called the tool but gave no answer: run it by hand with the same prompt to see what it does`);
  lines.push(`ok    answered (${end.rounds} model request${end.rounds === 1 ? '' : 's'} in the step)`);
  return { ok: true, lines };
}

export interface AgentDoctorWorld {
  env: Readonly<Record<string, string | undefined>>;
  /** Where the pass's folders go; the system's temp folder by default. */
  tempBase?: string;
}

/** Checks the agent file as `ladder run --agent` would run it; never throws for what the agent does. */
export async function checkAgent(file: AgentFile, world: AgentDoctorWorld): Promise<AgentDoctorResult> {
  const located = locateAgent(file, world.env);
  if (located.where === 'missing') return { ok: false, lines: [`FAIL  found: ${notInstalledLine(file, file.command)}`] };
  const version = await agentVersion(file, located, world.env);
  const where = located.where === 'cache' ? 'the agent cache' : located.where === 'path' ? 'PATH' : file.file;
  const found = `ok    found: ${file.name} ${version.version} (${where}: ${located.command})`;
  const runnable: AgentFile = located.where === 'file' ? file : { ...file, command: located.command };
  const dir = await mkdtemp(join(world.tempBase ?? tmpdir(), 'ladder-doctor-'));
  try {
    const offered: number[] = [];
    const outcome = await runPass({
      rung: DOCTOR_RUNG, id: { rung: 'doctor', arm: 'on', armSlug: 'on', pass: 0, seed: 1 }, tracePath: join(dir, 'trace.jsonl'),
      timeFactor: 1, mode: 'steps', tempRoot: dir,
      agent: ({ workspace }) => ({
        model: watched(createSyntheticModel('reference', { script: scriptOf(DOCTOR_RUNG, workspace), seed: 1, oneShot: false, workspace }), offered),
        external: runnable,
      }),
    });
    void outcome;
    const { events } = await readTraceAll(join(dir, 'trace.jsonl'));
    const result = stageLines(file, events, offered);
    return { ok: result.ok, lines: [found, ...result.lines] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The verdict under the stage lines. */
export function verdictLine(file: AgentFile, result: AgentDoctorResult): string {
  return result.ok
    ? `OK ${file.name} works with Ladder's gateways: ladder run --agent ${installName(file)} will reach it the same way`
    : `FAIL ${file.name}: ${result.lines.at(-1)!.replace(/^FAIL\s+/, '')}`;
}
