import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_CLOSED_ERROR } from '../../src/server/faults.ts';
import { connected } from './helpers.ts';

const site = (dir: string) => {
  fs.mkdirSync(path.join(dir, 'site/reviews'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'site/reviews/42.html'),
    '<html><head><title>Review 42</title><style>p{}</style></head><body><h1>Verdict</h1><p>Ship it &amp; watch &lt;logs&gt;.</p><script>x()</script></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'site/index.html'), '<title>Home</title><p>Reviews: 42</p>');
};

describe('browser_navigate', () => {
  it('opens a page of the site and returns its title and text', async () => {
    await using wb = await connected({}, site);
    expect(await wb.call('browser_navigate', { url: 'http://site.local/reviews/42.html' })).toEqual({
      text: 'Title: Review 42\nURL: http://site.local/reviews/42.html\n\nVerdict\nShip it & watch <logs>.',
      isError: false,
    });
    expect((await wb.call('browser_navigate', { url: 'https://site.local/' })).text).toContain('Title: Home');
  });

  it('answers a missing page, a non-http URL, a non-URL and an escape with errors', async () => {
    await using wb = await connected({}, site);
    expect(await wb.call('browser_navigate', { url: 'http://site.local/reviews/7.html' })).toEqual({
      text: 'navigation failed: 404 Not Found (http://site.local/reviews/7.html)',
      isError: true,
    });
    expect((await wb.call('browser_navigate', { url: 'file:///etc/passwd' })).text).toBe(
      'navigation failed: only http and https URLs open, not file:',
    );
    expect((await wb.call('browser_navigate', { url: 'reviews/42' })).text).toContain('is not a URL');
    const escape = 'http://site.local/%2F..%2F..%2Fetc%2Fpasswd';
    expect((await wb.call('browser_navigate', { url: escape })).text).toBe(`navigation failed: 403 Forbidden (${escape})`);
    fs.writeFileSync(path.join(wb.dir, 'private.txt'), 'not on the site');
    const sideways = 'http://site.local/%2F..%2Fprivate.txt';
    expect((await wb.call('browser_navigate', { url: sideways })).text).toBe(`navigation failed: 403 Forbidden (${sideways})`);
    expect((await wb.call('browser_navigate', { url: 'http://site.local/%E0%A4%A' })).text).toContain('400 Bad Request');
  });

  it('answers every call with the same session-closed error when the upstream is dead', async () => {
    await using wb = await connected({ faults: { deadUpstream: true } }, site);
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await wb.call('browser_navigate', { url: 'http://site.local/reviews/42.html' }));
    replies.push(await wb.call('browser_navigate', { url: 'http://site.local/other.html' }));
    for (const reply of replies) expect(reply).toEqual({ text: UPSTREAM_CLOSED_ERROR, isError: true });
  });

  it('dies after the number of navigations a rung sets', async () => {
    await using wb = await connected({ faults: { deadUpstream: { afterCalls: 2 } } }, site);
    const url = 'http://site.local/index.html';
    expect((await wb.call('browser_navigate', { url })).isError).toBe(false);
    expect((await wb.call('browser_navigate', { url })).isError).toBe(false);
    expect(await wb.call('browser_navigate', { url })).toEqual({ text: UPSTREAM_CLOSED_ERROR, isError: true });
  });

  it('leaves the other tools working while the upstream is dead', async () => {
    await using wb = await connected({ faults: { deadUpstream: true } }, site);
    expect((await wb.call('files_read', { path: 'site/index.html' })).isError).toBe(false);
  });
});
