// The per-user agent cache, where `--agent` finds an agent (the cache first, then PATH), the
// version a run records, and `ladder agents` / `ladder agents install`, with a stand-in npm (a
// real process laying out what npm would) so nothing is fetched.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentCacheRoot, cacheFolder } from '../../src/agents/cache.ts';
import { notInstalledLine } from '../../src/agents/faults.ts';
import { agentLine, agentVersion, locateAgent, pinnedVersion } from '../../src/agents/locate.ts';
import { listRecipes, recipeTable } from '../../src/agents/recipes.ts';
import { runAgentsInstall, runAgentsList } from '../../src/cli/agents.ts';
import { agentFile } from './helpers.ts';

const FAKE_NPM = fileURLToPath(new URL('../fixtures/agents/fake-npm.mjs', import.meta.url));

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ladder-cache-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A command that prints a version, in its own folder (a copy "on PATH"). */
function onPathCopy(command: string, printed: string): string {
  const dir = join(root, 'path-bin');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, command), `#!/bin/sh\necho "${printed}"\n`);
  chmodSync(join(dir, command), 0o755);
  return dir;
}

/** What `ladder agents install` leaves: the package's version and the command in .bin. */
function cached(cache: string, recipe: string, pkg: string, version: string, command: string): string {
  const folder = join(cache, recipe, version);
  mkdirSync(join(folder, 'node_modules', pkg), { recursive: true });
  writeFileSync(join(folder, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, version }));
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(folder, 'node_modules', '.bin', command), '#!/bin/sh\necho "cached 9.9.9"\n');
  chmodSync(join(folder, 'node_modules', '.bin', command), 0o755);
  return join(folder, 'node_modules', '.bin', command);
}

const PINNED = { kind: 'exec', command: 'fakeagent', package: '@acme/fake-agent@1.2.3', version: { args: ['--version'] } };

describe('the agent cache folder', () => {
  it('is LADDER_AGENTS_CACHE, else under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(agentCacheRoot({ LADDER_AGENTS_CACHE: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(agentCacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/ladder/agents');
    expect(agentCacheRoot({ HOME: '/h' })).toBe('/h/.cache/ladder/agents');
    expect(agentCacheRoot({ LADDER_AGENTS_CACHE: '', XDG_CACHE_HOME: '', HOME: '/h' })).toBe('/h/.cache/ladder/agents');
  });

  it('installs withPackages beside the package, records them in the version, and reinstalls when one is missing', async () => {
    const lines: string[] = [];
    const log = join(root, 'npm.log');
    const dir = recipes({ adapter: { ...PINNED, command: 'alpha', withPackages: ['@acme/agent-itself@2.1.328'] } });
    const w = {
      env: { LADDER_AGENTS_CACHE: join(root, 'cache'), FAKE_NPM_LOG: log, FAKE_NPM_BIN: 'alpha' },
      recipes: dir, npm: FAKE_NPM, err: (l: string) => void lines.push(l), npmOutput: { write: () => true } as unknown as NodeJS.WritableStream,
    };
    expect(await runAgentsInstall(['adapter'], w)).toBe(0);
    const folder = join(root, 'cache', 'adapter', '1.2.3');
    expect(readFileSync(log, 'utf8').trim()).toBe(`install --prefix ${folder}.installing-${process.pid} --save-exact --no-audit --no-fund @acme/fake-agent@1.2.3 @acme/agent-itself@2.1.328`);
    expect(lines[1]).toMatch(/installed adapter 1\.2\.3\+agent-itself-2\.1\.328 in/);
    const file = { ...agentFile({ ...PINNED, command: 'alpha', withPackages: ['@acme/agent-itself@2.1.328'] }), name: 'adapter' };
    expect(locateAgent(file, { LADDER_AGENTS_CACHE: join(root, 'cache') })).toMatchObject({ where: 'cache', cachedVersion: '1.2.3+agent-itself-2.1.328' });
    expect(pinnedVersion(file)).toBe('1.2.3+agent-itself-2.1.328');
    // The package beside it at another version is not the recipe's agent: not installed, so installed again.
    rmSync(join(folder, 'node_modules', '@acme', 'agent-itself'), { recursive: true });
    expect(locateAgent(file, { LADDER_AGENTS_CACHE: join(root, 'cache'), PATH: join(root, 'none') }).where).toBe('missing');
    expect(await runAgentsInstall(['adapter'], w)).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('holds one folder per recipe and pinned version', () => {
    expect(cacheFolder({ name: 'codex', package: '@openai/codex@0.171.0' }, '/c')).toBe('/c/codex/0.171.0');
    expect(cacheFolder({ name: 'mine', package: undefined }, '/c')).toBeUndefined();
  });
});

