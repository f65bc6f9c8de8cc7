// The arm's `cap` switch reaches the workbench a pass starts: its jobs_wait is capped when the
// arm's cap is on and uncapped when it is off, whatever the arm's other switches say. The
// workbench's own tests (test/server/waitCap.test.ts) show that the description promises the cap
// exactly when the wait keeps it, so the tools the model is offered say which one it got.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArm } from '../../src/lane/arm.ts';
import { loadRung } from '../../src/rungs/load.ts';
import { runPass } from '../../src/runner/pass.ts';
import { FakeModel } from '../agent/world.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

/** The description of jobs_wait as the model was offered it, in a pass on `arm`. */
async function jobsWaitOffered(arm: string): Promise<string> {
  const tempRoot = await tempDir('ladder-pass-cap-');
  const { rung } = await loadRung(join(import.meta.dirname, 'fixtures/tiny-files.yaml'));
  const model = new FakeModel(() => ({ text: 'done' }));
  const outcome = await runPass({
    rung, id: { rung: rung.name, arm, armSlug: 'arm', pass: 0, seed: 1 }, tracePath: join(tempRoot, 'trace.jsonl'),
    agent: () => ({ model }), timeFactor: 0.01, mode: 'steps', tempRoot,
  });
  expect(outcome).toMatchObject({ interrupted: false, steps: [{ step: 0, reason: 'answered' }] });
  return model.requests[0]!.tools.find((tool) => tool.name === 'wb__jobs_wait')!.description;
}

describe("a pass's workbench wait cap", () => {
  it.each([
    ['cap=on,deadline=off', true],
    ['cap=off,deadline=on', false],
  ])('follows the cap switch of arm %s, not the deadline', async (arm, capped) => {
    const { cap, deadline } = parseArm(arm);
    expect([cap, deadline]).toEqual([capped, !capped]);
    expect((await jobsWaitOffered(arm)).includes('stops waiting after 30 s')).toBe(capped);
  }, 60_000);
});
