// A replay that diverges under an external agent that asks again anyway (a client with retries
// of its own, or one that goes on): the step ends errored naming the FIRST divergence, and every
// later request of the step is answered with it, not with a new comparison.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExternalSteps } from '../../src/runner/external.ts';
import { ProviderError } from '../../src/models/retry.ts';
import { Scrubber } from '../../src/trace/index.ts';
import { agentFile } from '../agents/helpers.ts';
import { FakeModel, world } from '../agent/world.ts';

// Three Chat Completions requests whatever they are answered, each status printed.
const ASKS_THRICE = `
const statuses = [];
for (let i = 0; i < 3; i += 1) {
  const r = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: process.argv[1] }] }) });
  statuses.push(r.status + ' ' + r.headers.get('x-should-retry') + ' ' + (await r.json()).error?.message);
}
console.log(statuses.join('\\n'));
`;

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

describe('a replay that diverged under an external agent', () => {
  it('ends the step errored with the first divergence, and answers the requests after it with the same', async () => {
    const { lane, trace } = await world([]);
    cleanup.push(() => lane.close());
    const model = new FakeModel((_request, n) => {
      throw new ProviderError(`replay of x diverged at step 0 round ${n}: ${n === 1 ? 'tool result 1 differs' : 'the recorded pass made no such request'}`, 'replay_diverged', undefined, 1);
    });
    const root = mkdtempSync(join(tmpdir(), 'ladder-diverged-'));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const file = agentFile({ kind: 'exec', command: process.execPath, args: ['--input-type=module', '-e', ASKS_THRICE, '{prompt}'] });
    const steps = await ExternalSteps.open({
      file, lane, model, emit: trace.emit, scrubber: new Scrubber(), workspace: join(root, 'ws'), scratch: root, prompts: ['go'], clock: () => 0,
    });
    cleanup.push(() => steps.close());
    const result = await steps.runStep({ index: 0, prompt: 'go', ceiling: 5, timeLimitMs: 30_000 });
    expect(result.reason).toBe('errored');
    expect(result.error).toBe('replay of x diverged at step 0 round 1: tool result 1 differs');
    // The model was asked once; the agent got the first divergence three times, each final.
    expect(model.requests).toHaveLength(1);
    expect(result.answer.split('\n')).toEqual(Array(3).fill('400 false replay of x diverged at step 0 round 1: tool result 1 differs'));
    expect(result.rounds).toBe(3);
    const failed = trace.events.filter((e) => e.type === 'model.response');
    expect(failed.map((e) => e.type === 'model.response' && e['error.type'])).toEqual(['replay_diverged', 'replay_diverged', 'replay_diverged']);
  }, 60_000);
});
