// Whether dist/ (the compiled build) was made from the sources as they are now. The build
// records every file under src/ with its size and modification time (dist/build.json); any
// file added, removed, resized or touched since makes the build stale. About 150 stat calls,
// a millisecond or two: cheap next to running code that no longer matches its sources.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const STAMP = 'build.json';

/** Every file under src/ as `{ "src/x.ts": [size, mtimeMs] }`, paths with forward slashes. */
export function sourceFiles(root) {
  const files = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path);
        files[relative(root, path).split('\\').join('/')] = [stat.size, stat.mtimeMs];
      }
    }
  };
  walk(join(root, 'src'));
  return files;
}

/** 'fresh', 'missing' (never built) or 'stale' (src/ changed since the build). */
export function buildState(root) {
  let built;
  try {
    built = JSON.parse(readFileSync(join(root, 'dist', STAMP), 'utf8')).sources;
  } catch {
    return 'missing';
  }
  const now = sourceFiles(root);
  const names = Object.keys(now);
  if (names.length !== Object.keys(built).length) return 'stale';
  for (const name of names) {
    const [size, mtime] = built[name] ?? [];
    if (size !== now[name][0] || mtime !== now[name][1]) return 'stale';
  }
  return 'fresh';
}
