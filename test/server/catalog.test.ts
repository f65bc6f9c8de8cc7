import { describe, expect, it } from 'vitest';
import { connected } from './helpers.ts';

describe('catalog tools', () => {
  it('declare themselves deterministic in _meta and read-only in annotations', async () => {
    await using wb = await connected();
    const { tools } = await wb.client.listTools();
    for (const name of ['catalog_search', 'catalog_lookup']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?._meta).toEqual({ 'ladder/deterministic': true });
      expect(tool?.annotations?.readOnlyHint).toBe(true);
    }
    const notDeterministic = tools.filter((t) => !t.name.startsWith('catalog_') && t._meta?.['ladder/deterministic']);
    expect(notDeterministic.map((t) => t.name)).toEqual([]);
  });

  it('answers the same question with the same bytes', async () => {
    await using wb = await connected();
    const first = await wb.call('catalog_lookup', { topic: 'config/retries' });
    await wb.call('files_write', { path: 'noise.txt', content: 'x' });
    const second = await wb.call('catalog_lookup', { topic: 'config/retries' });
    expect(first.isError).toBe(false);
    expect(second).toEqual(first);
    expect(first.text).toContain('retries.maxAttempts: 4');
  });

  it('cannot tell the SQL dialect, however it is asked', async () => {
    await using wb = await connected();
    const pages = await Promise.all(['sql', 'sql/parameters'].map((topic) => wb.call('catalog_lookup', { topic })));
    for (const page of pages) {
      expect(page.isError).toBe(false);
      expect(page.text.toLowerCase()).not.toContain('sqlite');
    }
    expect((await wb.call('catalog_search', { query: 'sqlite' })).text).toMatch(/^no topic matches "sqlite"/);
  });

  it('finds topics by every word of a query', async () => {
    await using wb = await connected();
    expect((await wb.call('catalog_search', { query: 'backoff retries' })).text).toBe(
      'config/retries: service.json retries section: attempts and backoff.',
    );
    const several = (await wb.call('catalog_search', { query: 'service.json' })).text.split('\n');
    expect(several.map((line) => line.split(':')[0])).toEqual([
      'config/service',
      'config/retries',
      'config/cache',
      'config/logging',
    ]);
  });

  it('names the topics when asked for one it does not have', async () => {
    await using wb = await connected();
    const miss = await wb.call('catalog_lookup', { topic: 'sql/dialect' });
    expect(miss.isError).toBe(true);
    expect(miss.text).toMatch(/^no catalog topic "sql\/dialect"; topics: sql, sql\/parameters, config\/service/);
  });
});
