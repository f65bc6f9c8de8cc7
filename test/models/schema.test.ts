// Tool input schemas as each provider takes them, each change said.
import { describe, expect, it } from 'vitest';
import { adaptSchema } from '../../src/models/schema.ts';

const str = { type: 'string' };
const int = { type: 'integer' };

describe('a top-level union', () => {
  it.each(['anyOf', 'oneOf'] as const)('flattens %s into one object requiring what every variant requires', (key) => {
    expect(adaptSchema('anthropic', { [key]: [
      { type: 'object', properties: { a: str, b: int }, required: ['a', 'b'] },
      { type: 'object', properties: { a: str, c: int }, required: ['a', 'c'] },
    ] })).toStrictEqual({
      schema: { type: 'object', properties: { a: str, b: int, c: int }, required: ['a'] },
      changes: [`flattened the top-level ${key} of 2 schemas into one object`],
    });
  });

  it('flattens allOf requiring what any variant requires, each name once', () => {
    expect(adaptSchema('anthropic', { allOf: [
      { properties: { a: str, b: int }, required: ['a', 'b'] },
      { properties: { a: str, c: int }, required: ['a', 'c'] },
    ] }).schema).toStrictEqual({ type: 'object', properties: { a: str, b: int, c: int }, required: ['a', 'b', 'c'] });
  });

  it('keeps the properties and required names beside the union, and the other keys', () => {
    expect(adaptSchema('anthropic', {
      type: 'object', description: 'd', properties: { top: str }, required: ['top'], anyOf: [{ properties: { a: str }, required: ['a'] }],
    }).schema).toStrictEqual({ type: 'object', description: 'd', properties: { top: str, a: str }, required: ['top', 'a'] });
  });

  it('keeps a property two variants define alike as it is, and makes one they define differently an anyOf', () => {
    expect(adaptSchema('anthropic', { oneOf: [{ properties: { a: str, b: str } }, { properties: { a: str, b: int } }] }).schema)
      .toStrictEqual({ type: 'object', properties: { a: str, b: { anyOf: [str, int] } } });
  });

  it('requires nothing when no variant requires anything, and when one of them does not', () => {
    expect(adaptSchema('anthropic', { anyOf: [{ properties: { a: str } }] }).schema).toStrictEqual({ type: 'object', properties: { a: str } });
    expect(adaptSchema('anthropic', { anyOf: [{ properties: { a: str }, required: ['a'] }, { properties: { a: str } }] }).schema)
      .toStrictEqual({ type: 'object', properties: { a: str } });
  });

  it('reads an empty union as an object with no properties', () => {
    expect(adaptSchema('anthropic', { anyOf: [] })).toStrictEqual({
      schema: { type: 'object', properties: {} }, changes: ['flattened the top-level anyOf of 0 schemas into one object'],
    });
  });

  it('passes over variants that are not objects, properties that are not objects and required names that are not strings', () => {
    expect(adaptSchema('anthropic', { allOf: [true, null, [1], { properties: [str] }, { properties: { a: str }, required: ['a', 7] }] }).schema)
      .toStrictEqual({ type: 'object', properties: { a: str }, required: ['a'] });
    expect(adaptSchema('anthropic', { properties: 'x', anyOf: [{ properties: { a: str }, required: 'a' }] }).schema)
      .toStrictEqual({ type: 'object', properties: { a: str } });
  });

  it('requires no name that is not a string, even one a property is called', () => {
    expect(adaptSchema('anthropic', { allOf: [{ properties: { 7: str }, required: [7] }] }).schema).toStrictEqual({ type: 'object', properties: { 7: str } });
    expect(adaptSchema('anthropic', { properties: { 7: str }, required: [7], anyOf: [{ properties: {} }] }).schema).toStrictEqual({ type: 'object', properties: { 7: str } });
  });

  it('reads a union key that is not a list as no union', () => {
    expect(adaptSchema('anthropic', { type: 'object', anyOf: { a: 1 } })).toStrictEqual({ schema: { type: 'object', anyOf: { a: 1 } }, changes: [] });
  });
});

