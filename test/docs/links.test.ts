// Every relative link in README.md and docs/*.md resolves: the file (or folder) exists, and a
// #anchor names a heading of that file, slugged as GitHub slugs headings.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks and inline code: links and headings there are not links or headings. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens; repeats numbered. */
export function slugs(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a page, with the line they are on. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  prose(markdown).forEach((line, i) => {
    const text = line.replace(/`[^`]*`/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target!)) found.push({ target: target!, line: i + 1 });
    }
  });
  return found;
}

function broken(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const problems: string[] = [];
  for (const { target, line } of links(text)) {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
    const where = `${page}:${line} ${target}`;
    if (!existsSync(file)) {
      problems.push(`${where}: no such file ${relative(ROOT, file)}`);
      continue;
    }
    if (anchor !== undefined && file.endsWith('.md') && !slugs(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) {
      problems.push(`${where}: no heading #${anchor} in ${relative(ROOT, file)}`);
    }
  }
  return problems;
}

describe('relative links in the README and docs/', () => {
  it('slugs headings as GitHub does', () => {
    expect([...slugs('## Why a pass failed: `ladder show` and the transcripts\n### Cost and `--max-cost`\n### Cost and `--max-cost`')])
      .toEqual(['why-a-pass-failed-ladder-show-and-the-transcripts', 'cost-and---max-cost', 'cost-and---max-cost-1']);
    expect(slugs('```\n# not a heading\n```\n').size).toBe(0);
  });

  it('finds a link to a missing file or heading', () => {
    expect(links('[a](docs/x.md#y) `[b](c.md)` [d](https://example.com)')).toEqual([{ target: 'docs/x.md#y', line: 1 }]);
  });

  it.each(PAGES)('%s: every relative link resolves, file and heading', (page) => {
    expect(broken(page)).toEqual([]);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('is under 200 lines, a first page read in five minutes; details go to the docs pages it links', () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThan(200);
  });

  it('opens with the two commands: the main job, then the tests', () => {
    expect(readme.split('\n').slice(2, 6)).toEqual([
      '```sh',
      'npm ci && npx ladder run     # the main job: every rung, reliability layer on and off, then the comparison',
      'npm test                     # the tests',
      '```',
    ]);
  });
});