describe('where --agent finds an agent', () => {
  it('takes the cached copy at the pinned version before one on PATH', () => {
    const path = onPathCopy('fakeagent', 'fake-agent 1.0.0');
    const bin = cached(root, 'test', '@acme/fake-agent', '1.2.3', 'fakeagent');
    const located = locateAgent(agentFile(PINNED), { LADDER_AGENTS_CACHE: root, PATH: path });
    expect(located).toEqual({ command: bin, where: 'cache', cachedVersion: '1.2.3' });
  });

  it('ignores a cached copy of another version, and finds the one on PATH', () => {
    const path = onPathCopy('fakeagent', 'fake-agent 1.0.0');
    cached(root, 'test', '@acme/fake-agent', '1.2.2', 'fakeagent');
    expect(locateAgent(agentFile(PINNED), { LADDER_AGENTS_CACHE: root, PATH: path })).toEqual({ command: join(path, 'fakeagent'), where: 'path' });
  });

  it('says missing when it is in neither, and leaves a path or placeholder command as the file wrote it', () => {
    expect(locateAgent(agentFile(PINNED), { LADDER_AGENTS_CACHE: root, PATH: join(root, 'none') })).toEqual({ command: 'fakeagent', where: 'missing' });
    expect(locateAgent(agentFile({ kind: 'exec', command: '{agentDir}/run.sh' }), { LADDER_AGENTS_CACHE: root }).where).toBe('file');
  });
});

describe('the version a run records', () => {
  it("is the first x.y.z the agent prints for its version.args", async () => {
    const path = onPathCopy('fakeagent', 'fakeagent-cli v2.0.1-beta.3 (node 20.19.0)');
    const file = agentFile(PINNED);
    const env = { LADDER_AGENTS_CACHE: root, PATH: `${path}:/usr/bin:/bin` };
    const located = locateAgent(file, env);
    expect(await agentVersion(file, located, env)).toEqual({ version: '2.0.1-beta.3', from: 'asked' });
    expect(agentLine(file, located, { version: '2.0.1-beta.3', from: 'asked' })).toBe(
      `agent: test 2.0.1-beta.3 (from PATH (${join(path, 'fakeagent')})); the recipe pins 1.2.3, so results may differ from CI's; ` +
      'npx ladder agents install test-agent.yaml puts 1.2.3 in the agent cache, which is used first',
    );
  });

  it('is the cached package\'s when the file has no version.args, and "unknown" when nothing says', async () => {
    const noFlag = agentFile({ ...PINNED, version: undefined });
    cached(root, 'test', '@acme/fake-agent', '1.2.3', 'fakeagent');
    const env = { LADDER_AGENTS_CACHE: root, PATH: '/usr/bin:/bin' };
    const located = locateAgent(noFlag, env);
    expect(await agentVersion(noFlag, located, env)).toEqual({ version: '1.2.3', from: 'package' });
    expect(agentLine(noFlag, located, { version: '1.2.3', from: 'package' })).toBe('agent: test 1.2.3 (from the agent cache)');
    const bare = agentFile({ kind: 'exec', command: 'sh' });
    expect(await agentVersion(bare, locateAgent(bare, env), env)).toEqual({ version: 'unknown', from: 'unknown' });
  });

  it('a PATH copy at the pinned version is said without a warning', () => {
    const file = agentFile(PINNED);
    expect(agentLine(file, { command: '/bin/fakeagent', where: 'path' }, { version: '1.2.3', from: 'asked' })).toBe('agent: test 1.2.3 (from PATH (/bin/fakeagent))');
  });
});

describe('not installed', () => {
  it('names ladder agents install for a pinned agent file', () => {
    const file = agentFile(PINNED);
    expect(notInstalledLine(file, 'fakeagent')).toBe(
      'fakeagent is not installed (not in the agent cache and not found on PATH); install it with: npx ladder agents install test-agent.yaml',
    );
    expect(notInstalledLine({ ...file, file: 'agents/test.yaml' }, 'fakeagent')).toMatch(/install it with: npx ladder agents install test$/);
  });
});

/** A recipes folder with the given agent files. */
function recipes(files: Record<string, Record<string, unknown>>): string {
  const dir = join(root, 'recipes');
  mkdirSync(dir, { recursive: true });
  for (const [name, fields] of Object.entries(files)) writeFileSync(join(dir, `${name}.yaml`), JSON.stringify({ name, ...fields }));
  return dir;
}

