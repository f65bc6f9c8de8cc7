// `ladder agents matrix`: each agent through each scenario, its cells read from what was
// recorded. An agent that cannot be started says so in each of its cells; one scenario that
// fails on Ladder's side says so in that scenario's cells; neither stops the table.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentFile } from '../agents/index.ts';
import { agentVersion, locateAgent } from '../agents/locate.ts';
import { notInstalledLine } from '../agents/faults.ts';
import type { Cell } from './recording.ts';
import { runScenario } from './run.ts';
import { SCENARIOS } from './scenarios.ts';
import type { Scenario } from './scenarios.ts';

export { SCENARIOS } from './scenarios.ts';
export type { Scenario } from './scenarios.ts';

/** A row of the table: the family it answers, its scenario, its name. */
export interface MatrixRow {
  readonly family: string;
  readonly scenario: string;
  readonly row: string;
}

export interface MatrixAgent {
  readonly name: string;
  readonly kind: 'exec' | 'acp';
  readonly version: string;
}

export interface Matrix {
  readonly date: string;
  /** The longest a slow call was held, s: a wait past it reads "more than". */
  readonly waitCapS: number;
  readonly agents: readonly MatrixAgent[];
  readonly rows: readonly MatrixRow[];
  /** agent -> row -> cell (evidence included). */
  readonly cells: Readonly<Record<string, Readonly<Record<string, Omit<Cell, 'row'>>>>>;
}

export interface MatrixOptions {
  waitCapS: number;
  /** Agent x scenario runs at once: the slow scenario waits in real time, so two halve its cost. */
  concurrency?: number;
  /** Where each run's recording is written (the cells' evidence), when given. */
  recordings?: string;
  env?: Readonly<Record<string, string | undefined>>;
  progress?: (line: string) => void;
  tempBase?: string;
  date?: string;
}

/** The rows a scenario makes, read from an empty recording: the row names, in order. */
export function rowsOf(scenarios: readonly Scenario[]): MatrixRow[] {
  return scenarios.flatMap((s) => s.cells({ scenario: s.name, agent: '', era: s.era, wire: [], turns: [], steps: [], waitCapS: 0, marks: {} })
    .map((c) => ({ family: s.family, scenario: s.name, row: c.row })));
}

async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
    while (next < items.length) await work(items[(next += 1) - 1]!);
  }));
}

export async function runMatrix(files: readonly AgentFile[], scenarios: readonly Scenario[], options: MatrixOptions): Promise<Matrix> {
  const env = options.env ?? process.env;
  const say = options.progress ?? (() => undefined);
  const rows = rowsOf(scenarios);
  const cells: Record<string, Record<string, Omit<Cell, 'row'>>> = {};
  const agents: MatrixAgent[] = [];
  const jobs: { file: AgentFile; scenario: Scenario }[] = [];
  for (const file of files) {
    const located = locateAgent(file, env);
    cells[file.name] = {};
    // An agent that is a package of its own (the SDK examples) needs its packages installed beside it.
    const packages = existsSync(join(file.dir, 'package.json')) && !existsSync(join(file.dir, 'node_modules'));
    if (located.where === 'missing' || packages) {
      const how = packages ? `its packages are not installed: npm ci --prefix ${file.dir}` : notInstalledLine(file, file.command);
      agents.push({ name: file.name, kind: file.kind, version: 'not installed' });
      for (const r of rows) cells[file.name]![r.row] = { value: 'not run: not installed', key: 'not installed', evidence: how };
      say(`ladder agents matrix: ${file.name}: not installed, its column says so (${how})`);
      continue;
    }
    const version = await agentVersion(file, located, env);
    agents.push({ name: file.name, kind: file.kind, version: version.version });
    const runnable = located.where === 'file' ? file : { ...file, command: located.command };
    for (const scenario of scenarios) jobs.push({ file: runnable, scenario });
  }
  let done = 0;
  await pool(jobs, options.concurrency ?? 1, async ({ file, scenario }) => {
    const started = Date.now();
    let made: Cell[];
    try {
      const recording = await runScenario(file, scenario, { waitCapS: options.waitCapS, ...(options.tempBase === undefined ? {} : { tempBase: options.tempBase }) });
      made = scenario.cells(recording);
      if (options.recordings !== undefined) {
        await mkdir(options.recordings, { recursive: true });
        await writeFile(join(options.recordings, `${file.name}.${scenario.name}.json`), `${JSON.stringify(recording)}\n`);
      }
    } catch (error) {
      const why = (error as Error).message.split('\n')[0]!;
      made = rowsOf([scenario]).map((r) => ({ row: r.row, value: `not run: Ladder's side failed (${why})`, key: 'not run', evidence: why }));
    }
    for (const c of made) cells[file.name]![c.row] = { value: c.value, key: c.key, evidence: c.evidence };
    done += 1;
    say(`ladder agents matrix: [${done}/${jobs.length}] ${file.name} / ${scenario.name}: ${made.length} cells in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
  return { date: options.date ?? new Date().toISOString().slice(0, 10), waitCapS: options.waitCapS, agents, rows, cells };
}
