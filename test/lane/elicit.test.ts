// A server's request for input, through the lane, in both MCP eras: the SDK v2 fixture server's
// `deploy` asks the user to confirm (an input_required result in 2026-07-28; an
// elicitation/create request in 2025, which the SDK makes of the same handler). The lane answers
// from the declared answers, declines what none matches, and records each request.
import { describe, expect, it } from 'vitest';
import { answerFor } from '../../src/lane/elicit.ts';
import { Lane } from '../../src/lane/index.ts';
import type { DeclaredAnswer } from '../../src/lane/elicit.ts';
import type { TraceEventInput } from '../../src/trace/index.ts';
import { v2Stdio } from '../helpers/v2Server.ts';

const CONFIRM: DeclaredAnswer[] = [{ message: 'Deploy to staging', action: 'accept', content: { confirm: true } }];

async function deploy(protocol: 'legacy' | '2026-07-28', env: string, elicit: readonly DeclaredAnswer[] | undefined) {
  const events: TraceEventInput[] = [];
  await using lane = await Lane.connect({ servers: { v2: { ...v2Stdio('dual'), protocol } }, emit: (e) => events.push(e), ...(elicit === undefined ? {} : { elicit }) });
  expect(lane.startErrors).toEqual([]);
  await lane.openTurn();
  const result = await lane.call('v2__deploy', { env }, { round: 1 });
  return { result, asked: events.filter((e) => e.type === 'elicitation') };
}

describe.each(['legacy', '2026-07-28'] as const)('a server that asks for input, over %s', (protocol) => {
  it('is answered from the declared answers, and the request is recorded with its turn', async () => {
    const { result, asked } = await deploy(protocol, 'staging', CONFIRM);
    expect(result).toMatchObject({ outcome: 'ok', text: 'deployed to staging' });
    expect(asked).toEqual([{
      type: 'elicitation', 'mcp.method.name': 'elicitation/create', server: 'v2', turn: 1,
      message: 'Deploy to staging?', action: 'accept', declared: true, content: { confirm: true },
    }]);
  });

  it('is declined when no declared answer matches, and the server goes on without it', async () => {
    const { result, asked } = await deploy(protocol, 'production', CONFIRM);
    expect(result).toMatchObject({ outcome: 'ok', text: 'not deployed (decline)' });
    expect(asked).toEqual([expect.objectContaining({ message: 'Deploy to production?', action: 'decline', declared: false })]);
    expect(asked[0]).not.toHaveProperty('content');
  });
});

describe('answerFor', () => {
  it('takes the first answer whose message occurs in the request, and sends content with accept only', () => {
    const declared: DeclaredAnswer[] = [
      { message: 'production', action: 'decline' },
      { message: 'Deploy', action: 'accept', content: { confirm: true } },
      { message: 'Deploy', action: 'cancel' },
    ];
    expect(answerFor({ message: 'Deploy to production?' }, declared)).toEqual({ answer: { action: 'decline' }, declared: true });
    expect(answerFor({ message: 'Deploy to staging?' }, declared)).toEqual({ answer: { action: 'accept', content: { confirm: true } }, declared: true });
    expect(answerFor({ message: 'Delete it?' }, declared)).toEqual({ answer: { action: 'decline' }, declared: false });
    expect(answerFor({ message: 'Deploy?' }, [{ message: 'Deploy', action: 'accept' }])).toEqual({ answer: { action: 'accept', content: {} }, declared: true });
  });
});
