// The shipped CLI agents on the ladder (agents/*.yaml): every recipe `ladder agents` calls
// CI-tested (src/agents/tested.ts), and only those, run by Ladder's drivers against both gateways.
// Which run what, for the real-agent step's 15 minutes (docs/build.md, "The real agents in CI"):
// - the acp recipes, which start their agent once a pass, run the quick rung set: three rungs,
//   both arms of each rung's declared effect, the rung's own synthetic pathology behind the model
//   gateway (calibrateAgent.ts says what must hold);
// - the exec recipes, which start it at every step, run the continuity check: one pass of a
//   three-step rung, each step carrying the earlier ones. Their own tests
//   (test/agents-real/<agent>.test.ts) cover both gateways and their wire formats.
import { describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import { CI_TESTED } from '../../src/agents/tested.ts';
import { calibrateAgent, continuityCheck, QUICK } from './calibrateAgent.ts';

const kinds = await Promise.all(CI_TESTED.map(async (agent) => [agent, (await loadAgentFile(agent)).kind] as const));
const ACP = kinds.filter(([, kind]) => kind === 'acp').map(([agent]) => agent);
const EXEC = kinds.filter(([, kind]) => kind === 'exec').map(([agent]) => agent);

it('runs every CI-tested recipe one way or the other', () => {
  expect([...ACP, ...EXEC].sort()).toEqual([...CI_TESTED].sort());
  expect(ACP.length).toBeGreaterThan(0);
  expect(EXEC.length).toBeGreaterThan(0);
});

describe.each(ACP)('%s on three rungs', (agent) => {
  it("shows each rung's declared effect, with whole traces, every step on on answered and the breaker's refusals on on only", async () => {
    await calibrateAgent(agent, agent, QUICK);
  }, 3_600_000);
});

describe.each(EXEC)('%s, the continuity check', (agent) => {
  it('keeps one conversation a pass on a three-step rung (or is read as not keeping it, where it cannot)', async () => {
    await continuityCheck(agent, agent);
  }, 600_000);
});
