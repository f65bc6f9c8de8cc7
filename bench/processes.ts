// Timing whole processes for the start-up benchmarks: wall time from spawn, in paired rounds
// against a baseline measured in the same run (A B, then B A, ...), so that the drift of a
// shared machine hits both sides alike; the figure is the median of the per-round ratios.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import { buildState } from '../bin/build-state.js';
import { buildLadder } from '../scripts/build.js';
import { spawnArgs } from '../src/lane/connections.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;
export const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The build the `ladder` command runs, made first if src/ changed since (so the figures are of these sources). */
export async function ensureBuilt(): Promise<void> {
  if (buildState(ROOT) !== 'fresh') await buildLadder();
}

/** The floor server as users write it (bench/fixtures/minimalServer.js: one tool, unbundled). */
export const MINIMAL_SERVER = 'bench/fixtures/minimalServer.js';

/** The same server bundled as the workbench is (dist/), written into `dir`; returns its path. */
export async function bundledMinimalServer(dir: string): Promise<string> {
  const outfile = join(dir, 'minimalServer.js');
  await build({
    entryPoints: [join(ROOT, MINIMAL_SERVER)], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning',
  });
  return outfile;
}

/** Milliseconds from spawning `node <args>` to its exit; its output is discarded. */
export async function timeRun(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench: node ${args.join(' ')} exited ${code}`);
  return performance.now() - started;
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
})}\n`;

/** Milliseconds from spawning a stdio server to its answer to `initialize`; then it is stopped. */
export async function timeReady(args: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, spawnArgs(process.execPath, args), { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = once(child, 'exit');
  child.stdin.write(INITIALIZE);
  let seen = '';
  for await (const chunk of child.stdout) {
    seen += String(chunk);
    if (seen.includes('\n')) break;
  }
  const ms = performance.now() - started;
  if (!seen.includes('"result"')) throw new Error(`bench: no initialize result from node ${args.join(' ')}: ${seen}`);
  child.stdin.end();
  child.kill('SIGTERM');
  await exited;
  return ms;
}

export interface Paired {
  ratio: number;
  a: number;
  b: number;
}

/** `rounds` measurements of each, in alternating order after `warmup` unrecorded pairs. */
export async function paired(rounds: number, a: () => Promise<number>, b: () => Promise<number>, warmup = 2): Promise<Paired> {
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < warmup + rounds; r += 1) {
    let ta: number;
    let tb: number;
    if (r % 2 === 0) {
      ta = await a();
      tb = await b();
    } else {
      tb = await b();
      ta = await a();
    }
    if (r < warmup) continue;
    ratios.push(ta / tb);
    as.push(ta);
    bs.push(tb);
  }
  return { ratio: median(ratios), a: median(as), b: median(bs) };
}
