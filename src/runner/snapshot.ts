// `ladder run --keep-workspaces`: at each step's end, the pass's workspace (its files and the
// workbench's SQLite database) kept as one `.tar.gz` in the results folder, so that checks
// that read the workspace (`file`, `sql`) can be judged again later by `ladder rescore`.
//
// Inside: `workspace/...` as the agent left it, and `snapshot.json` saying what was left out.
// Bounded: a file over MAX_KEPT_FILE_BYTES is left out, and so is every file once the snapshot
// holds MAX_SNAPSHOT_BYTES; symbolic links are recorded, never followed (a link can point out
// of the workspace). The database is not copied as a file: the workbench still has it open, so
// SQLite's backup API makes a consistent copy of it (what a reader would see at that moment).
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';
import { entryBlocks, readTar, TAR_END, TarError } from './tar.ts';
import type { TarEntry } from './tar.ts';

export const SNAPSHOT_FORMAT = 1;
export const SNAPSHOT_EXT = '.tar.gz';
// Rung workspaces hold text files and a small database (a few kB in the shipped rungs); the
// workbench's own file tools read at most 256 kB at once. 16 MiB keeps any file an agent can
// reasonably make and stops a runaway log from filling the results folder.
export const MAX_KEPT_FILE_BYTES = 16 * 1024 * 1024;
/** All the files of one snapshot together, before compression. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;
const WORKSPACE = 'workspace';
const NOTES = 'snapshot.json';
/** SQLite's own files beside a database: the backup copy stands for them. */
const SQLITE_SIDE_FILES = ['-journal', '-wal', '-shm'];
const MIB = 1024 * 1024;
const bytes = (n: number): string => (n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`);

export interface SnapshotNotes {
  format: number;
  /** The database's path in the workspace, when it was kept. */
  database: string | null;
  /** What was left out, path relative to the workspace, and why. */
  skipped: { path: string; why: string }[];
}

/** The snapshot file of one step in a pass's snapshot folder. */
export function snapshotFile(folder: string, step: number): string {
  return join(folder, `step-${step}${SNAPSHOT_EXT}`);
}

export interface KeepInput {
  /** The `.tar.gz` to write; replaced if it exists. */
  file: string;
  workspace: string;
  /** The workbench's database, when the rung has one. */
  databasePath?: string | undefined;
  /** A folder outside the workspace for the database copy. */
  scratch: string;
  /** The bounds, MAX_KEPT_FILE_BYTES and MAX_SNAPSHOT_BYTES unless given. */
  limits?: { fileBytes: number; snapshotBytes: number };
}

const toPosix = (path: string): string => path.split(sep).join('/');

async function copyDatabase(path: string, scratch: string): Promise<string> {
  const copy = join(scratch, `snapshot-${process.pid}-${Date.now()}.db`);
  // Loaded here, as the checks load it: a run that keeps no workspace never needs the binding.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    await db.backup(copy);
  } finally {
    db.close();
  }
  return copy;
}

/** Writes the step's snapshot; returns what it says about itself. */
export async function keepWorkspace(input: KeepInput): Promise<SnapshotNotes> {
  const notes: SnapshotNotes = { format: SNAPSHOT_FORMAT, database: null, skipped: [] };
  const leaveOut = (path: string, why: string): undefined => {
    notes.skipped.push({ path, why });
    return undefined;
  };
  const sideFiles = new Set<string>();
  let databaseCopy: string | undefined;
  let databaseRel: string | undefined;
  if (input.databasePath !== undefined) {
    databaseRel = toPosix(relative(input.workspace, input.databasePath));
    for (const suffix of ['', ...SQLITE_SIDE_FILES]) sideFiles.add(`${databaseRel}${suffix}`);
    if (databaseRel.startsWith('..') || isAbsolute(databaseRel)) leaveOut(databaseRel, 'the database is outside the workspace');
    else if ((await lstat(input.databasePath).catch(() => undefined)) === undefined) databaseRel = undefined;
    else {
      try {
        databaseCopy = await copyDatabase(input.databasePath, input.scratch);
      } catch (error) {
        leaveOut(databaseRel, `the database could not be copied: ${(error as Error).message}`);
      }
    }
  }
  let total = 0;
  const { fileBytes, snapshotBytes } = input.limits ?? { fileBytes: MAX_KEPT_FILE_BYTES, snapshotBytes: MAX_SNAPSHOT_BYTES };
  /** Reads a file if the bounds allow it; undefined (with a note) when they do not. */
  const take = async (full: string, rel: string, size: number): Promise<Buffer | undefined> => {
    if (size > fileBytes) return leaveOut(rel, `${size} bytes, over the ${bytes(fileBytes)} a kept file may have`);
    if (total + size > snapshotBytes) return leaveOut(rel, `the snapshot already holds ${bytes(snapshotBytes)} of files`);
    let data: Buffer;
    try {
      data = await readFile(full);
    } catch (error) {
      return leaveOut(rel, `could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    // The file may have grown since lstat (a call still running): the bound holds on what was read.
    if (data.length > fileBytes || total + data.length > snapshotBytes) return leaveOut(rel, 'it grew past the bounds while being kept');
    total += data.length;
    return data;
  };

  async function* entries(): AsyncGenerator<Buffer> {
    yield* entryBlocks({ name: WORKSPACE, type: 'dir' });
    async function* walk(dir: string): AsyncGenerator<Buffer> {
      const names = (await readdir(dir)).sort();
      for (const name of names) {
        const full = join(dir, name);
        const rel = toPosix(relative(input.workspace, full));
        const stat = await lstat(full).catch(() => undefined);
        if (stat === undefined) continue; // removed while the walk went on
        if (sideFiles.has(rel)) {
          if (rel !== databaseRel || databaseCopy === undefined) continue;
          const data = await take(databaseCopy, rel, (await lstat(databaseCopy)).size);
          if (data === undefined) continue;
          notes.database = rel;
          yield* entryBlocks({ name: `${WORKSPACE}/${rel}`, type: 'file', data });
        } else if (stat.isSymbolicLink()) leaveOut(rel, 'a symbolic link, not followed');
        else if (stat.isDirectory()) {
          yield* entryBlocks({ name: `${WORKSPACE}/${rel}`, type: 'dir' });
          yield* walk(full);
        } else if (!stat.isFile()) leaveOut(rel, 'not a regular file');
        else {
          const data = await take(full, rel, stat.size);
          if (data !== undefined) yield* entryBlocks({ name: `${WORKSPACE}/${rel}`, type: 'file', data });
        }
      }
    }
    yield* walk(input.workspace);
    yield* entryBlocks({ name: NOTES, type: 'file', data: Buffer.from(`${JSON.stringify(notes, null, 2)}\n`) });
    yield TAR_END;
  }

  await mkdir(dirname(input.file), { recursive: true });
  const temp = `${input.file}.tmp`;
  try {
    await pipeline(Readable.from(entries()), createGzip(), createWriteStream(temp));
    await rename(temp, input.file);
  } finally {
    await rm(temp, { force: true });
    if (databaseCopy !== undefined) await rm(databaseCopy, { force: true });
  }
  return notes;
}

