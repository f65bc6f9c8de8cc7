// The workspace's files: list, read, write, edit, each confined to the workspace (paths.ts).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { relativeTo, resolveInside } from './paths.ts';
import { addTool, json, text, ToolError, type ToolHost } from './tool.ts';

/** A read returns at most this much: larger files are cut with a note saying so. */
const MAX_READ_BYTES = 256 * 1024;
/** A listing stops here, so a recursive listing of a big tree cannot flood a context. */
const MAX_LIST_ENTRIES = 1_000;

const pathField = z.string().min(1).describe('Path relative to the workspace, e.g. "src/app.ts".');

export function registerFiles(host: ToolHost): void {
  const { state } = host;
  const { root } = state;

  addTool(
    host,
    'files_list',
    {
      title: 'List files',
      description:
        'Lists the entries of a folder in the workspace (default: the workspace itself), with type and size. ' +
        'Set recursive to list the whole tree below it.',
      inputSchema: {
        path: z.string().default('.').describe('Folder relative to the workspace; "." is the workspace.'),
        recursive: z.boolean().default(false),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path: folder, recursive }) => {
      const start = resolveInside(root, folder);
      const stat = statOrThrow(start, folder);
      if (!stat.isDirectory()) throw new ToolError(`${folder} is a file, not a folder; use files_read to read it`);
      const entries: { path: string; type: string; bytes?: number }[] = [];
      const walk = (dir: string): void => {
        for (const dirent of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          if (entries.length >= MAX_LIST_ENTRIES) return;
          const full = path.join(dir, dirent.name);
          const type = dirent.isDirectory() ? 'dir' : dirent.isSymbolicLink() ? 'symlink' : 'file';
          const entry: { path: string; type: string; bytes?: number } = { path: relativeTo(root, full), type };
          if (type === 'file') entry.bytes = fs.statSync(full).size;
          entries.push(entry);
          if (recursive && type === 'dir') walk(full);
        }
      };
      walk(start);
      const truncated = entries.length >= MAX_LIST_ENTRIES;
      return json({ path: relativeTo(root, start), entries, ...(truncated ? { truncated: true } : {}) });
    },
  );

  addTool(
    host,
    'files_read',
    {
      title: 'Read a file',
      description: 'Reads a text file from the workspace and returns its content.',
      inputSchema: { path: pathField },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path: file }) => {
      const full = resolveInside(root, file);
      const stat = statOrThrow(full, file);
      if (stat.isDirectory()) throw new ToolError(`${file} is a folder; use files_list to see what is in it`);
      const bytes = fs.readFileSync(full);
      const head = bytes.subarray(0, MAX_READ_BYTES);
      if (head.includes(0)) {
        throw new ToolError(`${file} is a binary file (${bytes.length} bytes) and cannot be shown as text`);
      }
      const note = bytes.length > MAX_READ_BYTES ? `\n[cut at ${MAX_READ_BYTES} of ${bytes.length} bytes]` : '';
      return text(head.toString('utf8') + note);
    },
  );

  addTool(
    host,
    'files_write',
    {
      title: 'Write a file',
      description:
        'Writes content to a file in the workspace, replacing it if it exists and creating missing folders.',
      inputSchema: { path: pathField, content: z.string().describe('The whole new content of the file.') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ path: file, content }) => {
      const full = resolveInside(root, file);
      if (fs.existsSync(full) && fs.statSync(full).isDirectory()) {
        throw new ToolError(`${file} is a folder; give a file path`);
      }
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
      const bytes = Buffer.byteLength(content);
      state.logs.append(`INFO  files: wrote ${relativeTo(root, full)} (${bytes} bytes)`);
      return text(`wrote ${bytes} bytes to ${relativeTo(root, full)}`);
    },
  );

  addTool(
    host,
    'files_edit',
    {
      title: 'Edit a file',
      description:
        'Replaces exact text in a workspace file. oldText must match the file exactly, whitespace included, ' +
        'and occur once unless replaceAll is true. Read the file first to copy the text.',
      inputSchema: {
        path: pathField,
        oldText: z.string().min(1).describe('The exact text to find.'),
        newText: z.string().describe('The text to put in its place.'),
        replaceAll: z.boolean().default(false).describe('Replace every occurrence instead of exactly one.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ path: file, oldText, newText, replaceAll }) => {
      const full = resolveInside(root, file);
      const stat = statOrThrow(full, file);
      if (stat.isDirectory()) throw new ToolError(`${file} is a folder; give a file path`);
      const before = fs.readFileSync(full, 'utf8');
      const count = before.split(oldText).length - 1;
      if (count === 0) {
        throw new ToolError(
          `text not found in ${file}: ${JSON.stringify(preview(oldText))}; read the file and copy the exact text, whitespace included`,
        );
      }
      if (count > 1 && !replaceAll) {
        throw new ToolError(
          `text occurs ${count} times in ${file}; include more surrounding text to make it unique, or pass replaceAll: true`,
        );
      }
      const after = replaceAll ? before.split(oldText).join(newText) : before.replace(oldText, () => newText);
      fs.writeFileSync(full, after);
      state.logs.append(`INFO  files: edited ${relativeTo(root, full)} (${count} replacement${count > 1 ? 's' : ''})`);
      return text(`replaced ${count} occurrence${count > 1 ? 's' : ''} in ${relativeTo(root, full)}`);
    },
  );
}

function statOrThrow(full: string, shown: string): fs.Stats {
  try {
    return fs.statSync(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolError(`${shown} does not exist; use files_list to see what is there`);
    }
    throw error;
  }
}

function preview(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}
