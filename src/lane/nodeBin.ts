// Node servers start as `process.execPath <script>`, never through npx: npx may download,
// prompt, or pick another version, and a benchmark must run the code that is installed.
// Started so, a server is one Node process the lane can watch over: it is spawned with the
// parent watch preloaded (spawnArgs in connections.ts), and cannot outlive the run.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { LaneConfigError } from './config.ts';
import type { StdioServerConfig } from './config.ts';

/** A package name with an optional version: `pkg`, `@scope/pkg`, `pkg@1.2.3`, `@scope/pkg@latest`. */
const PACKAGE_SPEC = /^(@[a-z0-9][\w.-]*\/[a-z0-9][\w.-]*|[a-z0-9][\w.-]*)(?:@[^@/\s]+)?$/i;

function packageName(spec: string): string | undefined {
  return PACKAGE_SPEC.exec(spec)?.[1];
}

function findPackageDir(name: string, cwd: string): string | undefined {
  // Searched by folder rather than require.resolve('<name>/package.json'): a package whose
  // `exports` hides its package.json still has one on disk.
  const paths = createRequire(join(cwd, 'noop.js')).resolve.paths(name) ?? [];
  return paths.map((dir) => join(dir, name)).find((dir) => existsSync(join(dir, 'package.json')));
}

/**
 * The script behind a package's bin: the bin named `bin`, else the one named like the package,
 * else its only one. Throws a one-line LaneConfigError when the package is not installed.
 */
export function resolveNodeBin(spec: string, options: { cwd?: string; bin?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const name = packageName(spec);
  if (name === undefined) throw new LaneConfigError(`${JSON.stringify(spec)} is not a package name`);
  const dir = findPackageDir(name, cwd);
  if (dir === undefined) {
    throw new LaneConfigError(`package ${name} is not installed under ${cwd}: add it to the project's dependencies`);
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === 'string' ? { [basename(name)]: manifest.bin } : (manifest.bin ?? {});
  const entries = Object.entries(bins);
  const chosen =
    (options.bin !== undefined ? bins[options.bin] : undefined) ??
    bins[basename(name)] ??
    (entries.length === 1 ? entries[0]![1] : undefined);
  if (chosen === undefined) {
    const names = entries.map(([bin]) => bin).join(', ') || 'none';
    throw new LaneConfigError(`package ${name} has no single bin to run (bins: ${names}); name one`);
  }
  return resolve(dir, chosen);
}

/** npx flags that take no value and only change how npx fetches, which no longer applies. */
const NPX_FLAGS = new Set(['-y', '--yes', '-q', '--quiet', '--no-install', '--prefer-offline']);

/**
 * Rewrites a stdio server so it runs on this Node: `npx [-y] pkg args` becomes
 * `process.execPath <bin script> args`; `node` becomes `process.execPath`.
 * Anything else is returned unchanged.
 */
export function nodeCommand(config: StdioServerConfig): StdioServerConfig {
  const command = basename(config.command).replace(/\.(cmd|exe)$/i, '');
  const args = config.args ?? [];
  if (command === 'node') return { ...config, command: process.execPath, args };
  if (command === 'npx') {
    let i = 0;
    while (i < args.length && NPX_FLAGS.has(args[i]!)) i += 1;
    const spec = args[i];
    if (spec === undefined || spec.startsWith('-')) {
      throw new LaneConfigError(`cannot run ${JSON.stringify(['npx', ...args].join(' '))}: name the package right after npx (flags: ${[...NPX_FLAGS].join(' ')})`);
    }
    const script = resolveNodeBin(spec, config.cwd === undefined ? {} : { cwd: config.cwd });
    return { ...config, command: process.execPath, args: [script, ...args.slice(i + 1)] };
  }
  return config;
}

/** A stdio server for an installed package's bin, e.g. `nodePackage('@modelcontextprotocol/server-everything')`. */
export function nodePackage(spec: string, args: string[] = [], options: { cwd?: string; bin?: string } = {}): StdioServerConfig {
  return { command: process.execPath, args: [resolveNodeBin(spec, options), ...args], ...(options.cwd === undefined ? {} : { cwd: options.cwd }) };
}