/** A snapshot that cannot be read back; the message says what is wrong with it. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';
}

export interface UnpackedSnapshot extends SnapshotNotes {
  /** The workspace as it was, unpacked. */
  workspace: string;
  /** The database's full path in the unpacked workspace, when it was kept. */
  databasePath: string | undefined;
}

function safeName(name: string): string | undefined {
  const normal = normalize(name);
  return normal === '..' || normal.startsWith(`..${sep}`) || isAbsolute(normal) ? undefined : normal;
}

/** Unpacks a snapshot into `into` (an empty folder). */
export async function unpackSnapshot(file: string, into: string): Promise<UnpackedSnapshot> {
  let entries: TarEntry[];
  try {
    // Bounded: a snapshot holds at most MAX_SNAPSHOT_BYTES of files, plus headers.
    const tar = gunzipSync(await readFile(file), { maxOutputLength: 2 * MAX_SNAPSHOT_BYTES });
    entries = readTar(tar);
  } catch (error) {
    if (error instanceof TarError || (error as NodeJS.ErrnoException).code?.startsWith('Z_') || error instanceof RangeError) {
      throw new SnapshotError(`${file}: not a readable snapshot (${(error as Error).message})`);
    }
    throw error;
  }
  let notes: SnapshotNotes | undefined;
  const workspace = join(into, WORKSPACE);
  await mkdir(workspace, { recursive: true });
  for (const entry of entries) {
    if (entry.name === NOTES && entry.type === 'file') {
      notes = parseNotes(file, entry.data);
      continue;
    }
    const rel = entry.name === WORKSPACE ? '' : entry.name.startsWith(`${WORKSPACE}/`) ? entry.name.slice(WORKSPACE.length + 1) : undefined;
    const safe = rel === undefined ? undefined : safeName(rel === '' ? '.' : rel);
    if (safe === undefined) throw new SnapshotError(`${file}: entry ${JSON.stringify(entry.name)} is outside the snapshot's workspace`);
    const target = join(workspace, safe);
    if (entry.type === 'dir') await mkdir(target, { recursive: true });
    else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, entry.data);
    }
  }
  if (notes === undefined) throw new SnapshotError(`${file}: no ${NOTES} in it; not a snapshot written by ladder run --keep-workspaces`);
  return { ...notes, workspace, databasePath: notes.database === null ? undefined : join(workspace, notes.database) };
}

function parseNotes(file: string, data: Buffer): SnapshotNotes {
  let parsed: Partial<SnapshotNotes>;
  try {
    parsed = JSON.parse(data.toString('utf8')) as Partial<SnapshotNotes>;
  } catch {
    throw new SnapshotError(`${file}: ${NOTES} is not JSON`);
  }
  if (parsed.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`${file}: snapshot format ${String(parsed.format)}, this Ladder reads ${SNAPSHOT_FORMAT}`);
  if (!Array.isArray(parsed.skipped) || !(parsed.database === null || typeof parsed.database === 'string')) {
    throw new SnapshotError(`${file}: ${NOTES} lacks database or skipped`);
  }
  return { format: parsed.format, database: parsed.database, skipped: parsed.skipped };
}
