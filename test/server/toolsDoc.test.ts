// docs/server.md's tool reference is what the workbench lists: regenerate it with
// `npm run docs:tools` when a tool, its description or its arguments change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC, END, START, toolReference, typeWords, withReference } from '../../scripts/tools-doc.ts';
import { TOOL_NAMES } from '../../src/server/tools.ts';

describe('the tool reference in docs/server.md', () => {
  it('is the one the tools generate', async () => {
    const doc = readFileSync(DOC, 'utf8');
    const reference = await toolReference();
    expect(doc.slice(doc.indexOf(START), doc.indexOf(END) + END.length), 'stale: run npm run docs:tools').toBe(reference);
  });

  it('documents every tool the workbench has', async () => {
    const reference = await toolReference();
    for (const name of TOOL_NAMES) expect(reference).toContain(`#### \`${name}\``);
  });

  it('replaces only its own section', () => {
    expect(withReference(`a\n${START}\nold\n${END}\nb\n`, `${START}\nnew\n${END}`)).toBe(`a\n${START}\nnew\n${END}\nb\n`);
  });

  it('says a type in a few words', () => {
    expect(typeWords({ type: 'integer', minimum: 1, maximum: 100 })).toBe('integer 1..100');
    expect(typeWords({ type: 'string', pattern: '^\\d+$' })).toBe('string matching `^\\d+$`');
    expect(typeWords({ enum: ['a', 'b'] })).toBe('one of "a", "b"');
    expect(typeWords({ type: 'array', items: { type: 'string' } })).toBe('list of string');
    expect(typeWords({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string or null');
  });
});
