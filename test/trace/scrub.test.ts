// What never enters a results folder: secrets and the pass's temporary path.
import { describe, expect, it } from 'vitest';
import { credentialsIn, MIN_SECRET_CHARS, Scrubber, WORKSPACE_TOKEN } from '../../src/trace/scrub.ts';

describe('Scrubber', () => {
  const scrubber = new Scrubber({
    secrets: [{ name: 'A_TOKEN', value: 'tok-123456' }, { name: 'LONG', value: 'tok-123456-and-more' }, { name: 'SHORT', value: 'abc' }],
    workspace: '/tmp/ladder-run-1/pass-x/workspace',
  });

  it('replaces each secret with its name, the longer first, and the workspace with its token', () => {
    expect(scrubber.text('key tok-123456-and-more, then tok-123456.')).toBe('key [secret LONG], then [secret A_TOKEN].');
    expect(scrubber.text('wrote /tmp/ladder-run-1/pass-x/workspace/out.txt')).toBe(`wrote ${WORKSPACE_TOKEN}/out.txt`);
    expect(WORKSPACE_TOKEN).toBe('{workspace}');
  });

  it('replaces the longer secret first whichever order they are given in', () => {
    const shortFirst = new Scrubber({ secrets: [{ name: 'S', value: 'abcd' }, { name: 'L', value: 'abcdef' }] });
    const longFirst = new Scrubber({ secrets: [{ name: 'L', value: 'abcdef' }, { name: 'S', value: 'abcd' }] });
    expect(shortFirst.text('abcdef abcd')).toBe('[secret L] [secret S]');
    expect(longFirst.text('abcdef abcd')).toBe('[secret L] [secret S]');
  });

  it('replaces every occurrence, not only the first', () => {
    expect(scrubber.text('tok-123456 tok-123456')).toBe('[secret A_TOKEN] [secret A_TOKEN]');
  });

  it('scrubs a secret of exactly the shortest length, and leaves one a character shorter', () => {
    expect(MIN_SECRET_CHARS).toBe(4);
    const s = new Scrubber({ secrets: [{ name: 'FOUR', value: 'wxyz' }, { name: 'THREE', value: 'abc' }] });
    expect(s.text('wxyz abc')).toBe('[secret FOUR] abc');
    expect(new Scrubber({ secrets: [{ name: 'THREE', value: 'abc' }] }).empty).toBe(true);
  });

  it('scrubs a workspace of exactly the shortest length, and leaves one a character shorter', () => {
    expect(new Scrubber({ workspace: '/w/x' }).text('at /w/x/y')).toBe(`at ${WORKSPACE_TOKEN}/y`);
    const short = new Scrubber({ workspace: '/w/' });
    expect(short.empty).toBe(true);
    expect(short.text('at /w/')).toBe('at /w/');
  });

  it('names a value given twice after the first name it was given under', () => {
    const twice = new Scrubber({ secrets: [{ name: 'FIRST', value: 'same-value' }, { name: 'SECOND', value: 'same-value' }] });
    expect(twice.text('same-value')).toBe('[secret FIRST]');
  });

  it('names the workspace as its token even when a secret has the same value', () => {
    const both = new Scrubber({ secrets: [{ name: 'K', value: '/tmp/w' }], workspace: '/tmp/w' });
    expect(both.text('/tmp/w')).toBe(WORKSPACE_TOKEN);
  });

  it('walks every string of an event, keys included, and leaves the input as it was', () => {
    const event = { type: 'message', step: 0, message: { role: 'tool', content: ['tok-123456'], 'tok-123456': 1, n: 7, none: null, yes: true } };
    const copy = structuredClone(event);
    expect(scrubber.deep(event)).toStrictEqual({
      type: 'message', step: 0, message: { role: 'tool', content: ['[secret A_TOKEN]'], '[secret A_TOKEN]': 1, n: 7, none: null, yes: true },
    });
    expect(event).toStrictEqual(copy);
    expect(scrubber.deep('tok-123456')).toBe('[secret A_TOKEN]');
    expect(scrubber.deep(null)).toBeNull();
  });

  it('hands back the value itself when there is nothing to scrub', () => {
    const none = new Scrubber();
    const event = { a: ['x'] };
    expect(none.empty).toBe(true);
    expect(none.deep(event)).toBe(event);
    expect(none.text('tok-123456')).toBe('tok-123456');
    expect(none.text('')).toBe('');
    expect(scrubber.empty).toBe(false);
  });

  it('keeps what JSON and a pattern need escaped intact', () => {
    const quoting = new Scrubber({ secrets: [{ name: 'Q', value: 'a"b\\c$&' }] });
    expect(quoting.text('x a"b\\c$& y')).toBe('x [secret Q] y');
    for (const special of ['a.bcd', 'a*bcd', 'a+bcd', 'a?bcd', 'a^bcd', 'a$bcd', 'a{1}b', 'a(b)c', 'a|bcd', 'a[b]c', 'a\\bcd']) {
      const s = new Scrubber({ secrets: [{ name: 'X', value: special }] });
      expect(s.text(`<${special}>`), special).toBe('<[secret X]>');
      expect(s.text('aXbcd aabcd'), special).toBe('aXbcd aabcd');
    }
  });
});

describe('credentialsIn', () => {
  it('takes credentials by their names, in any case', () => {
    expect(credentialsIn({ OPENAI_API_KEY: 'k1', github_token: 't', MY_SECRET: 's', DB_PASSWORD: 'p', HOME: '/root', KEYBOARD: 'x', EMPTY: undefined }))
      .toStrictEqual([
        { name: 'OPENAI_API_KEY', value: 'k1' }, { name: 'github_token', value: 't' }, { name: 'MY_SECRET', value: 's' },
        { name: 'DB_PASSWORD', value: 'p' }, { name: 'KEYBOARD', value: 'x' },
      ]);
  });

  it('names each after where it came from', () => {
    expect(credentialsIn({ API_TOKEN: 'v', PATH: '/bin' }, 'server wb env ')).toStrictEqual([{ name: 'server wb env API_TOKEN', value: 'v' }]);
  });

  it('passes over a credential that is named but not set', () => {
    expect(credentialsIn({ API_KEY: undefined, TOKEN: 'set' })).toStrictEqual([{ name: 'TOKEN', value: 'set' }]);
  });

  it('takes a credential whose value is empty, and none from an empty environment', () => {
    expect(credentialsIn({ KEY: '' })).toStrictEqual([{ name: 'KEY', value: '' }]);
    expect(credentialsIn({})).toStrictEqual([]);
  });
});
