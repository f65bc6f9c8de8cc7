// Imports point downward only (docs/build.md, "The source tree"). A room is a top-level folder
// of src/; room A depends on room B when a file in A imports one in B, `import type`,
// `export ... from` and `import()` included. Two rooms that import each other, directly or round
// a longer path, are one design problem: this test names the rooms of any such circle with one
// import on each of its edges, and holds every room to the order written below, so that a new
// room has to be given its place.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * The rooms from the top down; rooms that share a line import nothing of each other. A room may
 * import only rooms on lines below its own.
 */
const ORDER: readonly (readonly string[])[] = [
  ['cli'],
  ['matrix', 'report'],
  ['export'],
  ['runner'],
  ['agents', 'gateway'],
  ['otlp'],
  ['rungs'],
  ['agent'],
  ['judge'],
  ['results'],
  ['models'],
  ['lane'],
  ['trace'],
  ['server'],
  ['reliability'],
  ['mcp'],
];

interface Import {
  /** The importing file, from the repository root. */
  file: string;
  line: number;
  specifier: string;
}

/** Every module a file imports or re-exports, statically or with import(), with its line. */
function importsOf(text: string): { line: number; specifier: string }[] {
  const found: { at: number; specifier: string }[] = [];
  const patterns = [
    /(?:^|\n)(\s*(?:import|export)\b[^'"`;]*?\bfrom\s*)['"]([^'"]+)['"]/g,
    /()\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /(?:^|\n)(\s*import\s*)['"]([^'"]+)['"]/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      // The line of the specifier itself: a multi-line import is found at its `from`.
      const at = match.index + match[0].indexOf(match[1]!) + match[1]!.length;
      found.push({ at, specifier: match[2]! });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ at, specifier }) => ({ line: text.slice(0, at).split('\n').length, specifier }));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const roomOf = (path: string): string => relative(SRC, path).split(sep)[0]!;

/** Room -> room it imports -> the imports that make the edge, first in file order. */
function roomGraph(): Map<string, Map<string, Import[]>> {
  const graph = new Map<string, Map<string, Import[]>>();
  for (const path of sources(SRC)) {
    const from = roomOf(path);
    const edges = graph.get(from) ?? new Map<string, Import[]>();
    graph.set(from, edges);
    for (const { line, specifier } of importsOf(readFileSync(path, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier);
      // Data files outside src/ (data/prices.json) are no room.
      if (relative(SRC, target).startsWith('..')) continue;
      const to = roomOf(target);
      if (to === from) continue;
      const made = { file: `src/${relative(SRC, path).split(sep).join('/')}`, line, specifier };
      edges.set(to, [...(edges.get(to) ?? []), made]);
    }
  }
  return graph;
}

/**
 * One line per circle: the rooms on it in import order, each edge with one import that makes
 * it. Rooms that all reach each other (a strongly connected set) are reported once, along the
 * shortest circle through the first of them.
 */
function circles(graph: ReadonlyMap<string, ReadonlyMap<string, readonly Import[]>>): string[] {
  const rooms = [...graph.keys()].sort();
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length > 0) {
      for (const next of graph.get(todo.pop()!)?.keys() ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          todo.push(next);
        }
      }
    }
    return seen;
  };
  const reaches = new Map(rooms.map((room) => [room, reach(room)]));
  const done = new Set<string>();
  const found: string[] = [];
  for (const start of rooms) {
    if (done.has(start) || !reaches.get(start)!.has(start)) continue;
    const set = rooms.filter((room) => reaches.get(start)!.has(room) && reaches.get(room)!.has(start));
    for (const room of set) done.add(room);
    // Breadth first inside the set, back to the start: the shortest circle through it.
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0 && !cameFrom.has(start)) {
      const room = queue.shift()!;
      for (const next of [...graph.get(room)!.keys()].sort()) {
        if (!set.includes(next) || cameFrom.has(next)) continue;
        cameFrom.set(next, room);
        queue.push(next);
      }
    }
    const path = [start];
    for (let room = cameFrom.get(start)!; room !== start; room = cameFrom.get(room)!) path.unshift(room);
    path.unshift(start);
    const edges = path.slice(1).map((to, i) => {
      const one = graph.get(path[i]!)!.get(to)![0]!;
      return `${path[i]} -> ${to} (${one.file}:${one.line} imports ${one.specifier})`;
    });
    found.push(`${path.join(' -> ')}: ${edges.join(', ')}${set.length > path.length - 1 ? `; also on it: ${set.filter((r) => !path.includes(r)).join(', ')}` : ''}`);
  }
  return found;
}

