// Everything a run needs, checked before a results folder exists: rung files, arms, shard,
// numbers, the model, and on --resume that the folder is the same run. A mistake here is an
// InputError (one line per problem) and leaves nothing behind.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ArmError } from '../lane/index.ts';
import { createModel, flagProblems, flagsFromSettings, ModelConfigError, ModelSpecError, parseModelSpec, parseThinking } from '../models/index.ts';
import type { AdapterOptions, ModelFlags, ModelSettings } from '../models/index.ts';
import { AimdLimiter } from '../models/pace.ts';
import { loadPrices, PriceFileError, priceOf } from '../models/prices.ts';
import type { Pricing } from '../models/prices.ts';
import type { LoadedRung } from '../rungs/load.ts';
import type { JudgeOptions } from '../judge/judge.ts';
import { namedJudgeModels, runJudgeOptions } from './runJudge.ts';
import { agentFactory, modelSettings } from './agents.ts';
import type { AgentFactory } from './agents.ts';
import type { AgentFile } from '../agents/index.ts';
import type { Manifest, ManifestAgent } from '../results/manifest.ts';
import { differences, gitSha, LADDER_VERSION, ManifestError, MANIFEST_FORMAT, readManifest, sha256 } from '../results/manifest.ts';
import { chooseModel, resolveSpec } from './model.ts';
import type { ModelChoice } from './model.ts';
import { canonicalArms } from './plan.ts';
import { unreachable } from './reach.ts';
import { findRungFiles, InputError, loadRungFiles } from './rungFiles.ts';
import { MANIFEST } from '../results/store.ts';
import { ReplaySource } from './replay.ts';
import { formatShard, parseShard, RunUsageError } from './seeds.ts';
import { credentialsIn } from '../trace/index.ts';
import type { Secret } from '../trace/index.ts';

export const DEFAULT_PASSES = 10;
export const DEFAULT_ARMS = ['on', 'off'];
export const DEFAULT_SEED = 1;
/** Synthetic passes spend most of their time starting servers, which overlaps well on 2 cores. */
export const DEFAULT_SYNTHETIC_CONCURRENCY = 4;
/** A local model answers one request at a time; parallel passes would measure its queue. */
export const DEFAULT_MODEL_CONCURRENCY = 1;

/** What the user asked for; undefined means "not given" (a default, or the manifest's on --resume). */
export interface RunRequest {
  rungs: string[];
  model?: string;
  passes?: number;
  arms?: string[];
  seed?: number;
  concurrency?: number;
  out?: string;
  resume?: boolean;
  shard?: string;
  timeFactor?: number;
  mode?: 'steps' | 'oneshot';
  /** `content`: record hashes and byte counts instead of the conversation. */
  redact?: 'content';
  /** A results folder whose recorded model responses answer this run's requests. */
  replay?: string;
  /** --base-url, --thinking (off, on or a budget, as typed), --num-ctx: see src/models/settings.ts. */
  baseUrl?: string;
  thinking?: string;
  numCtx?: number;
  /** Keep each step's workspace in the results folder (for `ladder rescore`). */
  keepWorkspaces?: boolean;
  /** `--agent`: a shipped recipe's name or an agent file's path; the built-in loop without it. */
  agent?: string;
  /** A price file over the shipped table (src/models/prices.ts). */
  prices?: string;
  /** US dollars: start no pass that could take the run's spending past it. */
  maxCost?: number;
}

export interface RunWorld {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Seams for tests (the retry policy's sleep); users never set them. */
  adapter?: AdapterOptions;
}

export interface PreparedRun {
  out: string;
  manifest: Manifest;
  rungs: LoadedRung[];
  choice: ModelChoice;
  agent: AgentFactory;
  resume: boolean;
  /** The rung's own factor unless --time-factor overrides it. */
  timeFactorOf: (rung: LoadedRung) => number;
  /** Credentials in the environment (API keys, tokens), scrubbed from every trace. */
  secrets: Secret[];
  /**
   * For a real model (not a replay): makes `ladder doctor`'s first request, and says in one
   * line what failed and what to do when nothing answers. `ladder run` calls it before the
   * results folder exists; preparing alone sends nothing.
   */
  unreachable?: () => Promise<string | undefined>;
  /** The price of the model's tokens (also in the manifest). */
  pricing: Pricing;
  /** The provider's concurrency limiter; absent when no provider is called (synthetic agents, a replay). */
  pace?: AimdLimiter;
  maxCost?: number;
  /** `--agent`: which agent, which version, from where (and a version other than the pinned one), for the run's start. */
  agentLine?: string;
  /** What answers the rungs' judge checks (src/runner/runJudge.ts). */
  judge: JudgeOptions;
}

function positiveInt(flag: string, value: number | undefined, problems: string[]): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) problems.push(`${flag} ${value}: expected a positive integer`);
}

