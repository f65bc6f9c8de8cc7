import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connected, tempDir } from './helpers.ts';

describe('files tools', () => {
  it('writes a file with its folders and reads it back', async () => {
    await using wb = await connected();
    const write = await wb.call('files_write', { path: 'notes/today.md', content: 'line one\nline two\n' });
    expect(write).toEqual({ text: 'wrote 18 bytes to notes/today.md', isError: false });
    expect(fs.readFileSync(path.join(wb.dir, 'notes/today.md'), 'utf8')).toBe('line one\nline two\n');
    expect(await wb.call('files_read', { path: 'notes/today.md' })).toEqual({ text: 'line one\nline two\n', isError: false });
  });

  it('lists a folder, and the whole tree when recursive', async () => {
    await using wb = await connected({}, (dir) => {
      fs.mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/app.ts'), 'x');
      fs.writeFileSync(path.join(dir, 'src/lib/util.ts'), 'yy');
    });
    const flat = JSON.parse((await wb.call('files_list', { path: 'src' })).text);
    expect(flat.entries).toEqual([
      { path: 'src/app.ts', type: 'file', bytes: 1 },
      { path: 'src/lib', type: 'dir' },
    ]);
    const deep = JSON.parse((await wb.call('files_list', { recursive: true })).text);
    expect(deep.entries.map((e: { path: string }) => e.path)).toEqual([
      'src',
      'src/app.ts',
      'src/lib',
      'src/lib/util.ts',
      'workbench.db',
    ]);
  });

  it('accepts a path whose .. stays inside the workspace', async () => {
    await using wb = await connected();
    await wb.call('files_write', { path: 'a/../b.txt', content: 'b' });
    expect(fs.readFileSync(path.join(wb.dir, 'b.txt'), 'utf8')).toBe('b');
  });

  it('edits exactly one occurrence', async () => {
    await using wb = await connected({}, (dir) => fs.writeFileSync(path.join(dir, 'c.json'), '{"port": 80, "host": "x"}'));
    const edit = await wb.call('files_edit', { path: 'c.json', oldText: '"port": 80', newText: '"port": 8080' });
    expect(edit).toEqual({ text: 'replaced 1 occurrence in c.json', isError: false });
    expect(fs.readFileSync(path.join(wb.dir, 'c.json'), 'utf8')).toBe('{"port": 8080, "host": "x"}');
  });

  it('keeps $ patterns in the new text literal', async () => {
    await using wb = await connected({}, (dir) => fs.writeFileSync(path.join(dir, 'p.txt'), 'price: X'));
    await wb.call('files_edit', { path: 'p.txt', oldText: 'X', newText: "$& $' $1" });
    expect(fs.readFileSync(path.join(wb.dir, 'p.txt'), 'utf8')).toBe("price: $& $' $1");
  });

  it('refuses an edit whose text is not found, and leaves the file alone', async () => {
    await using wb = await connected({}, (dir) => fs.writeFileSync(path.join(dir, 'c.txt'), 'alpha beta'));
    const edit = await wb.call('files_edit', { path: 'c.txt', oldText: 'gamma', newText: 'delta' });
    expect(edit.isError).toBe(true);
    expect(edit.text).toBe('text not found in c.txt: "gamma"; read the file and copy the exact text, whitespace included');
    expect(fs.readFileSync(path.join(wb.dir, 'c.txt'), 'utf8')).toBe('alpha beta');
  });

  it('refuses an ambiguous edit unless replaceAll is set', async () => {
    await using wb = await connected({}, (dir) => fs.writeFileSync(path.join(dir, 'c.txt'), 'a-a-a'));
    const once = await wb.call('files_edit', { path: 'c.txt', oldText: 'a', newText: 'b' });
    expect(once.isError).toBe(true);
    expect(once.text).toContain('occurs 3 times in c.txt');
    expect(fs.readFileSync(path.join(wb.dir, 'c.txt'), 'utf8')).toBe('a-a-a');
    const all = await wb.call('files_edit', { path: 'c.txt', oldText: 'a', newText: 'b', replaceAll: true });
    expect(all).toEqual({ text: 'replaced 3 occurrences in c.txt', isError: false });
    expect(fs.readFileSync(path.join(wb.dir, 'c.txt'), 'utf8')).toBe('b-b-b');
  });

  it('says what is wrong with a missing file, a folder and a binary file', async () => {
    await using wb = await connected({}, (dir) => {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([1, 0, 2]));
    });
    expect(await wb.call('files_read', { path: 'nope.txt' })).toEqual({
      text: 'nope.txt does not exist; use files_list to see what is there',
      isError: true,
    });
    expect((await wb.call('files_read', { path: 'sub' })).text).toBe('sub is a folder; use files_list to see what is in it');
    expect((await wb.call('files_read', { path: 'blob.bin' })).text).toContain('is a binary file');
    expect((await wb.call('files_list', { path: 'blob.bin' })).isError).toBe(true);
    expect((await wb.call('files_write', { path: 'sub', content: 'x' })).isError).toBe(true);
    expect((await wb.call('files_edit', { path: 'nope.txt', oldText: 'a', newText: 'b' })).isError).toBe(true);
  });

  it('answers input that fails the schema with an isError result', async () => {
    await using wb = await connected();
    const result = await wb.call('files_edit', { path: 'x', oldText: '', newText: 'y' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('oldText');
  });
});

describe('files confinement', () => {
  it('refuses .. that leaves the workspace, with no effect outside', async () => {
    await using outside = tempDir();
    await using wb = await connected();
    const target = path.relative(wb.dir, path.join(outside.dir, 'escaped.txt'));
    const write = await wb.call('files_write', { path: target, content: 'x' });
    expect(write).toEqual({ text: `path ${JSON.stringify(target)} leaves the workspace; give a path inside it`, isError: true });
    expect(fs.readdirSync(outside.dir)).toEqual([]);
    expect((await wb.call('files_read', { path: '../../etc/passwd' })).isError).toBe(true);
    expect((await wb.call('files_list', { path: '..' })).isError).toBe(true);
  });

  it('refuses an absolute path, even one inside the workspace', async () => {
    await using wb = await connected();
    const inside = path.join(wb.dir, 'x.txt');
    const write = await wb.call('files_write', { path: inside, content: 'x' });
    expect(write.isError).toBe(true);
    expect(write.text).toContain('is absolute; give a path relative to the workspace');
    expect(fs.existsSync(inside)).toBe(false);
  });

  it('refuses a symlinked folder that points outside, with no effect there', async () => {
    await using outside = tempDir();
    fs.writeFileSync(path.join(outside.dir, 'secret.txt'), 'secret');
    await using wb = await connected({}, (dir) => fs.symlinkSync(outside.dir, path.join(dir, 'link')));
    const read = await wb.call('files_read', { path: 'link/secret.txt' });
    expect(read).toEqual({
      text: 'path "link/secret.txt" goes through a symlink that points outside the workspace; refused',
      isError: true,
    });
    expect((await wb.call('files_write', { path: 'link/new/deep.txt', content: 'x' })).isError).toBe(true);
    expect((await wb.call('files_edit', { path: 'link/secret.txt', oldText: 'secret', newText: 'gone' })).isError).toBe(true);
    expect((await wb.call('files_list', { path: 'link' })).isError).toBe(true);
    expect(fs.readdirSync(outside.dir)).toEqual(['secret.txt']);
    expect(fs.readFileSync(path.join(outside.dir, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuses a symlinked file that points outside', async () => {
    await using outside = tempDir();
    fs.writeFileSync(path.join(outside.dir, 'target.txt'), 'keep');
    await using wb = await connected({}, (dir) => fs.symlinkSync(path.join(outside.dir, 'target.txt'), path.join(dir, 'f.txt')));
    expect((await wb.call('files_write', { path: 'f.txt', content: 'overwritten' })).isError).toBe(true);
    expect(fs.readFileSync(path.join(outside.dir, 'target.txt'), 'utf8')).toBe('keep');
  });

  it('refuses a dangling symlink, which a write would create outside', async () => {
    await using outside = tempDir();
    const target = path.join(outside.dir, 'created.txt');
    await using wb = await connected({}, (dir) => fs.symlinkSync(target, path.join(dir, 'dangling')));
    const write = await wb.call('files_write', { path: 'dangling', content: 'x' });
    expect(write).toEqual({ text: 'path "dangling" goes through a dangling symlink; refused', isError: true });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('follows a symlink that stays inside the workspace', async () => {
    await using wb = await connected({}, (dir) => {
      fs.mkdirSync(path.join(dir, 'real'));
      fs.writeFileSync(path.join(dir, 'real/a.txt'), 'inside');
      fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    });
    expect(await wb.call('files_read', { path: 'alias/a.txt' })).toEqual({ text: 'inside', isError: false });
  });
});
