// Tool names as a provider accepts them: [a-zA-Z0-9_-], at most 64 characters.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/call.ts';
import { FUNCTION_NAME_RULE, ToolNames, wireName } from '../../src/models/names.ts';

const RULE = FUNCTION_NAME_RULE;
const hash8 = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 8);
const tool = (name: string) => ({ name, description: '', inputSchema: { type: 'object' } });

describe('wireName', () => {
  it('sends a name the rule allows as it is', () => {
    expect(wireName('wb__read_file-2', RULE)).toBe('wb__read_file-2');
  });

  it('sends any name as it is when the provider has no rule', () => {
    expect(wireName('wb__get.sum', undefined)).toBe('wb__get.sum');
  });

  it('replaces each refused character with _', () => {
    expect(wireName('wb__get.sum/all now', RULE)).toBe('wb__get_sum_all_now');
  });

  it('sends a name of exactly 64 characters as it is, and shortens one of 65 to a prefix and a hash', () => {
    const at = 'a'.repeat(64);
    expect(wireName(at, RULE)).toBe(at);
    const over = 'a'.repeat(65);
    const sent = wireName(over, RULE);
    expect(sent).toBe(`${'a'.repeat(55)}_${hash8(over)}`);
    expect(sent).toHaveLength(64);
  });

  it('hashes the name as listed, so two names cleaned alike still go out apart', () => {
    const dotted = `${'a'.repeat(64)}.x`;
    const spaced = `${'a'.repeat(64)} x`;
    expect(wireName(dotted, RULE)).toBe(`${'a'.repeat(55)}_${hash8(dotted)}`);
    expect(wireName(dotted, RULE)).not.toBe(wireName(spaced, RULE));
  });

  it('gives an empty name a hash', () => {
    expect(wireName('', RULE)).toBe(`_${hash8('')}`);
  });

  it('follows a rule of another length', () => {
    expect(wireName('abcdefghijk', { refused: /[^a-z]/g, maxLength: 10 })).toBe(`a_${hash8('abcdefghijk')}`);
    expect(wireName('abcdefghij', { refused: /[^a-z]/g, maxLength: 10 })).toBe('abcdefghij');
  });
});

describe('ToolNames', () => {
  it('maps each sent name back to its tool, and says which it renamed', () => {
    const names = new ToolNames([tool('wb__get.sum'), tool('wb__ok')], RULE);
    expect(names.toWire('wb__get.sum')).toBe('wb__get_sum');
    expect(names.fromWire('wb__get_sum')).toBe('wb__get.sum');
    expect(names.fromWire('wb__ok')).toBe('wb__ok');
    expect(names.adaptations).toStrictEqual([{ kind: 'name', tool: 'wb__get.sum', sent: 'wb__get_sum' }]);
  });

  it('leaves a name nothing was offered under as it is', () => {
    expect(new ToolNames([tool('wb__a')], RULE).fromWire('wb__zzz')).toBe('wb__zzz');
  });

  it('renames a tool from the history that is no longer offered, the same way', () => {
    expect(new ToolNames([], RULE).toWire('wb__old.tool')).toBe('wb__old_tool');
    expect(new ToolNames([], undefined).toWire('wb__old.tool')).toBe('wb__old.tool');
  });

  it('refuses two tools that would go out under one name, naming both', () => {
    expect(() => new ToolNames([tool('wb__get.sum'), tool('wb__get_sum')], RULE)).toThrow(new ModelConfigError(
      'tools "wb__get.sum" and "wb__get_sum" would both be sent to the provider as "wb__get_sum"; rename one of them or remove its server',
    ));
  });

  it('takes the same tool offered twice as one', () => {
    const names = new ToolNames([tool('wb__get.sum'), tool('wb__get.sum')], RULE);
    expect(names.fromWire('wb__get_sum')).toBe('wb__get.sum');
  });
});