describe('the top-level type', () => {
  it('is added when absent, and replaced when another', () => {
    expect(adaptSchema('anthropic', { properties: {} })).toStrictEqual({ schema: { properties: {}, type: 'object' }, changes: ['added type "object"'] });
    expect(adaptSchema('anthropic', { type: 'array', properties: {} }).changes).toStrictEqual(['replaced type "array" with "object"']);
  });
});

describe('for OpenAI', () => {
  it('drops a top-level enum, const and not, each said in that order', () => {
    expect(adaptSchema('openai', { type: 'object', properties: {}, not: {}, const: 1, enum: [1] })).toStrictEqual({
      schema: { type: 'object', properties: {} },
      changes: ['dropped the top-level enum', 'dropped the top-level const', 'dropped the top-level not'],
    });
  });

  it('adds empty properties when there are none, or when they are not an object', () => {
    expect(adaptSchema('openai', { type: 'object' })).toStrictEqual({ schema: { type: 'object', properties: {} }, changes: ['added empty properties'] });
    expect(adaptSchema('openai', { type: 'object', properties: [] }).changes).toStrictEqual(['added empty properties']);
  });

  it('is the only provider so changed', () => {
    const listed = { type: 'object', enum: [1] };
    expect(adaptSchema('anthropic', listed)).toStrictEqual({ schema: listed, changes: [] });
  });
});

describe('for Ollama', () => {
  it('keeps the keys it reads at the top and in each property, nested, and names each dropped once, sorted', () => {
    expect(adaptSchema('ollama', {
      type: 'object', title: 't', $defs: { x: 1 }, items: { type: 'string' }, required: ['a'],
      properties: {
        a: { type: 'object', description: 'd', format: 'f', enum: ['x'], required: ['b'], properties: { b: { type: 'string', format: 'g', title: 'x' } } },
        list: { type: 'array', items: { type: 'string', minLength: 1 } },
        odd: true,
      },
    })).toStrictEqual({
      schema: {
        type: 'object', $defs: { x: 1 }, items: { type: 'string' }, required: ['a'],
        properties: {
          a: { type: 'object', description: 'd', enum: ['x'], required: ['b'], properties: { b: { type: 'string' } } },
          list: { type: 'array', items: { type: 'string', minLength: 1 } },
          odd: true,
        },
      },
      changes: ['dropped keywords Ollama does not read: format, title'],
    });
  });

  it("reads a property's anyOf, keeping what it reads of each alternative", () => {
    expect(adaptSchema('ollama', { type: 'object', properties: { a: { anyOf: [{ type: 'string', pattern: 'p' }, 'raw'] } } })).toStrictEqual({
      schema: { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, 'raw'] } } }, changes: ['dropped keywords Ollama does not read: pattern'],
    });
  });

  it("gives a property's oneOf as anyOf, leaving out alternatives that are not objects", () => {
    expect(adaptSchema('ollama', { type: 'object', properties: { a: { oneOf: [{ type: 'string', pattern: 'p' }, 'raw'] } } })).toStrictEqual({
      schema: { type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } },
      changes: ['dropped keywords Ollama does not read: oneOf (as anyOf), pattern'],
    });
  });

  it('drops a oneOf beside an anyOf, and one that is not a list', () => {
    expect(adaptSchema('ollama', { type: 'object', properties: { a: { anyOf: [str], oneOf: [int] }, b: { oneOf: 'x' } } })).toStrictEqual({
      schema: { type: 'object', properties: { a: { anyOf: [str] }, b: {} } }, changes: ['dropped keywords Ollama does not read: oneOf'],
    });
  });

  it('keeps properties and an anyOf that are not what it reads as they are', () => {
    expect(adaptSchema('ollama', { type: 'object', properties: { a: { anyOf: 'x', properties: 3 } } })).toStrictEqual({
      schema: { type: 'object', properties: { a: { anyOf: 'x', properties: 3 } } }, changes: [],
    });
  });

  it('says nothing when it keeps every key', () => {
    const listed = { type: 'object', properties: { a: str } };
    expect(adaptSchema('ollama', listed)).toStrictEqual({ schema: listed, changes: [] });
  });
});
