// Paired, rotated rounds of calls over several paths, in one process: every round times a batch
// of each path, the order rotating by one each round, so a shared machine's drift (another
// process, JIT, GC) hits every path alike, and a figure is the median of per-round ratios.
//
// Each path over stdio must have a server process of its own. A batch sent to a server that sat
// idle while the other paths ran starts slower than one sent to a server that just answered: with
// two paths sharing a server (the raw client and its floor, as these benches once had them) and
// the lane on another, the lane paid that start every batch and the floor never did, which read as
// 60 to 100 us a call of "lane overhead" that was the bench's own (docs/lane.md, "The floor").
import { median, round2, round3 } from './processes.ts';

export type Call = (id: number) => Promise<unknown>;

/** Wall and CPU microseconds per call of one batch. CPU time is the client process's alone. */
export interface Batch {
  wall: number;
  cpu: number;
}

export async function timeBatch(calls: number, base: number, call: Call): Promise<Batch> {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) await call(base + i);
  const wall = ((performance.now() - started) * 1000) / calls;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / calls };
}

export interface PairedOptions {
  rounds: number;
  callsPerRound: number;
  warmupRounds: number;
  /** Run before each round (a lane's openTurn, a gateway's step). */
  beforeRound?: (round: number) => Promise<void>;
}

/** Each path's batches, round by round (warm-up rounds left out). */
export async function pairedRounds<P extends string>(paths: Record<P, Call>, options: PairedOptions): Promise<Record<P, Batch[]>> {
  const names = Object.keys(paths) as P[];
  const out = Object.fromEntries(names.map((name) => [name, [] as Batch[]])) as Record<P, Batch[]>;
  for (let r = 0; r < options.warmupRounds + options.rounds; r += 1) {
    await options.beforeRound?.(r);
    const base = r * options.callsPerRound;
    const round = {} as Record<P, Batch>;
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + r) % names.length]!;
      round[name] = await timeBatch(options.callsPerRound, base, paths[name]);
    }
    if (r < options.warmupRounds) continue;
    for (const name of names) out[name].push(round[name]);
  }
  return out;
}

/** The median over rounds of a's time over b's, wall or CPU, to three places. */
export function ratioOf(a: Batch[], b: Batch[], of: keyof Batch = 'wall'): number {
  return round3(median(a.map((x, i) => x[of] / b[i]![of])));
}

/** The median over rounds of a path's microseconds per call, to two places. */
export function microsOf(batches: Batch[], of: keyof Batch = 'wall'): number {
  return round2(median(batches.map((x) => x[of])));
}
