// The main job behind `ladder run`: prepare (every input checked before a folder exists), say
// which model and why, run with a bar or plain lines, then write summary.json and print one
// screen of the result (--summary full: the whole comparison of the arms, as ladder compare).
// Exit codes: 0 complete, 1 failed, stopped because passes kept erroring (or all did), or stopped at
// --max-cost (all resumable), 2 bad input or a model that cannot be reached, 130 interrupted.
import { join, relative } from 'node:path';
import { formatUsd, pricingLine } from '../models/prices.ts';
import type { AimdState } from '../models/pace.ts';
import { ladderCommand } from '../runner/invocation.ts';
import { executeRun } from '../runner/run.ts';
import { blame, keepsTraces } from '../runner/streak.ts';
import { DEFAULT_ARMS, prepareRun } from '../runner/prepare.ts';
import type { Protocol } from '../mcp/protocols.ts';
import type { RunRequest, RunWorld } from '../runner/prepare.ts';
import { InputError } from '../runner/rungFiles.ts';
import { runCompare } from './compare.ts';
import { runDocument } from '../report/render/document.ts';
import { renderTerminal } from '../report/render/text.ts';
import { writeSummary } from '../report/summary.ts';
import { plural } from '../report/words.ts';

/** The command line's words: `arms` is still the text the user typed. */
export type RunArgs = Omit<RunRequest, 'rungs' | 'arms'> & {
  rungs?: string[];
  arms?: string;
  /** The MCP revision every arm that sets none speaks (`--protocol`): written into the arms. */
  protocol?: Protocol;
  /** What the run prints when it ends: one screen (short, the default) or the whole comparison (full). */
  summary?: 'short' | 'full';
};

export interface LadderWorld extends Partial<RunWorld> {
  stdout?: (line: string) => void;
  /** Mistakes and errors, one line each; stderr by default. */
  stderr?: (line: string) => void;
  progress?: NodeJS.WritableStream & { isTTY?: boolean };
  signal?: AbortSignal;
  tempBase?: string;
}

/**
 * Arms are split on `;` when one is given (a mechanism list has commas of its own), else on
 * commas: `on,off` is two arms, `on;breaker=off,repeats=off` is two as well.
 */
export function splitArms(text: string): string[] {
  return (text.includes(';') ? text.split(';') : text.split(',')).map((arm) => arm.trim()).filter((arm) => arm !== '');
}

/**
 * `--protocol P` is `protocol=P` added to each arm that does not set its own (the default arms
 * when none are given), so the manifest and every report name the revision as part of the arm.
 */
export function armsWithProtocol(arms: readonly string[], protocol: Protocol): string[] {
  return arms.map((arm) => (/(^|,)\s*protocol\s*=/.test(arm) ? arm : `${arm},protocol=${protocol}`));
}

function request(args: RunArgs): RunRequest {
  const defined = <K extends keyof RunRequest>(key: K, value: RunRequest[K] | undefined) => (value === undefined ? {} : { [key]: value });
  const given = args.arms === undefined ? undefined : splitArms(args.arms);
  const arms = args.protocol === undefined ? given : armsWithProtocol(given ?? DEFAULT_ARMS, args.protocol);
  return {
    rungs: args.rungs ?? [],
    ...defined('model', args.model),
    ...defined('passes', args.passes),
    ...defined('arms', arms),
    ...defined('seed', args.seed),
    ...defined('concurrency', args.concurrency),
    ...defined('out', args.out),
    ...defined('resume', args.resume),
    ...defined('shard', args.shard),
    ...defined('timeFactor', args.timeFactor),
    ...defined('mode', args.mode),
    ...defined('redact', args.redact),
    ...defined('replay', args.replay),
    ...defined('baseUrl', args.baseUrl),
    ...defined('thinking', args.thinking),
    ...defined('numCtx', args.numCtx),
    ...defined('keepWorkspaces', args.keepWorkspaces),
    ...defined('prices', args.prices),
    ...defined('maxCost', args.maxCost),
    ...defined('agent', args.agent),
  };
}

/** Where the provider's concurrency ended, when it moved or was asked for above 1. */
export function concurrencyLine(state: AimdState): string | undefined {
  if (state.max === 1 && state.throttles === 0) return undefined;
  const moves = state.throttles === 0
    ? 'never throttled'
    : `${state.throttles} throttled request${state.throttles === 1 ? '' : 's'}, lowered ${state.decreases} and raised ${state.increases} time${state.increases === 1 ? '' : 's'}, lowest ${state.lowest}`;
  return `concurrency: settled at ${state.level} of ${state.max} (${moves})`;
}

/** Ctrl-C once: stop cleanly (in-flight passes aborted, the run resumable). Twice: stop now. */
function interruptOnSigint(say: (line: string) => void): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130);
    say('interrupted: stopping the passes in flight (Ctrl-C again to quit at once); --resume continues this run');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

