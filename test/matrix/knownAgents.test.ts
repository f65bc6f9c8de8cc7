// The matrix's readers against two agents whose MCP clients are known from their code: the
// tool-loop example (examples/agents/tool-loop-agent.mjs) and the matrix's own known agent
// (test/fixtures/matrix-agent/agent.mjs), which does the opposite wherever a row can tell.
// Each agent meets each scenario's server through the recorder, with a scripted model behind
// the model gateway, as `ladder agents matrix` runs them; every cell is asserted by value, so a
// reader that read the wrong message, or answered the same whatever the agent did, fails here.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentFile } from '../../src/agents/file.ts';
import type { AgentFile } from '../../src/agents/index.ts';
import { SCENARIOS } from '../../src/matrix/index.ts';
import { runScenario } from '../../src/matrix/run.ts';

/** Short enough for a test, longer than the known agent's 1.5 s timeout. */
const WAIT_CAP_S = 4;

const TOOL_LOOP: Record<string, string> = {
  'revision spoken': '2025-11-25',
  'declares elicitation': 'no',
  'tools offered at once': 'yes',
  'a name with a dot': 'as written',
  'a name of 68 characters': 'as written',
  'anyOf in a schema': 'as written',
  'oneOf in a schema': 'as written',
  '$ref in a schema': 'as written',
  'three calls in one model turn': 'one after another',
  resources: 'not listed; not offered to the model',
  prompts: 'not listed; not offered to the model',
  'tools/list in one step': '1 for 2 model requests',
  'works with a 2026-07-28-only server': 'no: its initialize was refused (-32022) and it went no further',
  'isError: true': "the server's text, not marked as an error",
  'a JSON-RPC error': 'no result: the agent failed',
  'structuredContent with text': 'text only',
  'structuredContent alone': 'nothing (empty)',
  'a 100 KB result': 'whole (100 KB)',
  'a 1 MB result': 'whole (1024 KB)',
  'image result': 'as base64 text',
  'a tool added mid-step': 'the next step',
  'a tool changed under its name': 'the next step',
  're-lists on list_changed': 'no',
  'honours ttlMs': 'not asked: a 2025 revision has no ttlMs',
  'tools/list over two steps': '2 for 5 model requests',
  'form elicitation, headless': 'not asked: the model got "Error: Cannot request input \'ask\' (elicitation/create): the …"',
  'url elicitation, headless': 'not asked: the model got "Error: Cannot request input \'ask\' (elicitation/create): the …"',
  'waits for a silent call': `more than ${WAIT_CAP_S} s`,
  'progress extends the wait': 'no: it sends no progress token',
  'cancels when it gives up': `not seen: it waited more than ${WAIT_CAP_S} s`,
  'identical calls, answered': 'no guard within 12 calls',
  'identical calls, failing': 'no guard within 12 calls',
  're-sends a failed call': 'no: the model got "Error: lookup: the catalog is down (MX-DOWN)"',
  'reconnects after the server restarts': 'no: the agent failed',
  're-sends a dropped request': 'no: the agent failed',
};

const KNOWN: Record<string, string> = {
  'revision spoken': '2026-07-28',
  'declares elicitation': 'form',
  'tools offered at once': 'yes',
  'a name with a dot': 'as written',
  'a name of 68 characters': 'as written',
  'anyOf in a schema': 'as written',
  'oneOf in a schema': 'as written',
  '$ref in a schema': 'as written',
  'three calls in one model turn': 'sent at once',
  resources: 'not listed; not offered to the model',
  prompts: 'not listed; not offered to the model',
  'tools/list in one step': '1 for 2 model requests',
  'works with a 2026-07-28-only server': 'yes',
  'isError: true': "the server's text, not marked as an error",
  'a JSON-RPC error': "the server's text, not marked as an error",
  'structuredContent with text': 'structured JSON',
  'structuredContent alone': 'structured JSON',
  'a 100 KB result': 'cut to 64 KB',
  'a 1 MB result': 'cut to 64 KB',
  'image result': 'as text: "[image omitted]"',
  'a tool added mid-step': 'the next request',
  'a tool changed under its name': 'the next request',
  're-lists on list_changed': 'yes (1 listing after)',
  'honours ttlMs': 'no: 2 of 5 model requests used a list older than 2000 ms',
  'tools/list over two steps': '3 for 5 model requests',
  'form elicitation, headless': 'accept',
  'url elicitation, headless': 'not asked: the model got "tool error: Cannot request input \'ask\' (elicitation/create):…"',
  'waits for a silent call': '1.5 s, then closed the request',
  'progress extends the wait': `yes: more than ${WAIT_CAP_S} s with progress, 1.5 s without`,
  'cancels when it gives up': 'yes: it closed the request (2026-07-28 cancels so)',
  'identical calls, answered': 'stopped itself after 2 calls (its loop guard: "loop guard: the same call three times in a row (lookup)")',
  'identical calls, failing': 'stopped itself after 2 calls (its loop guard: "loop guard: the same call three times in a row (lookup)")',
  're-sends a failed call': 'no: the model got "tool failed: lookup: the catalog is down (MX-DOWN)"',
  'reconnects after the server restarts': 'not asked: a 2026-07-28 client has no session',
  're-sends a dropped request': 'yes: 2 sends for 1 asked',
};

let dir: string;
const agents: Record<string, AgentFile> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ladder-known-agents-'));
  agents['tool-loop'] = await loadAgentFile('examples/agents/tool-loop.yaml');
  agents.known = await loadAgentFile('test/fixtures/matrix-agent/agent.yaml');
  // The same agent held to the 2025 revisions, for the row only a session can answer.
  const legacy = join(dir, 'legacy.yaml');
  const agentDir = join(process.cwd(), 'test/fixtures/matrix-agent');
  await writeFile(legacy, `name: matrix-known-legacy\nkind: exec\ncommand: node\nargs: ['${agentDir}/agent.mjs', '{prompt}']\nenv:\n  AGENT_MODEL: '{model}'\n  MCP_MODE: legacy\n`);
  agents.legacy = await loadAgentFile(legacy);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const read = async (agent: string, scenario: string): Promise<Record<string, string>> => {
  const s = SCENARIOS.find((x) => x.name === scenario)!;
  const recording = await runScenario(agents[agent]!, s, { waitCapS: WAIT_CAP_S, tempBase: dir });
  return Object.fromEntries(s.cells(recording).map((c) => [c.row, c.value]));
};
const expected = (table: Record<string, string>, got: Record<string, string>) => Object.fromEntries(Object.keys(got).map((row) => [row, table[row]]));

describe.each([['tool-loop', TOOL_LOOP], ['known', KNOWN]] as const)('the %s agent', (agent, table) => {
  it.each(SCENARIOS.map((s) => s.name))('reads %s as its code does', async (scenario) => {
    const got = await read(agent, scenario);
    expect(got).toEqual(expected(table, got));
  });
});

describe('the known agent held to the 2025 revisions', () => {
  it('opens a new session when the server forgets its own, and the call goes through', async () => {
    expect(await read('legacy', 'restart')).toEqual({ 'reconnects after the server restarts': 'yes: a new session, the call went through' });
  });

  it('speaks 2025-11-25 and is refused by a 2026-07-28-only server', async () => {
    expect(await read('legacy', 'modern-only')).toEqual({ 'works with a 2026-07-28-only server': 'no: its initialize was refused (-32022) and it went no further' });
  });
});