function defaultRunId(now: Date, spec: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${spec.replace(/[^A-Za-z0-9.-]+/g, '-')}`;
}

export async function prepareRun(request: RunRequest, world: RunWorld): Promise<PreparedRun> {
  const problems: string[] = [];
  positiveInt('--passes', request.passes, problems);
  positiveInt('--concurrency', request.concurrency, problems);
  if (request.seed !== undefined && !Number.isSafeInteger(request.seed)) problems.push(`--seed ${request.seed}: expected an integer`);
  if (request.maxCost !== undefined && !(request.maxCost > 0 && Number.isFinite(request.maxCost))) {
    problems.push(`--max-cost ${request.maxCost}: expected an amount in US dollars above 0, e.g. --max-cost 5`);
  }
  if (request.timeFactor !== undefined && !(request.timeFactor > 0 && request.timeFactor <= 1000)) {
    problems.push(`--time-factor ${request.timeFactor}: expected a number above 0 and at most 1000`);
  }
  const attempt = <T>(work: () => T): T | undefined => {
    try {
      return work();
    } catch (error) {
      if (error instanceof ArmError || error instanceof RunUsageError || error instanceof RangeError) problems.push(error.message);
      else throw error;
      return undefined;
    }
  };
  const arms = request.arms === undefined ? undefined : attempt(() => canonicalArms(request.arms!));
  const shard = request.shard === undefined ? undefined : attempt(() => formatShard(parseShard(request.shard!)));
  if (request.resume === true && request.out === undefined) problems.push('--resume: name the run to continue with --out results/<run-id>');
  if (request.replay !== undefined && request.model !== undefined) {
    problems.push('--replay answers as the recorded model did, so it takes no --model; drop one of them');
  }
  if (problems.length > 0) throw new InputError(problems);

  const previous = request.resume === true ? await readPrevious(request.out!, world.cwd) : undefined;
  const replayName = request.replay ?? previous?.replay?.run;
  const recording = replayName === undefined ? undefined : await ReplaySource.open(replayName, world.cwd);
  // What is not given comes from the run being resumed, else from the run being replayed.
  const template = previous ?? recording?.manifest;
  const files = request.rungs.length === 0 && template !== undefined
    ? template.rungs.map((r) => r.file)
    : findRungFiles(request.rungs, world.cwd);
  const rungs = await loadRungFiles(files, world.cwd);
  let choice: ModelChoice;
  let agent: AgentFactory;
  let settings: ModelSettings | undefined;
  let flags: ModelFlags = {};
  let pace: AimdLimiter | undefined;
  try {
    if (recording !== undefined) {
      const { spec, synthetic } = recording.manifest.model;
      choice = { spec, synthetic, reason: `replaying ${replayName}: every model response comes from that recording, no provider is called` };
      agent = recording.agent();
      // What the recorded adapter sent; the replay sends nothing, but its requests are those.
      settings = recording.manifest.model.settings;
    } else {
      choice = previous !== undefined && request.model === undefined
        ? resolveSpec(previous.model.spec, previous.model.reason)
        : await chooseModel(request.model, world);
      flags = modelFlags(request, previous);
      const wrong = flagProblems(choice.synthetic ? 'synthetic' : parseModelSpec(choice.spec).provider, flags);
      if (wrong.length > 0) throw new InputError(wrong);
      // One limiter for the run's provider, shared by every pass's adapter; it starts at the
      // concurrency asked for. Synthetic agents and replays call no provider, so have none.
      if (!choice.synthetic) pace = new AimdLimiter({ max: request.concurrency ?? DEFAULT_MODEL_CONCURRENCY, now: () => performance.now() });
      agent = agentFactory(choice, flags, { ...world.adapter, ...(pace === undefined ? {} : { pace }) });
      settings = modelSettings(choice, flags);
    }
  } catch (error) {
    if (error instanceof ModelSpecError || error instanceof ModelConfigError) throw new InputError([error.message]);
    throw error;
  }
  // --agent, else the agent of the run resumed: the same agent makes the rest of its passes.
  const agentName = request.agent ?? previous?.agent?.file;
  let external: { file: AgentFile; manifest: ManifestAgent; line: string } | undefined;
  if (agentName !== undefined) {
    // Loaded only with --agent: the drivers bring the ACP SDK, which no other run needs.
    const { AgentFileError, loadAgentFile } = await import('../agents/index.ts');
    const { agentLine, agentVersion, locateAgent } = await import('../agents/locate.ts');
    try {
      const file = await loadAgentFile(agentName);
      // The agent cache first, then PATH; the hash is of the file as written, the same on every machine.
      const located = locateAgent(file, world.env);
      const version = await agentVersion(file, located, world.env);
      const found = located.where === 'cache' || located.where === 'path';
      external = {
        file: found ? { ...file, command: located.command } : file,
        manifest: { name: file.name, kind: file.kind, file: agentName, sha256: sha256(JSON.stringify(file)), version: version.version },
        line: agentLine(file, located, version),
      };
    } catch (error) {
      if (error instanceof AgentFileError) throw new InputError(error.problems);
      throw error;
    }
    const inner = agent;
    agent = async (input) => ({ ...(await inner(input)), external: external!.file });
  }
  const pricing = priceRun(request, previous, { spec: choice.spec, synthetic: choice.synthetic, ...(settings === undefined ? {} : { settings }) },
    recording?.manifest.runId, world.cwd);
  const now = world.now?.() ?? new Date();
  const runId = previous?.runId ?? (request.out === undefined ? defaultRunId(now, choice.spec) : request.out.split(/[\\/]/).filter(Boolean).pop()!);
  const out = resolve(world.cwd, request.out ?? join('results', runId));
  const timeFactor = request.timeFactor ?? template?.timeFactor ?? null;
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    runId,
    ladderVersion: LADDER_VERSION,
    gitSha: gitSha(world.cwd),
    node: process.version,
    model: { spec: choice.spec, reason: choice.reason, synthetic: choice.synthetic, ...(settings === undefined ? {} : { settings }), price: pricing },
    arms: arms ?? template?.arms ?? DEFAULT_ARMS,
    passes: request.passes ?? template?.passes ?? DEFAULT_PASSES,
    seed: request.seed ?? template?.seed ?? DEFAULT_SEED,
    timeFactor,
    rungs: rungs.map(({ rung, file, text }) => ({ name: rung.name, file, sha256: sha256(text), timeFactor: timeFactor ?? rung.timeFactor })),
    options: {
      mode: request.mode ?? template?.options.mode ?? 'steps',
      shard: shard ?? previous?.options.shard ?? null,
      // A replay calls no provider: its passes run as fast as synthetic ones.
      concurrency: request.concurrency ?? (choice.synthetic || recording !== undefined ? DEFAULT_SYNTHETIC_CONCURRENCY : DEFAULT_MODEL_CONCURRENCY),
      content: request.redact === 'content' ? 'redacted' : (previous?.options.content ?? 'full'),
      // Kept once asked for: a resume without the flag goes on keeping them.
      ...(request.keepWorkspaces === true || previous?.options.keepWorkspaces === true ? { keepWorkspaces: true } : {}),
    },
    ...(recording === undefined ? {} : { replay: { run: replayName!, runId: recording.manifest.runId } }),
    ...(external === undefined ? {} : { agent: external.manifest }),
    status: 'running',
    startedAt: previous?.startedAt ?? now.toISOString(),
  };
  if (previous !== undefined) {
    const found = differences(previous, manifest, { shard: true });
    // `--agent gemini` on a run of gemini-acp (or the other way): the run goes on with what it recorded.
    const other = request.agent !== undefined && previous.agent !== undefined && request.agent !== previous.agent.file;
    const how = other ? `drop --agent to resume it with the agent file it recorded (${previous.agent!.file}), or start a new run with another --out` : 'start a new run with another --out';
    if (found.length > 0) throw new InputError([`cannot resume ${request.out}: ${found.join('; ')}; ${how}`]);
  } else if (existsSync(out)) {
    throw new InputError([`${request.out ?? out} already exists; continue it with --resume, or choose another --out`]);
  }
  // A judge model a rung names is made now: a missing key is said before the run starts, not as a failed check in every pass.
  if (recording === undefined) {
    for (const { spec, where } of namedJudgeModels(rungs)) {
      try {
        createModel(spec, world.adapter ?? {});
      } catch (error) {
        if (error instanceof ModelConfigError || error instanceof ModelSpecError) throw new InputError([`${where}: ${error.message}`]);
        throw error;
      }
    }
  }
  const judge = runJudgeOptions(out, {
    spec: choice.spec, synthetic: choice.synthetic, flags, world: world.adapter ?? {}, ...(pace === undefined ? {} : { pace }),
    // The judges' verdicts are priced at the run's --prices too (a file priceRun has read already).
    prices: loadPrices(request.prices, world.cwd),
    ...(recording === undefined ? {} : { replayDir: recording.dir }),
  });
  return {
    out, manifest, rungs, choice, agent, resume: previous !== undefined, judge,
    timeFactorOf: (loaded) => timeFactor ?? loaded.rung.timeFactor,
    secrets: credentialsIn(world.env),
    // A replay calls no provider, so there is nothing to reach.
    ...(choice.synthetic || recording !== undefined ? {} : { unreachable: () => unreachable(choice.spec, { ...world.adapter, ...flags }) }),
    pricing,
    ...(pace === undefined ? {} : { pace }),
    ...(request.maxCost === undefined ? {} : { maxCost: request.maxCost }),
    ...(external === undefined ? {} : { agentLine: external.line }),
  };
}

/**
 * The price the run's tokens are counted at: a --prices file, else (on --resume) the price the
 * run was started with, else the shipped table's. --max-cost needs a price to keep to.
 */
function priceRun(
  request: RunRequest, previous: Manifest | undefined, model: Parameters<typeof priceOf>[0], replayOf: string | undefined, cwd: string,
): Pricing {
  let pricing: Pricing;
  try {
    pricing = request.prices === undefined && previous?.model.price !== undefined
      ? previous.model.price
      : priceOf(model, loadPrices(request.prices, cwd), replayOf);
  } catch (error) {
    if (error instanceof PriceFileError) throw new InputError([error.message]);
    throw error;
  }
  if (request.maxCost !== undefined && pricing.status === 'unpriced') {
    throw new InputError([`--max-cost ${request.maxCost}: the run has no price to keep to (${pricing.why})`]);
  }
  return pricing;
}

/** The model flags given, else on --resume the ones the run was made with. */
function modelFlags(request: RunRequest, previous: Manifest | undefined): ModelFlags {
  return {
    ...flagsFromSettings(previous?.model.settings),
    ...(request.baseUrl === undefined ? {} : { baseUrl: request.baseUrl }),
    ...(request.thinking === undefined ? {} : { thinking: parseThinking(request.thinking) }),
    ...(request.numCtx === undefined ? {} : { numCtx: request.numCtx }),
  };
}

/** The run --resume continues; a folder that is missing or not a run is named as typed. */
async function readPrevious(typed: string, cwd: string): Promise<Manifest> {
  const out = resolve(cwd, typed);
  const where = `--resume --out ${typed}`;
  if (!existsSync(out)) {
    throw new InputError([`${where}: no such results folder; name the folder of the run to continue (results/<run-id>), or drop --resume to start a new run there`]);
  }
  if (!existsSync(join(out, MANIFEST))) {
    throw new InputError([`${where}: no manifest.json, so no run to continue; name the folder ladder run wrote (results/<run-id>)`]);
  }
  try {
    return await readManifest(out, typed);
  } catch (error) {
    if (error instanceof ManifestError) throw new InputError([error.message]);
    throw error;
  }
}
