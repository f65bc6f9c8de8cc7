// How an external agent's names for the gateway's tools are matched, and what a synthetic
// policy is shown of an agent's request (docs/agent.md, "How names are matched").
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/models/types.ts';
import { gatewayNames, matchGatewayName, syntheticView } from '../../src/runner/externalNames.ts';

const GATEWAY = ['wb__files_read', 'files_read', 'harness__refresh_tools'];

describe('matching names', () => {
  it.each([
    ['wb__files_read', 'wb__files_read'],
    ['mcp__ladder__wb__files_read', 'wb__files_read'],
    ['ladder_wb__files_read', 'wb__files_read'],
    ['ladder.wb__files_read', 'wb__files_read'],
    ['ladder/wb__files_read', 'wb__files_read'],
    ['ladder-wb__files_read', 'wb__files_read'],
    ['ladder:wb__files_read', 'wb__files_read'],
    ['mcp__ladder__files_read', 'files_read'],
    ['mcp__ladder__harness__refresh_tools', 'harness__refresh_tools'],
  ])('finds %s as %s', (offered, gateway) => {
    expect(matchGatewayName(offered, GATEWAY)).toBe(gateway);
  });

  it.each(['exec_command', 'xfiles_read', 'wb__files_read_more', 'files_reads', ''])('takes %s as the agent\'s own tool', (offered) => {
    expect(matchGatewayName(offered, GATEWAY)).toBeUndefined();
  });

  it('maps each gateway tool to the first name offered for it, both ways', () => {
    const map = gatewayNames(['exec_command', 'mcp__ladder__wb__files_read', 'other__wb__files_read'], GATEWAY);
    expect([...map.toGateway]).toEqual([['mcp__ladder__wb__files_read', 'wb__files_read']]);
    expect([...map.toAgent]).toEqual([['wb__files_read', 'mcp__ladder__wb__files_read']]);
  });
});

describe("a synthetic policy's view of an agent's request", () => {
  it('gets the step prompts the agent carried as its user messages, then what followed the last user message, under gateway names', () => {
    const request: ModelRequest = {
      messages: [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: '<environment_context>cwd=/tmp/x</environment_context>' },
        { role: 'user', content: 'Task: First step.' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Read the file.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'mcp__ladder__wb__files_read', args: { path: 'a' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'mcp__ladder__wb__files_read', content: 'text' },
      ],
      tools: [
        { name: 'exec_command', description: 'shell', inputSchema: { type: 'object' } },
        { name: 'mcp__ladder__wb__files_read', description: 'read', inputSchema: { type: 'object' } },
      ],
    };
    const names = gatewayNames(request.tools.map((t) => t.name), GATEWAY);
    expect(syntheticView(request, ['First step.', 'Read the file.'], names)).toEqual({
      messages: [
        { role: 'user', content: 'First step.' },
        { role: 'user', content: 'Read the file.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'wb__files_read', args: { path: 'a' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'wb__files_read', content: 'text' },
      ],
      tools: [{ name: 'wb__files_read', description: 'read', inputSchema: { type: 'object' } }],
    });
  });

  it("shows an agent that dropped the earlier steps only the step's own prompt, as a model that lost them would read it", () => {
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: '<environment_context>cwd=/tmp/x</environment_context>' },
        { role: 'user', content: 'Tag that commit.' },
      ],
      tools: [],
    };
    const names = gatewayNames([], GATEWAY);
    expect(syntheticView(request, ['Find the commit.', 'Tag that commit.'], names).messages).toEqual([{ role: 'user', content: 'Tag that commit.' }]);
    // Of three steps, the one it kept.
    const kept: ModelRequest = { messages: [{ role: 'user', content: 'Find the commit.' }, { role: 'user', content: 'Push it.' }], tools: [] };
    expect(syntheticView(kept, ['Find the commit.', 'Tag that commit.', 'Push it.'], names).messages.map((m) => m.content)).toEqual(['Find the commit.', 'Push it.']);
  });
});