describe('ladder agents', () => {
  it('lists each recipe: pinned, where it is installed and at which version, CI-tested', async () => {
    const dir = recipes({ alpha: { ...PINNED, command: 'alpha' }, beta: { ...PINNED, command: 'beta' }, gamma: { ...PINNED, command: 'gamma' } });
    cached(root, 'alpha', '@acme/fake-agent', '1.2.3', 'alpha');
    const path = onPathCopy('beta', 'beta 1.1.0');
    const list = await listRecipes({ LADDER_AGENTS_CACHE: root, PATH: `${path}:/usr/bin:/bin` }, dir, ['beta']);
    expect(list.rows.map((r) => [r.name, r.pinned, r.installed?.where ?? null, r.installed?.version ?? null, r.tested])).toEqual([
      ['alpha', '1.2.3', 'cache', '1.2.3', false],
      ['beta', '1.2.3', 'path', '1.1.0', true],
      ['gamma', '1.2.3', null, null, false],
    ]);
    const table = recipeTable(list);
    expect(table[2]).toMatch(/^alpha +exec +1\.2\.3 +1\.2\.3 \(agent cache\) +no$/);
    expect(table[4]).toMatch(/^gamma +exec +1\.2\.3 +no +no$/);
    expect(table).toContain('beta: PATH has 1.1.0, the recipe pins 1.2.3; a run uses it and says so (npx ladder agents install beta for the pinned one)');
  });

  it('--json gives the same listing to scripts', async () => {
    const dir = recipes({ alpha: PINNED });
    const out: string[] = [];
    expect(await runAgentsList(true, { env: { LADDER_AGENTS_CACHE: root, PATH: '' }, recipes: dir, out: (l) => void out.push(l) })).toBe(0);
    const json = JSON.parse(out.join('\n')) as { cache: string; rows: { name: string; installed: unknown }[] };
    expect(json.cache).toBe(root);
    expect(json.rows).toMatchObject([{ name: 'alpha', installed: null, package: '@acme/fake-agent@1.2.3' }]);
  });
});

describe('ladder agents install', () => {
  const world = (extra: Record<string, string> = {}) => {
    const lines: string[] = [];
    const log = join(root, 'npm.log');
    const dir = recipes({ alpha: { ...PINNED, command: 'alpha' }, bare: { kind: 'exec', command: 'bare' } });
    return {
      lines, log,
      world: {
        env: { LADDER_AGENTS_CACHE: join(root, 'cache'), FAKE_NPM_LOG: log, FAKE_NPM_BIN: 'alpha', ...extra },
        recipes: dir, npm: FAKE_NPM, err: (l: string) => void lines.push(l), npmOutput: { write: () => true } as unknown as NodeJS.WritableStream,
      },
    };
  };

  it('installs the pinned package into <cache>/<recipe>/<version>, then reuses it without npm', async () => {
    const { lines, log, world: w } = world();
    expect(await runAgentsInstall(['alpha'], w)).toBe(0);
    const folder = join(root, 'cache', 'alpha', '1.2.3');
    expect(readFileSync(log, 'utf8').trim()).toBe(`install --prefix ${folder}.installing-${process.pid} --save-exact --no-audit --no-fund @acme/fake-agent@1.2.3`);
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))).toEqual({ name: 'ladder-agent-alpha', private: true });
    expect(existsSync(join(folder, 'node_modules', '.bin', 'alpha'))).toBe(true);
    expect(readdirSync(join(root, 'cache', 'alpha'))).toEqual(['1.2.3']);
    expect(lines[0]).toBe(`ladder agents install: installing @acme/fake-agent@1.2.3 into ${folder} (npm's output follows)`);
    expect(lines[1]).toMatch(new RegExp(`^ladder agents install: installed alpha 1\\.2\\.3 in \\d+ s: ${folder}/node_modules/\\.bin/alpha$`));

    expect(await runAgentsInstall(['alpha'], w)).toBe(0);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(lines[2]).toBe(`ladder agents install: alpha 1.2.3 is already in the agent cache: ${folder}`);
    // And --agent now finds it there.
    expect(locateAgent({ ...agentFile({ ...PINNED, command: 'alpha' }), name: 'alpha' }, { LADDER_AGENTS_CACHE: join(root, 'cache') }).where).toBe('cache');
  });

  it("says npm's failure in one line with what to do, and leaves no folder that reads as installed", async () => {
    const { lines, world: w } = world({ FAKE_NPM_FAIL: '1' });
    expect(await runAgentsInstall(['alpha'], w)).toBe(1);
    expect(lines.at(-1)).toBe('ladder agents install: alpha: npm install @acme/fake-agent@1.2.3 failed (exit 1): npm error code E404 / ' +
      'npm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found; check that the npm registry can be reached (npm ping) and run again');
    expect(readdirSync(join(root, 'cache', 'alpha'))).toEqual([]);
  });

  it('refuses a package that has no such command, an agent file with no package, and an unknown name', async () => {
    const { lines, world: w } = world({ FAKE_NPM_BIN: 'other' });
    expect(await runAgentsInstall(['alpha'], w)).toBe(1);
    expect(lines.at(-1)).toBe("ladder agents install: alpha: @acme/fake-agent@1.2.3 installed, but it has no command alpha (node_modules/.bin); check the agent file's command and package");
    expect(readdirSync(join(root, 'cache', 'alpha'))).toEqual([]);
    expect(await runAgentsInstall(['bare'], w)).toBe(1);
    expect(lines.at(-1)).toBe('ladder agents install: bare: agents/bare.yaml: no package field, so there is nothing to install; install the agent yourself and put it on PATH');
    expect(await runAgentsInstall(['alpah'], w)).toBe(2);
    expect(lines.at(-1)).toMatch(/^ladder agents install: alpah: no shipped agent by that name and no such file; did you mean alpha\?/);
  });
});
