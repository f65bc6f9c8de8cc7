// What recording the conversation costs on disk: trace bytes per pass for the default rungs
// (synthetic:mix, both arms, time factor 0.01), with the conversation (trace format 2, the
// default) against `--redact content`, which keeps what format 1 kept plus a hash per message.
// The redacted run is the floor, measured in the same process on the same passes.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runLadder } from '../src/cli/runLadder.ts';
import { listTraces } from '../src/results/store.ts';

/** Passes per rung and arm: bytes per pass is an average, steady well before the default 10. */
const PASSES = 2;

async function bytesPerPass(redact: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-traces-'));
  try {
    const out = join(dir, 'run');
    const quiet = new PassThrough();
    quiet.resume();
    const code = await runLadder(
      { model: 'synthetic:mix', passes: PASSES, out, timeFactor: 0.01, ...(redact ? { redact: 'content' as const } : {}) },
      { stdout: () => undefined, progress: quiet, signal: new AbortController().signal },
    );
    if (code !== 0) throw new Error(`bench traces: ladder run exited ${code}`);
    const files = await listTraces(out);
    const bytes = files.reduce((sum, file) => sum + statSync(join(out, 'traces', file)).size, 0);
    return Math.round(bytes / files.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTraces(): Promise<Record<string, number>> {
  const full = await bytesPerPass(false);
  const redacted = await bytesPerPass(true);
  return { traceBytesPerPass: full, traceBytesPerPassRedacted: redacted, traceContentRatio: Math.round((full / redacted) * 100) / 100 };
}
