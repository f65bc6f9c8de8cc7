// The terminal table (the default) and Markdown (for a pull-request comment).
import type { Document, Table } from './document.ts';

const WIDTH = 100; // paragraphs wrap here; tables are as wide as their cells

export function wrap(text: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

export function terminalTable(t: Table): string[] {
  const widths = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((cell, i) => (t.align[i] === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [
    ...wrap(t.caption),
    `  ${line(t.columns)}`,
    `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
    ...t.rows.map((r) => `  ${line(r)}`),
    ...(t.note === undefined ? [] : wrap(t.note).map((l) => `  ${l}`)),
  ];
}

export function renderTerminal(doc: Document): string {
  const out: string[] = [doc.title, '='.repeat(doc.title.length), ''];
  if (doc.notice !== null) out.push(...wrap(`NOTE: ${doc.notice}`), '');
  for (const p of doc.intro) out.push(...wrap(p));
  for (const s of doc.sections) {
    out.push('', s.heading, '-'.repeat(s.heading.length));
    for (const p of s.paragraphs) out.push(...wrap(p));
    for (const t of s.tables) out.push('', ...terminalTable(t));
  }
  return `${out.join('\n')}\n`;
}

function cell(text: string): string {
  return text.trim().replace(/\|/g, '\\|');
}

function markdownTable(t: Table): string[] {
  return [
    `**${cell(t.caption)}**`,
    '',
    `| ${t.columns.map(cell).join(' | ')} |`,
    `|${t.align.map((a) => (a === 'right' ? '---:' : ':---')).join('|')}|`,
    // Leading spaces mark a step under its rung in the terminal; Markdown would drop them.
    ...t.rows.map((r) => `| ${r.map((c) => (c.startsWith('  ') ? `↳ ${cell(c)}` : cell(c))).join(' | ')} |`),
    ...(t.note === undefined ? [] : ['', t.note]),
  ];
}

export function renderMarkdown(doc: Document): string {
  const out: string[] = [`# ${doc.title}`, ''];
  if (doc.notice !== null) out.push(`> **Note:** ${doc.notice}`, '');
  for (const p of doc.intro) out.push(`- ${p}`);
  for (const s of doc.sections) {
    out.push('', `## ${s.heading}`, '');
    for (const p of s.paragraphs) out.push(p, '');
    for (const t of s.tables) out.push(...markdownTable(t), '');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
