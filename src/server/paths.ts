// Confinement to the workspace. A path is refused, before anything touches the disk, when it
// is absolute, when `..` takes it out of the root, or when a symlink on the way resolves
// outside it. The check and the operation are not atomic: a process racing us on the same
// folder could swap a directory for a symlink in between. Rungs own their workspace, so that
// race is out of scope here.
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool.ts';

/** Resolves `relative` inside `root` (a real path) or throws a ToolError saying why not. */
export function resolveInside(root: string, relative: string): string {
  if (relative.includes('\0')) throw new ToolError(`path ${JSON.stringify(relative)} contains a NUL byte`);
  if (path.isAbsolute(relative) || /^[a-zA-Z]:[\\/]/.test(relative) || relative.startsWith('\\')) {
    throw new ToolError(
      `path ${JSON.stringify(relative)} is absolute; give a path relative to the workspace (e.g. "notes/todo.md")`,
    );
  }
  const target = path.resolve(root, relative);
  if (!isInside(root, target)) {
    throw new ToolError(`path ${JSON.stringify(relative)} leaves the workspace; give a path inside it`);
  }
  const real = realOfDeepestExisting(target, root, relative);
  if (!isInside(root, real)) {
    throw new ToolError(
      `path ${JSON.stringify(relative)} goes through a symlink that points outside the workspace; refused`,
    );
  }
  return target;
}

/** The workspace-relative form of an absolute path inside `root`, with `/` separators. */
export function relativeTo(root: string, absolute: string): string {
  const rel = path.relative(root, absolute).split(path.sep).join('/');
  return rel === '' ? '.' : rel;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The real path of `target`, or of its deepest existing ancestor joined with the rest. A
 * dangling symlink on the way is refused outright: writing through it would create its
 * target, wherever that is.
 */
function realOfDeepestExisting(target: string, root: string, shown: string): string {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...rest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    if (isSymlink(current)) {
      throw new ToolError(`path ${JSON.stringify(shown)} goes through a dangling symlink; refused`);
    }
    const parent = path.dirname(current);
    if (parent === current || !isInside(root, parent)) return target;
    rest.unshift(path.basename(current));
    current = parent;
  }
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
