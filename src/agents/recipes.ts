// `ladder agents`: the shipped recipes as a user needs to see them before a run: the version each
// pins, whether it is installed (the agent cache first, then PATH, as `--agent` looks) and at
// which version, and whether CI runs it (src/agents/tested.ts).
import { agentCacheRoot } from './cache.ts';
import { loadAgentFile, RECIPES, recipeNames } from './file.ts';
import { askVersion, locateAgent, pinnedVersion, UNKNOWN_VERSION } from './locate.ts';
import { CI_TESTED } from './tested.ts';

export interface RecipeRow {
  name: string;
  kind: 'exec' | 'acp';
  /** The npm package and version it pins, when it pins one. */
  package: string | null;
  pinned: string | null;
  /** Where `--agent NAME` would find it, and the version found there; null when nowhere. */
  installed: { where: 'cache' | 'path'; version: string; command: string } | null;
  /** Run by the real-agent suite in CI. */
  tested: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every recipe in `folder`. The version found is the cached package's (no process started);
 * a copy on PATH is asked with the recipe's `version.args`, or "unknown" when it has none.
 */
export async function listRecipes(env: Env = process.env, folder: string = RECIPES, tested: readonly string[] = CI_TESTED): Promise<{ cache: string; rows: RecipeRow[] }> {
  const rows = await Promise.all(recipeNames(folder).map(async (name): Promise<RecipeRow> => {
    const file = await loadAgentFile(name, folder);
    const located = locateAgent(file, env);
    let installed: RecipeRow['installed'] = null;
    if (located.where === 'cache') installed = { where: 'cache', version: located.cachedVersion!, command: located.command };
    if (located.where === 'path') {
      const version = file.version === undefined ? undefined : await askVersion(located.command, file.version.args, env);
      installed = { where: 'path', version: version ?? UNKNOWN_VERSION, command: located.command };
    }
    return {
      name, kind: file.kind, package: file.package ?? null, pinned: pinnedVersion(file) ?? null, installed, tested: tested.includes(name),
    };
  }));
  return { cache: agentCacheRoot(env), rows };
}

/** The listing as a table a terminal shows, then where the cache is and how to install. */
export function recipeTable(list: { cache: string; rows: readonly RecipeRow[] }): string[] {
  const cells = list.rows.map((r) => [
    r.name, r.kind, r.pinned ?? '-',
    r.installed === null ? 'no' : r.installed.where === 'cache' ? `${r.installed.version} (agent cache)` : `${r.installed.version} (PATH: ${r.installed.command})`,
    r.tested ? 'yes' : 'no',
  ]);
  const head = ['recipe', 'kind', 'pinned', 'installed', 'CI-tested'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (row: readonly string[]): string => row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const other = list.rows.filter((r) => r.installed?.where === 'path' && r.pinned !== null && r.installed.version !== r.pinned);
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line),
    '',
    `agent cache: ${list.cache} (LADDER_AGENTS_CACHE moves it)`,
    ...other.map((r) => `${r.name}: PATH has ${r.installed!.version}, the recipe pins ${r.pinned}; a run uses it and says so (npx ladder agents install ${r.name} for the pinned one)`),
    'install one with: npx ladder agents install <recipe>; CI-tested: run by npm run test:agents on three rungs, both arms',
  ];
}
