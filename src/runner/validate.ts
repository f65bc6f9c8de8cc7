// `ladder rungs validate`: every rung must be solvable and every check able to fail. The
// reference solution (synthetic:reference) runs on arm `on` and every step must pass; an agent
// that does nothing runs too, and every check about what the step produced (files, rows,
// calls made, the answer) must fail on it. Checks about how the work was done (notCalled,
// maxRepeats, noZeroToolRounds) pass for an agent that does nothing by design, so they are
// checked for whether they can fail at all: a tool that exists, a ceiling with room to repeat.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineOfPath } from '../rungs/load.ts';
import type { LoadedRung } from '../rungs/load.ts';
import type { Check } from '../rungs/schema.ts';
import { agentFactory, idleAgent } from './agents.ts';
import type { AgentFactory } from './agents.ts';
import { runPass } from './pass.ts';
import type { PassInput, PassOutcome } from './pass.ts';
import { armSlug } from './plan.ts';
import { passSeed } from './seeds.ts';

/** Solvability does not depend on wall-clock time, so validation runs long waits at 1/100. */
export const VALIDATE_TIME_FACTOR = 0.01;
const VALIDATE_SEED = 1;

const OUTCOME_CHECKS = ['file', 'sql', 'called', 'succeeded', 'answer'] as const;

function kindOf(check: Check): string {
  return Object.keys(check)[0]!;
}

export interface ValidateOptions {
  timeFactor?: number;
  tempBase?: string;
  /** Called once per rung as it is done, with its problems ([] when valid). */
  onRung?: (file: string, problems: string[]) => void;
}

type Watch = Pick<PassInput, 'onTools' | 'onCall'>;

async function runOnce(loaded: LoadedRung, agent: AgentFactory, timeFactor: number, tempRoot: string, label: string, watch: Watch = {}): Promise<PassOutcome> {
  const seed = passSeed(VALIDATE_SEED, loaded.rung.name, 0);
  return runPass({
    rung: loaded.rung,
    id: { rung: loaded.rung.name, arm: 'on', armSlug: armSlug('on'), pass: 0, seed },
    tracePath: join(tempRoot, `${loaded.rung.name}.${label}.jsonl`),
    agent, timeFactor, mode: 'steps', tempRoot, ...watch,
  });
}

/** A tool's error as it said it, on one line and short enough to read beside the rest. */
const TOOL_TEXT_CHARS = 200;
function toolWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > TOOL_TEXT_CHARS ? `${flat.slice(0, TOOL_TEXT_CHARS)}…` : flat);
}

/** What a reference call to a tool no server offers should have named: that server's tools, or the servers. */
function otherTools(tool: string, offered: ReadonlySet<string>): string {
  const server = tool.split('__')[0]!;
  const same = [...offered].filter((name) => name.startsWith(`${server}__`)).sort();
  if (same.length > 0) return `${server} offers ${same.join(', ')}`;
  const servers = [...new Set([...offered].map((name) => name.split('__')[0]!).filter((name) => name !== 'harness'))].sort();
  return servers.length === 0 ? 'no server offers any tool' : `there is no server ${server} (the servers are ${servers.join(', ')})`;
}

