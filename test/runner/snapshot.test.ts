// Workspace snapshots (--keep-workspaces): what goes in, what is left out and why, and that the
// database copy is what a reader sees at that moment, not the bytes of a file still in use.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { keepWorkspace, SnapshotError, unpackSnapshot } from '../../src/runner/snapshot.ts';
import { entryBlocks, readTar, TAR_END } from '../../src/runner/tar.ts';
import type { TarEntry } from '../../src/runner/tar.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

async function workspaceWith(files: Record<string, string>): Promise<{ root: string; workspace: string }> {
  const root = await tempDir('ladder-snapshot-');
  const workspace = join(root, 'workspace');
  await mkdir(workspace);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(workspace, path, '..'), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  return { root, workspace };
}

const tarOf = (entries: TarEntry[]): Buffer => Buffer.concat([...entries.flatMap(entryBlocks), TAR_END]);

describe('tar', () => {
  it('reads back names that fit ustar, need its prefix field, or need a pax record', () => {
    const entries: TarEntry[] = [
      { name: 'workspace', type: 'dir' },
      { name: 'workspace/a.txt', type: 'file', data: Buffer.from('a\n') },
      { name: `workspace/${'d'.repeat(90)}/${'f'.repeat(90)}.txt`, type: 'file', data: Buffer.from('prefixed') },
      { name: `workspace/${'g'.repeat(180)}.txt`, type: 'file', data: Buffer.from('pax') },
      { name: 'workspace/größe ünd 文字.txt', type: 'file', data: Buffer.alloc(1025, 7) },
    ];
    expect(readTar(tarOf(entries))).toEqual(entries);
  });

  it('refuses a header whose checksum does not match', () => {
    const tar = tarOf([{ name: 'a.txt', type: 'file', data: Buffer.from('a') }]);
    tar[0] = 'b'.charCodeAt(0);
    expect(() => readTar(tar)).toThrow(/checksum does not match/);
  });
});

describe('keepWorkspace', () => {
  it('keeps every file and folder, the same bytes for the same workspace', async () => {
    const { root, workspace } = await workspaceWith({ 'in/value.txt': '42\n', 'out/deep/x.json': '{}' });
    await mkdir(join(workspace, 'empty'));
    const first = join(root, 'one.tar.gz');
    const second = join(root, 'two.tar.gz');
    const notes = await keepWorkspace({ file: first, workspace, scratch: root });
    await keepWorkspace({ file: second, workspace, scratch: root });
    expect(notes).toEqual({ format: 1, database: null, skipped: [] });
    expect((await readFile(first)).equals(await readFile(second))).toBe(true);
    const names = readTar(gunzipSync(await readFile(first))).map((e) => `${e.type} ${e.name}`);
    expect(names).toEqual(['dir workspace', 'dir workspace/empty', 'dir workspace/in', 'file workspace/in/value.txt', 'dir workspace/out',
      'dir workspace/out/deep', 'file workspace/out/deep/x.json', 'file snapshot.json']);
    const back = await unpackSnapshot(first, await tempDir('ladder-unpack-'));
    expect(await readFile(join(back.workspace, 'in/value.txt'), 'utf8')).toBe('42\n');
  });

  it('records a symbolic link without following it out of the workspace', async () => {
    const { root, workspace } = await workspaceWith({ 'inside.txt': 'in' });
    await writeFile(join(root, 'secret.txt'), 'SECRET-OUTSIDE-THE-WORKSPACE');
    await symlink(join(root, 'secret.txt'), join(workspace, 'link.txt'));
    await symlink(root, join(workspace, 'up'));
    const file = join(root, 's.tar.gz');
    const notes = await keepWorkspace({ file, workspace, scratch: await tempDir('ladder-scratch-') });
    expect(notes.skipped).toEqual([
      { path: 'link.txt', why: 'a symbolic link, not followed' },
      { path: 'up', why: 'a symbolic link, not followed' },
    ]);
    expect(gunzipSync(await readFile(file)).includes('SECRET-OUTSIDE')).toBe(false);
  });

  it('leaves out a file over the size a kept file may have, and every file once the snapshot is full', async () => {
    const { root, workspace } = await workspaceWith({ 'a.txt': 'x'.repeat(40), 'b.txt': 'x'.repeat(101), 'c.txt': 'x'.repeat(40), 'd.txt': 'x'.repeat(40) });
    const file = join(root, 's.tar.gz');
    const notes = await keepWorkspace({ file, workspace, scratch: root, limits: { fileBytes: 100, snapshotBytes: 100 } });
    expect(notes.skipped).toEqual([
      { path: 'b.txt', why: '101 bytes, over the 100 bytes a kept file may have' },
      { path: 'd.txt', why: 'the snapshot already holds 100 bytes of files' },
    ]);
    const back = await unpackSnapshot(file, await tempDir('ladder-unpack-'));
    expect(back.skipped).toEqual(notes.skipped);
    expect(await readFile(join(back.workspace, 'c.txt'), 'utf8')).toBe('x'.repeat(40));
  });

  it('copies a database in use as a reader sees it: committed rows in its WAL in, an open transaction out', async () => {
    const { root, workspace } = await workspaceWith({});
    const path = join(workspace, 'workbench.db');
    const writer = new Database(path);
    try {
      writer.pragma('journal_mode = WAL');
      writer.pragma('wal_autocheckpoint = 0'); // committed rows stay in workbench.db-wal, as a raw copy of the .db would miss them
      writer.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT)');
      writer.prepare('INSERT INTO orders VALUES (?, ?)').run(7, 'lamp');
      writer.exec('BEGIN');
      writer.prepare('INSERT INTO orders VALUES (?, ?)').run(8, 'uncommitted');
      const file = join(root, 's.tar.gz');
      const notes = await keepWorkspace({ file, workspace, databasePath: path, scratch: root });
      expect(notes).toEqual({ format: 1, database: 'workbench.db', skipped: [] });
      const names = readTar(gunzipSync(await readFile(file))).map((e) => e.name);
      expect(names).toEqual(['workspace', 'workspace/workbench.db', 'snapshot.json']);
      const back = await unpackSnapshot(file, await tempDir('ladder-unpack-'));
      const copy = new Database(back.databasePath!, { readonly: true });
      expect(copy.prepare('SELECT id, item FROM orders').raw(true).all()).toEqual([[7, 'lamp']]);
      copy.close();
    } finally {
      writer.close();
    }
  });
});

describe('unpackSnapshot', () => {
  it('refuses an entry that would land outside the workspace', async () => {
    const root = await tempDir('ladder-bad-');
    const file = join(root, 'bad.tar.gz');
    await writeFile(file, gzipSync(tarOf([{ name: 'workspace/../../evil.txt', type: 'file', data: Buffer.from('x') },
      { name: 'snapshot.json', type: 'file', data: Buffer.from('{"format":1,"database":null,"skipped":[]}') }])));
    await expect(unpackSnapshot(file, join(root, 'out'))).rejects.toThrow(SnapshotError);
    await expect(unpackSnapshot(file, join(root, 'out'))).rejects.toThrow(/outside the snapshot's workspace/);
  });

  it('says a file is not a snapshot rather than failing on it', async () => {
    const root = await tempDir('ladder-bad-');
    const file = join(root, 'junk.tar.gz');
    await writeFile(file, 'not gzip at all');
    await expect(unpackSnapshot(file, join(root, 'out'))).rejects.toThrow(/not a readable snapshot/);
  });
});
