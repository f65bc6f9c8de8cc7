// The matrix as people read it: scenarios down, agents across. A value short enough shows
// whole; a longer one shows its first words and a footnote number, and the footnote holds the
// whole value and where it was read (every cell's evidence is in the JSON, and in the HTML's
// tooltips: a note for each of some 400 cells would bury the table). Markdown for the docs' page, text for a terminal, JSON
// for CI's baseline, HTML for a browser.
import type { Matrix } from './index.ts';

/** Characters of a cell before it is cut and footnoted. */
const SHORT = 40;

/** The first words of a value: up to its first colon, semicolon or bracket, at most SHORT characters. */
export function shortValue(value: string): string {
  const head = value.split(/[:;(]/)[0]!.trim();
  return head.length > SHORT ? `${head.slice(0, SHORT - 1)}…` : head;
}

interface Laid {
  header: string[];
  body: { family: string; cells: string[] }[];
  notes: string[];
}

function lay(matrix: Matrix): Laid {
  const notes: string[] = [];
  const body = matrix.rows.map((r) => ({
    family: r.family,
    cells: [r.row, ...matrix.agents.map((a) => {
      const c = matrix.cells[a.name]?.[r.row];
      if (c === undefined) return '–';
      // A value shown whole needs no note (its evidence is in the JSON and the HTML's tooltips); one cut short gets one.
      if (shortValue(c.value) === c.value) return c.value;
      notes.push(`${a.name}, ${r.row}: ${c.value} (${c.evidence})`);
      return `${shortValue(c.value)} [${notes.length}]`;
    })],
  }));
  return { header: ['', ...matrix.agents.map((a) => (a.version === 'unknown' ? a.name : `${a.name} ${a.version}`))], body, notes };
}

const escape = (text: string): string => text.replaceAll('|', '\\|');

export function matrixMarkdown(matrix: Matrix): string[] {
  const { header, body, notes } = lay(matrix);
  const out = [`| ${header.map(escape).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  let family = '';
  for (const row of body) {
    if (row.family !== family) {
      family = row.family;
      out.push(`| **${escape(family)}** |${header.slice(1).map(() => ' ').join('|')}|`);
    }
    out.push(`| ${row.cells.map(escape).join(' | ')} |`);
  }
  return [...out, '', ...notes.map((n, i) => `${i + 1}. ${n}`)];
}

export function matrixText(matrix: Matrix): string[] {
  const { header, body, notes } = lay(matrix);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r.cells[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(header)];
  let family = '';
  for (const row of body) {
    if (row.family !== family) {
      family = row.family;
      out.push('', family);
    }
    out.push(line(row.cells));
  }
  return [...out, '', ...notes.map((n, i) => `[${i + 1}] ${n}`)];
}

const html = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export function matrixHtml(matrix: Matrix): string {
  const head = `<tr><th></th>${matrix.agents.map((a) => `<th>${html(a.name)}<br><small>${html(a.version)}</small></th>`).join('')}</tr>`;
  let family = '';
  const rows = matrix.rows.map((r) => {
    const band = r.family === family ? '' : `<tr><th colspan="${matrix.agents.length + 1}" class="family">${html((family = r.family))}</th></tr>`;
    const cells = matrix.agents.map((a) => {
      const c = matrix.cells[a.name]?.[r.row];
      return c === undefined ? '<td>–</td>' : `<td class="${html(c.value.split(/[:\s]/)[0]!)}" title="${html(c.evidence)}">${html(c.value)}</td>`;
    }).join('');
    return `${band}<tr><th>${html(r.row)}</th>${cells}</tr>`;
  }).join('\n');
  return `<!doctype html><meta charset="utf-8"><title>Ladder agent matrix ${html(matrix.date)}</title>
<style>body{font:14px system-ui;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;max-width:16em;text-align:left}.family{background:#eee}.yes{background:#e6f4e6}.no{background:#fbe9e7}</style>
<h1>What each agent's MCP client does</h1><p>${html(matrix.date)}; slow calls held at most ${matrix.waitCapS} s. Hover a cell for where it was read.</p>
<table>${head}\n${rows}</table>\n`;
}
