// The run's Ctrl-C signal reaches every pass, and the MCP SDK's connect adds an abort listener
// to the signal it is given and never removes it. Given the run's own signal, each server start
// left a listener (and the client it closes over) for the rest of the run: Node warned at the
// 11th, and a long run held every pass's client. Each pass now gets a signal of its own.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { quietRun, removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

it('leaves no listener of a pass on the run\'s signal: twelve server starts, no MaxListenersExceededWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    const out = join(await tempDir('ladder-signal-'), 'run');
    const result = await quietRun({
      rungs: ['test/runner/fixtures/tiny-catalog.yaml'], model: 'synthetic:reference', passes: 6, seed: 5, timeFactor: 0.01, concurrency: 1, out,
    });
    expect(result.code).toBe(0);
    // A warning is emitted on the next tick of the listener that crossed the limit.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
}, 300_000);