/** One line per problem of one rung; [] when it is valid. */
export async function validateRung(loaded: LoadedRung, options: ValidateOptions = {}): Promise<string[]> {
  const { file, text, rung } = loaded;
  const timeFactor = options.timeFactor ?? VALIDATE_TIME_FACTOR;
  const tempRoot = await mkdtemp(join(options.tempBase ?? tmpdir(), 'ladder-validate-'));
  const at = (path: (string | number)[]) => `${file}:${lineOfPath(text, path)} ${path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')}`;
  const problems: string[] = [];
  try {
    const offered = new Set<string>();
    // Turn i is step i; each reference call that did not succeed, with the tool's own words.
    const failedCalls: { name: string; text: string }[][] = [];
    const reference = await runOnce(loaded, agentFactory({ spec: 'synthetic:reference', reason: 'validate', synthetic: true, policy: 'reference' }),
      timeFactor, tempRoot, 'reference', {
        onTools: (names) => {
          names.forEach((n) => offered.add(n));
          failedCalls.push([]);
        },
        onCall: (name, result) => {
          if (result.outcome !== 'ok') failedCalls.at(-1)?.push({ name, text: `${result.outcome}: ${toolWords(result.text)}` });
        },
      });
    if (reference.error !== undefined) return [`${file}: cannot run: ${reference.error}`];
    rung.steps.forEach((step, s) => {
      step.reference.calls.forEach((call, c) => {
        if (!offered.has(call.tool)) problems.push(`${at(['steps', s, 'reference', 'calls', c, 'tool'])}: no server offers ${call.tool}; ${otherTools(call.tool, offered)}`);
      });
    });
    for (const step of reference.steps) {
      if (step.passed) continue;
      const failed = step.checks.filter((c) => !c.passed).map((c) => `${c.check}: ${c.why}`);
      const why = failed.length > 0 ? failed.join('; ') : `it ended at ${step.reason}`;
      const calls = (failedCalls[step.step] ?? []).filter((call) => offered.has(call.name)).map((call) => `; its call ${call.name} ${call.text}`);
      problems.push(`${at(['steps', step.step, 'reference'])}: not solvable: the reference solution fails step ${step.step}: ${why}${calls.join('')}`);
    }
    const idle = await runOnce(loaded, idleAgent, timeFactor, tempRoot, 'idle');
    if (idle.error !== undefined) return [...problems, `${file}: cannot run: ${idle.error}`];
    rung.steps.forEach((step, s) => {
      step.checks.forEach((check, c) => {
        const where = at(['steps', s, 'checks', c]);
        const kind = kindOf(check);
        if ((OUTCOME_CHECKS as readonly string[]).includes(kind)) {
          if (idle.steps[s]?.checks[c]?.passed === true) problems.push(`${where}: cannot fail: it passes for an agent that does nothing`);
          return;
        }
        const why = cannotFail(check, step.ceiling, offered);
        if (why !== undefined) problems.push(`${where}: cannot fail: ${why}`);
      });
    });
  } finally {
    await rm(tempRoot, { recursive: true, force: true });
  }
  return problems;
}

/** Why a check about how the work was done can never fail in this rung, or undefined. */
function cannotFail(check: Check, ceiling: number, offered: ReadonlySet<string>): string | undefined {
  if ('notCalled' in check && !offered.has(check.notCalled)) return `no server offers ${check.notCalled}, so it is never called`;
  // Repeats are identical calls beyond the first: exceeding K takes K + 2 calls.
  if ('maxRepeats' in check && ceiling < check.maxRepeats + 2) {
    return `the ceiling (${ceiling}) leaves no room for more than ${check.maxRepeats} repeat${check.maxRepeats === 1 ? '' : 's'}`;
  }
  return undefined;
}

/** Rungs validated at once: each runs two passes, mostly waiting for servers to start. */
export const VALIDATE_CONCURRENCY = 3;

/** Runs at most `n` of the given tasks at once, in the order they are asked for. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    while (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

/** Every rung's problems, reported rung by rung in the order given. */
export async function validateRungs(rungs: readonly LoadedRung[], options: ValidateOptions = {}): Promise<string[]> {
  const limit = limiter(VALIDATE_CONCURRENCY);
  const results = rungs.map((loaded) => limit(() => validateRung(loaded, options)));
  // Settled up front so a rejection is never unhandled while an earlier rung is awaited.
  results.forEach((result) => result.catch(() => undefined));
  const problems: string[] = [];
  for (const [i, loaded] of rungs.entries()) {
    const found = await results[i]!;
    options.onRung?.(loaded.file, found);
    problems.push(...found);
  }
  return problems;
}
