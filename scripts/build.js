#!/usr/bin/env node
// The compiled build: `npm run build`, and `prepare` on every `npm ci`/`npm install`, so a fresh
// clone needs nothing more than `npm ci && npx ladder run`. Two entry points: the CLI
// (dist/cli.js, behind bin/ladder.js) and the workbench server that every pass starts
// (dist/workbench.js). Tests and the mutation battery run the TypeScript sources, not this.
//
// Why esbuild and not `tsc` emit: it was already installed (tsx runs on it), it builds the whole
// tree in about a second, and it bundles. Bundling is what pays: `tsc` would keep one file per
// module and leave yargs, zod and the MCP SDK as the hundreds of small files they ship as, and
// loading those was most of a command's start-up (a bare yargs program measured 1.3x slower
// unbundled than bundled, 2.4x against 1.8x a bare `node -e 0`). Type-checking stays with
// `tsc --noEmit` (npm run typecheck). `splitting` keeps every `await import()` in the sources a
// separate chunk, so a command still loads only what it uses.
//
// Left outside the bundle, loaded from node_modules when (and only when) they are used: the
// SQLite binding (native), Vega (large, reports only), the provider SDKs (one per model), tsx
// (resolved by path for .ts servers) and playwright-core (tests).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceFiles, STAMP } from '../bin/build-state.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const EXTERNAL = ['better-sqlite3', 'vega', 'vega-lite', 'openai', '@anthropic-ai/sdk', 'ollama', 'tsx', 'playwright-core'];
export const ENTRY_POINTS = { cli: 'src/cli/main.ts', workbench: 'src/server/main.ts' };
/**
 * Builds into `outdir` (default dist/, replaced whole) and returns esbuild's metafile;
 * `write: false` only computes the metafile (what each entry point loads).
 */
export async function buildLadder({ root = ROOT, outdir = join(root, 'dist'), write = true } = {}) {
  const sources = sourceFiles(root);
  if (write) {
    rmSync(outdir, { recursive: true, force: true });
    mkdirSync(outdir, { recursive: true });
  }
  const result = await build({
    write,
    absWorkingDir: root,
    entryPoints: ENTRY_POINTS,
    outdir,
    // Flat: every file in one folder, so compiled code finds its sibling entry point
    // (the runner starts ./workbench.js) whichever chunk it ended up in.
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages inside an ESM bundle call require() for Node's built-ins.
    banner: { js: "import { createRequire as __ladderRequire } from 'node:module'; const require = __ladderRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  if (write) writeFileSync(join(outdir, STAMP), `${JSON.stringify({ sources }, null, 1)}\n`);
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildLadder();
  process.stdout.write(`ladder: built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
