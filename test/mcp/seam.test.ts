// The MCP SDK is used through src/mcp/ only: a new SDK line, or a new revision of the protocol,
// is then a change in that one folder. And src/mcp/ knows nothing of Ladder, so it can be read
// and changed on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports or re-exports, statically or with import(). */
function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  return found;
}

const files = sources(SRC).map((path) => ({ name: relative(SRC, path), imports: importsOf(readFileSync(path, 'utf8')) }));

describe('the MCP SDK seam', () => {
  it('reads every form of import it guards against', () => {
    const text = [
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
      'import type {\n  Tool,\n} from "@modelcontextprotocol/client";',
      "export { Server } from '@modelcontextprotocol/server';",
      "const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');",
      "import '../lane/side-effect.ts';",
      "// a comment that says from '@modelcontextprotocol/sdk' is not an import",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/client', '@modelcontextprotocol/server',
      '@modelcontextprotocol/sdk/server/stdio.js', '../lane/side-effect.ts',
    ]);
  });

  it('finds the folder it guards, and the SDK imported inside it', () => {
    const inside = files.filter((file) => file.name.startsWith('mcp/'));
    expect(inside.map((file) => file.name)).toEqual(expect.arrayContaining(['mcp/client.ts', 'mcp/errors.ts', 'mcp/server.ts', 'mcp/types.ts']));
    expect(inside.flatMap((file) => file.imports).filter((name) => name.startsWith('@modelcontextprotocol/')).length).toBeGreaterThan(10);
  });

  it('no file outside src/mcp/ imports the SDK', () => {
    const leaks = files
      .filter((file) => !file.name.startsWith('mcp/'))
      .flatMap((file) => file.imports.filter((name) => name.startsWith('@modelcontextprotocol/')).map((name) => `src/${file.name} imports ${name}`));
    expect(leaks).toEqual([]);
  });

  it('src/mcp/ imports nothing of Ladder', () => {
    const upward = files
      .filter((file) => file.name.startsWith('mcp/'))
      .flatMap((file) => file.imports.filter((name) => name.startsWith('..')).map((name) => `src/${file.name} imports ${name}`));
    expect(upward).toEqual([]);
  });

  it("nothing in src/ is on the SDK's v1 line, and the package ships the v2 packages it imports", () => {
    const v1 = files.flatMap((file) => file.imports.filter((name) => name.startsWith('@modelcontextprotocol/sdk')).map((name) => `src/${file.name} imports ${name}`));
    expect(v1).toEqual([]);
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
      dependencies: Record<string, string>; devDependencies: Record<string, string>;
    };
    const imported = new Set(files.flatMap((file) => file.imports).filter((name) => name.startsWith('@modelcontextprotocol/')).map((name) => name.split('/').slice(0, 2).join('/')));
    expect([...imported].sort()).toEqual(['@modelcontextprotocol/client', '@modelcontextprotocol/server']);
    for (const name of imported) expect(manifest.dependencies[name], `${name} in dependencies`).toBe('2.4.0');
    // The v1 line stays for the tests, as a real 2025 client and as the servers under test.
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
  });
});
