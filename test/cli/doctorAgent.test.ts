// `ladder doctor --agent`: a real pass through both gateways with the workbench behind them and a
// scripted model, stopped at each stage by a real process that stops there (test/fixtures/agents/).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAgentDoctor } from '../../src/cli/doctor.ts';
import { EXEC_AGENT } from '../agents/helpers.ts';

const DOCTOR_AGENT = new URL('../fixtures/agents/doctor-agent.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'ladder-doctor-agent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agent file in the test's folder; `node` runs the fixture with the given arguments. */
function agentFile(name: string, lines: string[]): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, [`name: ${name}`, 'kind: exec', ...lines].join('\n'));
  return path;
}

async function doctor(file: string): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runAgentDoctor(file, { env: { ...process.env, LADDER_AGENTS_CACHE: join(dir, 'cache') }, tempBase: dir, write: (l) => void lines.push(l), err: (l) => void errors.push(l) });
  return { code, lines, errors };
}

const SLOW = 180_000; // a pass starts the workbench and the agent's Node on a loaded 2-core machine

describe('ladder doctor --agent', () => {
  it('prints every stage ok for an agent that goes all the way (the example harness)', async () => {
    const { code, lines } = await doctor('examples/agents/tool-loop.yaml');
    expect(lines.slice(1, -1).map((l) => l.replace(/\(.*$/, '').trim())).toEqual([
      'ok    found: tool-loop unknown',
      'ok    started: tool-loop',
      'ok    reached the model gateway: OpenAI Chat Completions',
      "ok    listed the MCP gateway's tools: its model was offered 15 of them",
      'ok    called one: wb__catalog_lookup through the MCP gateway, answered ok',
      'ok    answered',
    ]);
    expect(lines.at(-1)).toBe("OK tool-loop works with Ladder's gateways: ladder run --agent examples/agents/tool-loop.yaml will reach it the same way");
    expect(code).toBe(0);
  }, SLOW);

  it('stops at found for an agent that is not installed, naming how to install it', async () => {
    const file = agentFile('absent', ['command: ladder-no-such-agent', "package: 'ladder-no-such-agent@1.0.0'"]);
    const { code, lines } = await doctor(file);
    expect(lines.slice(1)).toEqual([
      `  FAIL  found: ladder-no-such-agent is not installed (not in the agent cache and not found on PATH); install it with: npx ladder agents install ${file}`,
      `FAIL absent: found: ladder-no-such-agent is not installed (not in the agent cache and not found on PATH); install it with: npx ladder agents install ${file}`,
    ]);
    expect(code).toBe(1);
  });

  it('stops at started for an agent that exits non-zero before any model request', async () => {
    const { code, lines } = await doctor(agentFile('crashes', ['command: node', `args: ['${EXEC_AGENT}', fail]`]));
    expect(lines[2]).toBe("  FAIL  started: node exited with code 3; its stderr ended: some progress / fatal: boom; run it by hand to see why, or fix the agent file's command and args");
    expect(lines).toHaveLength(4);
    expect(code).toBe(1);
  }, SLOW);

  it('stops at the model gateway for an agent that answers without asking the model', async () => {
    const { code, lines } = await doctor(agentFile('talks', ['command: node', `args: ['${EXEC_AGENT}', echo, '{prompt}']`]));
    expect(lines[2]).toMatch(/^ {2}ok {4}started: talks \(exec\)/);
    expect(lines[3]).toBe('  FAIL  reached the model gateway: no model request came (the step ended answered); check that the agent file points it at {openaiBaseUrl} or {anthropicBaseUrl} with {apiKey} as its key, and gives it {model}');
    expect(code).toBe(1);
  }, SLOW);

  it("stops at listing for an agent that never offers its model the MCP gateway's tools", async () => {
    const { code, lines } = await doctor(agentFile('blind', ['command: node', `args: ['${DOCTOR_AGENT}', no-tools, '{prompt}']`]));
    expect(lines[3]).toBe('  ok    reached the model gateway: OpenAI Chat Completions (POST /v1/chat/completions), 1 request');
    expect(lines[4]).toMatch(/^ {2}FAIL {2}listed the MCP gateway's tools: its model requests offered none of them \(.*\); check that the agent file gives it the MCP gateway: \{mcpUrl\} with the bearer \{mcpToken\}, or \{mcpConfig\}$/);
    expect(code).toBe(1);
  }, SLOW);

  it('stops at the call for an agent that offers the tools but never calls one', async () => {
    const { code, lines } = await doctor(agentFile('idle', ['command: node', `args: ['${DOCTOR_AGENT}', no-call, '{prompt}']`]));
    expect(lines[4]).toBe("  ok    listed the MCP gateway's tools: its model was offered 15 of them");
    expect(lines[5]).toBe('  FAIL  called one: the model asked for wb__catalog_lookup and no call reached the MCP gateway (the step ended answered); ' +
      "check that the agent may call the gateway's tools without asking (its permission or approval settings)");
    expect(code).toBe(1);
  }, SLOW);

  it('refuses an agent file it cannot read, exit 2', async () => {
    const { code, errors } = await doctor(agentFile('broken', ['command: node', "args: ['{promt}']"]));
    expect(errors[0]).toMatch(/^ladder doctor: .*broken\.yaml:4 args\[0\]: unknown placeholder \{promt\}; did you mean \{prompt\}\?$/);
    expect(code).toBe(2);
  });
});
