// `ladder rungs validate`: every rung must be solvable and every check able to fail. The
// reference solution (synthetic:reference) runs on arm `on` and every step must pass; an agent
// that does nothing runs too, and every check about what the step produced (files, rows,
// calls made, the order they were made in, the answer) must fail on it. Checks about how the
// work was done (notCalled, maxRepeats, maxCalls, maxRounds, noZeroToolRounds) pass for an
// agent that does nothing by design, so they are checked for whether they can fail at all: a
// tool that exists, a ceiling with room to repeat or to pass the count. A count the reference
// solution itself exceeds is said at the check: the check is too tight, not the rung unsolvable.
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

const OUTCOME_CHECKS = ['file', 'sql', 'called', 'succeeded', 'answer', 'calledWith', 'sequence'] as const;
/** Limits a reference solution can exceed: said at the check, not as an unsolvable rung. */
const COUNT_CHECKS = ['maxCalls', 'maxRounds'] as const;

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
    // Checks naming a tool no server offers: said at the tool, and not again as the reference's failure.
    const saidAt = new Set<string>();
    rung.steps.forEach((step, s) => {
      step.checks.forEach((check, c) => {
        for (const { path, tool } of toolsNamed(check)) {
          if (offered.has(tool)) continue;
          problems.push(`${at(['steps', s, 'checks', c, ...path])}: no server offers ${tool}; ${otherTools(tool, offered)}`);
          saidAt.add(`${s}:${c}`);
        }
      });
    });
    for (const step of reference.steps) {
      if (step.passed) continue;
      const checks = rung.steps[step.step]?.checks ?? [];
      const failed: string[] = [];
      step.checks.forEach((result, c) => {
        if (result.passed || saidAt.has(`${step.step}:${c}`)) return;
        const kind = checks[c] === undefined ? '' : kindOf(checks[c]);
        // A judge is a model, and validate asks none: a judge check is neither proven solvable nor
        // able to fail here. `ladder judge agreement` is what says whether to trust it.
        if (kind === 'judge') return;
        if ((COUNT_CHECKS as readonly string[]).includes(kind)) {
          problems.push(`${at(['steps', step.step, 'checks', c, kind])}: too tight: the reference solution of step ${step.step} fails it: ${result.why}`);
        } else {
          failed.push(`${result.check}: ${result.why}`);
        }
      });
      // Every failed check said elsewhere: the step is solvable once they are fixed.
      if (failed.length === 0 && step.reason === 'answered') continue;
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
  // The ceiling stops a step at exactly `ceiling` calls. No such bound is put on maxRounds: an
  // external agent makes model requests that call no tool (a session title, a memory pass).
  if ('maxCalls' in check && ceiling <= check.maxCalls) {
    return `the ceiling (${ceiling}) ends the step before it makes more than ${check.maxCalls} call${check.maxCalls === 1 ? '' : 's'}`;
  }
  return undefined;
}

/** The tools a check names that a server must offer for it to mean anything, each with its path in the check. */
function toolsNamed(check: Check): { path: (string | number)[]; tool: string }[] {
  if ('calledWith' in check) return [{ path: ['calledWith', 'tool'], tool: check.calledWith.tool }];
  if ('sequence' in check) {
    const list = Array.isArray(check.sequence);
    const tools = Array.isArray(check.sequence) ? check.sequence : check.sequence.tools;
    return tools.map((tool, i) => ({ path: list ? ['sequence', i] : ['sequence', 'tools', i], tool }));
  }
  return [];
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
