// The two rewrites behind the strict-server tests, at their edges: schema flattening and name
// shortening.
import { describe, expect, it } from 'vitest';
import { ModelConfigError } from '../../src/models/index.ts';
import { FUNCTION_NAME_RULE, ToolNames, wireName } from '../../src/models/names.ts';
import { adaptSchema } from '../../src/models/schema.ts';

describe('adaptSchema', () => {
  it('makes a property two variants define differently an anyOf of both, and skips variants that are not objects', () => {
    const { schema } = adaptSchema('anthropic', {
      type: 'object',
      oneOf: [
        { properties: { id: { type: 'integer' } }, required: ['id'] },
        { properties: { id: { type: 'string' } }, required: ['id'] },
        true,
      ],
    });
    expect(schema).toStrictEqual({ type: 'object', properties: { id: { anyOf: [{ type: 'integer' }, { type: 'string' }] } }, required: ['id'] });
  });

  it('flattens unions one after another and keeps only required names that exist', () => {
    const { schema, changes } = adaptSchema('openai', {
      type: 'object',
      required: ['ghost'],
      anyOf: [{ properties: { a: { type: 'string' } } }],
      allOf: [{ properties: { b: { type: 'string' } }, required: ['b'] }],
    });
    expect(schema).toStrictEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['b'] });
    expect(changes).toStrictEqual([
      'flattened the top-level anyOf of 1 schemas into one object',
      'flattened the top-level allOf of 1 schemas into one object',
    ]);
  });

  it('leaves a schema the provider takes as it is, says nothing, and never changes what it was given', () => {
    const listed = { type: 'object', properties: { path: { type: 'string', format: 'uri' } }, required: ['path'], additionalProperties: false };
    const copy = structuredClone(listed);
    expect(adaptSchema('openai', listed)).toStrictEqual({ schema: listed, changes: [] });
    expect(adaptSchema('anthropic', listed)).toStrictEqual({ schema: listed, changes: [] });
    expect(adaptSchema('ollama', listed)).toStrictEqual({
      schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      changes: ['dropped keywords Ollama does not read: additionalProperties, format'],
    });
    expect(listed).toStrictEqual(copy);
  });

  it("gives Ollama a property's oneOf as anyOf, which it reads", () => {
    const { schema } = adaptSchema('ollama', { type: 'object', properties: { when: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] } } });
    expect(schema).toStrictEqual({ type: 'object', properties: { when: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } });
  });
});

describe('tool names', () => {
  it('keeps a name the rule allows, cleans one it refuses, and shortens a long one to exactly the limit', () => {
    expect(wireName('fs__read', FUNCTION_NAME_RULE)).toBe('fs__read');
    expect(wireName('fs__read.file/v2', FUNCTION_NAME_RULE)).toBe('fs__read_file_v2');
    const long = `srv__${'a'.repeat(64)}`;
    expect(wireName(long, FUNCTION_NAME_RULE)).toMatch(/^srv__a{50}_[0-9a-f]{8}$/);
    expect(wireName(`${long}b`, FUNCTION_NAME_RULE)).not.toBe(wireName(long, FUNCTION_NAME_RULE));
    expect(wireName('x'.repeat(64), FUNCTION_NAME_RULE)).toBe('x'.repeat(64));
    expect(wireName('x'.repeat(65), FUNCTION_NAME_RULE)).toHaveLength(64);
  });

  it('maps back only names it sent, and refuses two tools sent under one name', () => {
    const names = new ToolNames([{ name: 'a.b', description: '', inputSchema: {} }], FUNCTION_NAME_RULE);
    expect(names.fromWire('a_b')).toBe('a.b');
    expect(names.fromWire('other')).toBe('other');
    expect(() => new ToolNames([{ name: 'a.b', description: '', inputSchema: {} }, { name: 'a_b', description: '', inputSchema: {} }], FUNCTION_NAME_RULE))
      .toThrow(new ModelConfigError('tools "a.b" and "a_b" would both be sent to the provider as "a_b"; rename one of them or remove its server'));
  });
});
