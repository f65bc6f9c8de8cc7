import fs from 'node:fs';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/server/tools.ts';
import { connected, ManualClock, settle } from './helpers.ts';

const names = async (wb: Awaited<ReturnType<typeof connected>>) => (await wb.client.listTools()).tools.map((t) => t.name);

describe('release_publish, the tool revealed by a trigger', () => {
  it('appears when a build job finishes, announced with tools/list_changed', async () => {
    const time = new ManualClock();
    await using wb = await connected({ clock: time.clock, sleep: time.sleep });
    expect(await names(wb)).not.toContain('release_publish');
    await wb.call('jobs_start', { kind: 'build' });
    await time.advance(44_999);
    expect(wb.listChanged()).toBe(0);
    await time.advance(1);
    await settle();
    expect(wb.listChanged()).toBe(1);
    expect(await names(wb)).toContain('release_publish');
  });

  it('appears without a word when announce is off: listed, but no tools/list_changed', async () => {
    await using wb = await connected({ reveal: { afterJob: null, announce: false } });
    await wb.call('files_write', { path: 'release/READY', content: '' });
    await settle();
    expect(await names(wb)).toContain('release_publish');
    expect(wb.listChanged()).toBe(0);
    const published = await wb.call('release_publish', { version: '1.0.0', notes: 'quiet' });
    expect(published.isError).not.toBe(true);
  });

  it('appears when its trigger file is written', async () => {
    await using wb = await connected();
    await wb.call('files_write', { path: 'release/READY', content: '' });
    await settle();
    expect(wb.listChanged()).toBe(1);
    expect(await names(wb)).toContain('release_publish');
  });

  it('is refused before its trigger, as a tool the client cannot see', async () => {
    await using wb = await connected();
    // As the protocol answers a tool it does not list: invalid params, naming the tool (the
    // SDK's v2 line; its v1 line answered an error result).
    await expect(wb.call('release_publish', { version: '1.0.0', notes: 'x' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/release_publish/) });
    expect(fs.existsSync(path.join(wb.dir, 'release/published.json'))).toBe(false);
  });

  it('stays hidden when its triggers are turned off', async () => {
    const time = new ManualClock();
    await using wb = await connected({ clock: time.clock, sleep: time.sleep, reveal: { afterJob: null, afterFile: null } });
    await wb.call('jobs_start', { kind: 'build' });
    await wb.call('files_write', { path: 'release/READY', content: '' });
    await time.advance(60_000);
    expect(wb.listChanged()).toBe(0);
    expect(await names(wb)).not.toContain('release_publish');
  });

  it('records each version once', async () => {
    await using wb = await connected({}, (dir) => fs.mkdirSync(path.join(dir, 'release')));
    fs.writeFileSync(path.join(wb.dir, 'release/READY'), '');
    await wb.call('files_list'); // any call checks the trigger
    const ok = await wb.call('release_publish', { version: '1.2.0', notes: 'Faster waits.' });
    expect(JSON.parse(ok.text)).toEqual({ published: '1.2.0', record: 'release/published.json' });
    expect(await wb.call('release_publish', { version: '1.2.0', notes: 'again' })).toEqual({
      text: 'version 1.2.0 is already published; publish a new version',
      isError: true,
    });
    const record = JSON.parse(fs.readFileSync(path.join(wb.dir, 'release/published.json'), 'utf8'));
    expect(record).toEqual([{ version: '1.2.0', notes: 'Faster waits.' }]);
  });

  it('is listed at once by a server opened after the trigger', async () => {
    await using wb = await connected();
    await wb.call('files_write', { path: 'release/READY', content: '' });
    const late = wb.workbench.newServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await late.connect(b);
    const client = new Client({ name: 'late', version: '0' });
    await client.connect(a);
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed.sort()).toEqual([...TOOL_NAMES].sort()); // the fault validator's list is complete
    await client.close();
  });
});
