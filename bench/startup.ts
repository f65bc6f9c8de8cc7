// Start-up, each against a floor measured in the same run (bench/processes.ts pairs them):
// - cliHelpRatio: `ladder --help` (bin/ladder.js on a fresh build) against `node -e 0`;
// - serveReadyRatio: spawn to an answered `initialize` over stdio, the workbench as a pass
//   starts it (dist/workbench.js, the lane's parent watch preloaded) against the least MCP
//   SDK server there is (bench/fixtures/minimalServer.js, one tool) started the same way.
// Wall time: a process's start-up is what a user and a run wait for. The floor is written as
// the SDK's users write one, unbundled; serveReadyRatioBundled compares with the same floor
// bundled as the workbench is, which leaves what the workbench itself adds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledMinimalServer, ensureBuilt, MINIMAL_SERVER, paired, round2, round3, timeReady, timeRun } from './processes.ts';

export interface StartupBenchOptions {
  rounds?: number;
}

export async function benchStartup(options: StartupBenchOptions = {}): Promise<Record<string, number>> {
  const rounds = options.rounds ?? 20;
  await ensureBuilt();
  const help = await paired(rounds, () => timeRun(['bin/ladder.js', '--help']), () => timeRun(['-e', '0']));
  const workspace = mkdtempSync(join(tmpdir(), 'ladder-bench-serve-'));
  let ready;
  let readyBundled;
  try {
    const bundledFloor = await bundledMinimalServer(workspace);
    const workbench = ['dist/workbench.js', JSON.stringify({ workspace })];
    ready = await paired(rounds, () => timeReady(workbench), () => timeReady([MINIMAL_SERVER]));
    readyBundled = await paired(rounds, () => timeReady(workbench), () => timeReady([bundledFloor]));
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  return {
    cliHelpRatio: round3(help.ratio),
    cliHelpMs: round2(help.a),
    nodeBareMs: round2(help.b),
    serveReadyRatio: round3(ready.ratio),
    serveReadyMs: round2(ready.a),
    serveReadyFloorMs: round2(ready.b),
    serveReadyRatioBundled: round3(readyBundled.ratio),
    serveReadyBundledFloorMs: round2(readyBundled.b),
    startupBenchRounds: rounds,
  };
}
