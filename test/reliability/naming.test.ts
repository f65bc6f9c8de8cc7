import { describe, it, expect } from 'vitest';
import { HARNESS_SERVER, REFRESH_TOOL, SEPARATOR, qualify, validateServerName } from '../../src/reliability/naming.ts';

describe('validateServerName', () => {
  it.each(['a', 'web-2', 'az09', 'z', '0', '9', 'my-mcp-server'])('accepts %j', (name) => {
    expect(() => validateServerName(name)).not.toThrow();
  });

  it.each([
    ['', 'empty'],
    ['Web', 'uppercase'],
    ['my_server', 'underscore'],
    ['my.server', 'dot'],
    ['my server', 'space'],
    ['_web', 'a refused first character'],
    ['web_', 'a refused last character'],
    ['wéb', 'non-ASCII letter'],
  ])('refuses %j (%s) with one line naming it and saying what is allowed', (name) => {
    let message = '';
    try {
      validateServerName(name);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `server name ${JSON.stringify(name)} is not allowed: use only lowercase letters, digits and "-"`,
    );
  });

  it('refuses the reserved harness name, saying it is reserved', () => {
    expect(() => validateServerName('harness')).toThrow(
      'server name "harness" is reserved for the harness\'s own tools: rename the server',
    );
  });

  it('accepts names that only start with harness, since their tools cannot take harness__', () => {
    expect(() => validateServerName('harness-2')).not.toThrow();
    expect(qualify('harness-2', 'refresh_tools').startsWith(`${HARNESS_SERVER}${SEPARATOR}`)).toBe(false);
  });
});

describe('qualify', () => {
  it('joins server and tool with a double underscore', () => {
    expect(qualify('files', 'read')).toBe('files__read');
  });

  it('keeps every character providers accept', () => {
    expect(qualify('web-2', 'AZaz09_-')).toBe('web-2__AZaz09_-');
  });

  it('replaces each character providers refuse with an underscore', () => {
    expect(qualify('db', 'get.sum/by user:é')).toBe('db__get_sum_by_user__');
  });

  it('names the refresh tool by the same rule, under the harness server', () => {
    expect(REFRESH_TOOL).toBe('harness__refresh_tools');
    expect(qualify(HARNESS_SERVER, 'refresh_tools')).toBe(REFRESH_TOOL);
  });
});