const graphOf = (edges: Record<string, Record<string, number>>): Map<string, Map<string, Import[]>> =>
  new Map(Object.entries(edges).map(([from, tos]) => [from, new Map(Object.entries(tos).map(([to, line]) => [to, [{ file: `src/${from}/a.ts`, line, specifier: `../${to}/b.ts` }]]))]));

describe('the rooms of src/', () => {
  const graph = roomGraph();

  it('reads every form of relative import, with its line', () => {
    const text = [
      "import { a } from '../lane/a.ts';",
      'import type {',
      '  B,',
      "} from './b.ts';",
      "export { c } from '../trace/c.ts';",
      "export * from './d.ts';",
      "const e = await import('../models/e.ts');",
      "import '../lane/side-effect.ts';",
      "// a comment that says from '../report/x.ts' is not an import",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { line: 1, specifier: '../lane/a.ts' }, { line: 4, specifier: './b.ts' }, { line: 5, specifier: '../trace/c.ts' },
      { line: 6, specifier: './d.ts' }, { line: 7, specifier: '../models/e.ts' }, { line: 8, specifier: '../lane/side-effect.ts' },
    ]);
  });

  it('finds a circle, with its rooms in order and one import on each edge', () => {
    expect(circles(graphOf({ a: { b: 3 }, b: { c: 5 }, c: { a: 7, d: 9 }, d: {} }))).toEqual([
      'a -> b -> c -> a: a -> b (src/a/a.ts:3 imports ../b/b.ts), b -> c (src/b/a.ts:5 imports ../c/b.ts), c -> a (src/c/a.ts:7 imports ../a/b.ts)',
    ]);
    expect(circles(graphOf({ a: { b: 1 }, b: { a: 2, c: 3 }, c: { b: 4 }, d: { a: 5 } }))).toEqual([
      'a -> b -> a: a -> b (src/a/a.ts:1 imports ../b/b.ts), b -> a (src/b/a.ts:2 imports ../a/b.ts); also on it: c',
    ]);
    expect(circles(graphOf({ a: { b: 1, c: 2 }, b: { c: 3 }, c: {} }))).toEqual([]);
  });

  it('reads the imports of every room', () => {
    expect([...graph.keys()].length).toBeGreaterThan(10);
    expect(graph.get('cli')?.get('runner')?.length).toBeGreaterThan(0);
    expect(graph.get('rungs')?.get('judge')?.[0]).toMatchObject({ file: 'src/rungs/checks.ts', specifier: '../judge/judge.ts' });
    // A dynamic import counts: the CLI loads its commands' modules when they run.
    expect(graph.get('cli')?.get('export')?.map((i) => i.specifier)).toContain('../export/index.ts');
  });

  it('form no circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('are each in the written order once, and the order names no room that is not there', () => {
    const written = ORDER.flat();
    expect(written.filter((room, i) => written.indexOf(room) !== i)).toEqual([]);
    expect([...graph.keys()].filter((room) => !written.includes(room)).sort()).toEqual([]);
    expect(written.filter((room) => !graph.has(room))).toEqual([]);
  });

  it('import only rooms below their own in that order', () => {
    const level = new Map(ORDER.flatMap((rooms, i) => rooms.map((room) => [room, i] as const)));
    const upward = [...graph].flatMap(([from, edges]) => [...edges]
      .filter(([to]) => level.has(from) && level.has(to) && level.get(to)! <= level.get(from)!)
      .map(([to, imports]) => `${from} -> ${to}: ${imports[0]!.file}:${imports[0]!.line} imports ${imports[0]!.specifier}`));
    expect(upward).toEqual([]);
  });
});