export async function runLadder(args: RunArgs, world: LadderWorld = {}): Promise<number> {
  const say = world.stdout ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const complain = world.stderr ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const cwd = world.cwd ?? process.cwd();
  const ladder = ladderCommand(world.env ?? process.env);
  let prepared;
  try {
    prepared = await prepareRun(request(args), {
      cwd, env: world.env ?? process.env, ...(world.fetch ? { fetch: world.fetch } : {}), ...(world.adapter ? { adapter: world.adapter } : {}),
    });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const line of error.lines) complain(`ladder run: ${line}`);
    return 2;
  }
  // Before the results folder exists: a model nobody answers for is one line, not a run of errors.
  const unreachable = await prepared.unreachable?.();
  if (unreachable !== undefined) {
    complain(`ladder run: ${unreachable}`);
    return 2;
  }
  const { manifest } = prepared;
  const inside = relative(cwd, prepared.out);
  const where = inside === '' || inside.startsWith('..') ? prepared.out : inside;
  say(`model: ${manifest.model.spec} (${manifest.model.reason})`);
  if (prepared.agentLine !== undefined) say(prepared.agentLine);
  say(`${prepared.resume ? 'resuming' : 'run'} ${where}: ${plural(manifest.rungs.length, 'rung')} x ${plural(manifest.arms.length, 'arm')} ` +
    `(${manifest.arms.join(', ')}) x ${plural(manifest.passes, 'pass', 'passes')}` +
    `${manifest.options.shard === null ? '' : `, shard ${manifest.options.shard}`}, ${manifest.options.concurrency} at a time`);
  say(`cost: ${pricingLine(prepared.pricing)}${prepared.maxCost === undefined ? '' : `; stops before passing ${formatUsd(prepared.maxCost)} (--max-cost)`}`);
  const sigint = world.signal === undefined ? interruptOnSigint(say) : undefined;
  const signal = world.signal ?? sigint!.signal;
  let result;
  try {
    result = await executeRun(prepared, {
      progress: world.progress ?? process.stderr,
      signal,
      ...(world.tempBase === undefined ? {} : { tempBase: world.tempBase }),
    });
  } finally {
    sigint?.dispose();
  }
  for (const line of result.errors) complain(`ladder run: ${line}`);
  const pace = result.concurrency === undefined ? undefined : concurrencyLine(result.concurrency);
  if (pace !== undefined) say(pace);
  if (result.stopped !== undefined) {
    const { passes, line, by, every, refused } = result.stopped;
    const { who, until } = blame(by, refused === true);
    const what = refused === true ? 'a server refused Ladder\'s protocol, as it would on every pass'
      : every ? `every pass errored (${plural(passes, 'pass', 'passes')}, ${who})` : `${passes} passes in a row errored (${who})`;
    // A diverged replay's passes are kept: resuming would diverge again.
    const next = by.every(keepsTraces) ? `its passes are kept in ${where}; replay ${until}` : `${result.complete}/${result.planned} passes complete in ${where}; ${until}, continue with: ${ladder} run --resume --out ${where}`;
    complain(`ladder run: stopped, ${what}: ${line}; ${next}`);
    return 1;
  }
  if (result.costStop !== undefined) {
    const stop = result.costStop;
    complain(`ladder run: stopped before passing --max-cost ${formatUsd(stop.maxUsd)}: ${formatUsd(stop.spentUsd)} spent, the next pass would cost about ` +
      `${formatUsd(stop.nextUsd)}; ${result.complete}/${result.planned} passes complete in ${where}; ` +
      `continue with: ${ladder} run --resume --out ${where} --max-cost <a higher limit>`);
    return 1;
  }
  if (result.status === 'interrupted') {
    say(`interrupted: ${result.complete}/${result.planned} passes complete in ${where}; continue with: ${ladder} run --resume --out ${where}`);
    return 130;
  }
  if (result.status === 'failed') {
    complain(`ladder run: failed: ${result.complete}/${result.planned} passes complete in ${where}; the errors are above; --resume makes the rest`);
    return 1;
  }
  const summary = await writeSummary(prepared.out);
  // A free model's run says what it spent once its judges spent something.
  const spent = result.spentUsd !== null && (prepared.pricing.status === 'priced' || result.spentUsd > 0);
  say(`complete: ${plural(result.complete, 'pass', 'passes')} in ${where}${spent ? `, ${formatUsd(result.spentUsd)}${result.spentLowerBound === true ? '+' : ''} spent` : ''}`);
  if (args.summary === 'full') {
    // Two or more arms: their comparison (the report layer's renderer); one arm: its own figures.
    const print = (text: string) => say(text.trimEnd());
    if (manifest.arms.length > 1) await runCompare({ runA: prepared.out }, { out: print });
    else print(renderTerminal(runDocument(summary, null)));
    say(`results: ${where}`);
    say(`HTML report with plots: ${ladder} report ${where} (writes ${join(where, 'report.html')})`);
    return 0;
  }
  // One screen: what a user reads; ladder compare (or --summary full) prints the rest.
  const { runEndLines } = await import('../report/output.ts');
  for (const line of await runEndLines(prepared.out, where, ladder)) say(line);
  return 0;
}
