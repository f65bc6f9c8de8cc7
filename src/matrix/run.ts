// One scenario, one agent: the scenario's server with the recorder in front of it, the model
// gateway with the scenario's script behind it, and the agent started as `ladder run --agent`
// starts it (the same agent file, the same pass values), except that its MCP URL is the
// recorder's: the agent meets the scenario's server as it is, not Ladder's MCP gateway.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentFile } from '../agents/index.ts';
import { startModelGateway } from '../gateway/model/index.ts';
import { PACKAGE_ROOT } from '../lane/index.ts';
import { scriptedModel } from './model.ts';
import type { Recording, StepOutcome } from './recording.ts';
import { everyTool } from './scenarios.ts';
import type { Scenario, ScenarioControl } from './scenarios.ts';
import { ScenarioServer } from './server.ts';
import { startWireRecorder } from './wire.ts';

export interface ScenarioRunOptions {
  /** The longest a slow call is held, s. */
  waitCapS: number;
  /** Where the pass's folders go; the system's temp folder by default. */
  tempBase?: string;
}

/** The model name the agent asks the model gateway for. */
export const MATRIX_MODEL = 'synthetic:matrix';

export const promptOf = (scenario: Scenario, step: number): string =>
  `Matrix scenario ${scenario.name}, step ${step + 1} of ${scenario.steps}: use the tools the task needs, then answer.`;

export async function runScenario(file: AgentFile, scenario: Scenario, options: ScenarioRunOptions): Promise<Recording> {
  const started = performance.now();
  const marks: Record<string, number> = {};
  let server: ScenarioServer | undefined;
  const control: ScenarioControl = {
    server: () => server!,
    mark: (name) => { marks[name] = Math.round(performance.now() - started); },
    waitCapMs: options.waitCapS * 1000,
  };
  const prompts = Array.from({ length: scenario.steps }, (_, i) => promptOf(scenario, i));
  const token = randomBytes(24).toString('base64url');
  const dir = await mkdtemp(join(options.tempBase ?? tmpdir(), 'ladder-matrix-'));
  const steps: StepOutcome[] = [];
  server = await ScenarioServer.start({
    era: scenario.era, tools: scenario.tools(control),
    ...(scenario.listingTtlMs === undefined ? {} : { listingTtlMs: scenario.listingTtlMs }),
    ...(scenario.resourcesAndPrompts === true ? { resourcesAndPrompts: true } : {}),
  });
  scenario.setup?.(server);
  const recorder = await startWireRecorder(server.url, token, started);
  const model = scriptedModel(scenario.script, () => everyTool(scenario, control), prompts, started);
  const models = await startModelGateway({ token, answer: (request, answerOptions) => model.answer(request, answerOptions.signal) });
  try {
    const home = join(dir, 'home');
    const workspace = join(dir, 'workspace');
    await mkdir(home, { recursive: true });
    await mkdir(workspace, { recursive: true });
    const { startAgentSession } = await import('../agents/index.ts');
    const session = await startAgentSession(file, {
      workspace, home, model: MATRIX_MODEL, mcpUrl: recorder.url, mcpToken: token, apiKey: token,
      openaiBaseUrl: models.openaiBaseUrl, anthropicBaseUrl: models.anthropicBaseUrl, geminiBaseUrl: models.geminiBaseUrl,
      mcpStdio: { command: process.execPath, args: [join(PACKAGE_ROOT, 'bin', 'ladder.js'), 'gateway', 'bridge', '--url', recorder.url] },
    });
    try {
      const limitMs = (scenario.stepS + (scenario.waits === true ? options.waitCapS : 0)) * 1000;
      for (const [index, prompt] of prompts.entries()) {
        model.step = index;
        const at = performance.now();
        const result = await session.runStep(prompt, { timeLimitMs: limitMs });
        steps.push({
          at: Math.round(at - started), answer: result.answer, timedOut: result.timedOut, ms: Math.round(performance.now() - at),
          ...(result.failure === undefined ? {} : { failure: result.failure }),
          ...(result.stoppedItself === undefined ? {} : { stoppedItself: result.stoppedItself }),
          ...(result.notes.length === 0 ? {} : { notes: result.notes }),
        });
      }
    } finally {
      await session.close();
    }
  } finally {
    await models.close();
    await recorder.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
  return {
    scenario: scenario.name, agent: file.name, era: scenario.era, wire: [...recorder.entries], turns: [...model.turns], steps,
    waitCapS: options.waitCapS, marks,
  };
}
