import { describe, it, expect, vi } from 'vitest';
import { callKey, canonicalJson } from '../../src/reliability/callKey.ts';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and writes no whitespace', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }], c: null } };
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('gives one text for objects that differ only in key order', () => {
    const first = { url: 'http://x', opts: { wait: true, depth: 2 } };
    const second = { opts: { depth: 2, wait: true }, url: 'http://x' };
    expect(canonicalJson(first)).toBe(canonicalJson(second));
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson([3, 1, 2])).not.toBe(canonicalJson([1, 2, 3]));
  });

  it('writes empty containers', () => {
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('orders keys by code unit, integer-like keys included', () => {
    // An object would list "9" before "10"; code-unit order puts "10" first.
    expect(canonicalJson({ 9: 'a', 10: 'b', a: 1, B: 2 })).toBe('{"10":"b","9":"a","B":2,"a":1}');
    // U+1F600 starts with the surrogate 0xD83D, which sorts before U+FFFF by code unit.
    expect(canonicalJson({ '\uffff': 1, '\u{1F600}': 2 })).toBe('{"\u{1F600}":2,"\uffff":1}');
  });

  it('writes primitives as JSON does', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(-1.5)).toBe('-1.5');
    expect(canonicalJson('ab')).toBe('"ab"');
    expect(canonicalJson(['ab', null])).toBe('["ab",null]');
  });

  it('escapes strings in keys and values', () => {
    expect(canonicalJson({ 'a"b': 'line\nnext' })).toBe('{"a\\"b":"line\\nnext"}');
  });

  it('keeps a __proto__ key as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe(
      '{"__proto__":{"x":1},"a":2}',
    );
  });

  it('drops undefined members of objects and writes null for them in arrays', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined, () => 1])).toBe('[null,null]');
  });

  it('follows JSON.stringify for values JSON cannot represent', () => {
    expect(canonicalJson({ n: NaN, i: Infinity })).toBe('{"i":null,"n":null}');
    expect(canonicalJson({ at: new Date(Date.UTC(2026, 7, 18)) })).toBe(
      '{"at":"2026-08-18T00:00:00.000Z"}',
    );
  });

  it('throws TypeError for a value with no JSON text', () => {
    expect(() => canonicalJson(undefined)).toThrow(
      new TypeError('canonicalJson: a bare undefined has no JSON text'),
    );
    expect(() => canonicalJson(() => 1)).toThrow(
      new TypeError('canonicalJson: a bare function has no JSON text'),
    );
  });

  it('follows JSON.stringify for boxed primitives, toJSON and values in arrays', () => {
    expect(canonicalJson({ n: Object(3), s: Object('x'), b: Object(false) })).toBe('{"b":false,"n":3,"s":"x"}');
    expect(canonicalJson({ z: 1, a: { toJSON: (key: string) => `under ${key}` } })).toBe('{"a":"under a","z":1}');
    expect(canonicalJson([Infinity, new Date(0), Symbol('s')])).toBe('[null,"1970-01-01T00:00:00.000Z",null]');
    // Arrays and null-prototype objects written by JSON.stringify's rules are still sorted.
    expect(canonicalJson([{ b: 1, a: new Date(0) }])).toBe('[{"a":"1970-01-01T00:00:00.000Z","b":1}]');
    expect(canonicalJson(Object.assign(Object.create(null), { b: 2, a: 1 }))).toBe('{"a":1,"b":2}');
  });

  it('writes plain data in one walk, without a JSON round trip', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(canonicalJson({ b: [1, 'x', { d: null, c: false }], a: -0.5 })).toBe('{"a":-0.5,"b":[1,"x",{"c":false,"d":null}]}');
      expect(parse).not.toHaveBeenCalled();
      canonicalJson({ at: new Date(0) });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('writes deeply nested data that is not a cycle', () => {
    // Keys added in sorted order, so JSON.stringify writes the canonical text too.
    let deep: unknown = [1];
    for (let i = 0; i < 200; i += 1) deep = { a: i % 2 === 0, k: i % 3 === 0 ? [deep] : deep };
    expect(canonicalJson(deep)).toBe(JSON.stringify(deep));
    expect(canonicalJson({ b: deep, a: 1 })).toBe(`{"a":1,"b":${JSON.stringify(deep)}}`);
  });

  it('throws TypeError for a cycle or a BigInt', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson([[cycle]])).toThrow(TypeError);
    const list: unknown[] = [1];
    list.push(list);
    expect(() => canonicalJson(list)).toThrow(TypeError);
  });
});

describe('callKey', () => {
  it('is the tool name, a newline, then the canonical arguments', () => {
    expect(callKey('web__fetch', { b: 2, a: 1 })).toBe('web__fetch\n{"a":1,"b":2}');
  });

  it('gives one key for arguments that differ only in key order', () => {
    expect(callKey('t', { a: 1, b: { c: 1, d: 2 } })).toBe(callKey('t', { b: { d: 2, c: 1 }, a: 1 }));
  });

  it('gives different keys for different arguments or tools', () => {
    expect(callKey('t', { a: 1 })).not.toBe(callKey('t', { a: 2 }));
    expect(callKey('t', { a: 1 })).not.toBe(callKey('u', { a: 1 }));
  });

  it('keeps the tool name apart from the arguments', () => {
    // Without a separator both would read "a12".
    expect(callKey('a', 12)).not.toBe(callKey('a1', 2));
  });

  it('treats missing or null arguments as an empty object', () => {
    expect(callKey('t', undefined)).toBe('t\n{}');
    expect(callKey('t', null)).toBe('t\n{}');
  });
});
