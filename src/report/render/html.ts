// One self-contained HTML file: the same text and tables as the other formats, and the plots
// inlined as SVG. No script, no stylesheet or font to fetch: it opens offline. A report adds
// its passes' transcripts (transcriptHtml.ts), opened by links and CSS alone.
import type { Document, Table } from './document.ts';
import type { Plot } from './plots.ts';
import { renderSvg } from './svg.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #1b1b1b; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.notice { background: #fff4d6; border-left: 4px solid #e0a800; padding: .6rem .8rem; font-weight: 600; }
table { border-collapse: collapse; margin: .4rem 0 1.2rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: #555; padding-bottom: .3rem; max-width: 60rem; }
th, td { padding: .2rem .6rem; border-bottom: 1px solid #eee; white-space: nowrap; }
th { background: #f6f6f6; } td.right, th.right { text-align: right; }
p.note { color: #555; margin-top: -.8rem; }
figure { margin: 1rem 0 2rem; } figcaption { color: #555; margin-bottom: .4rem; }
.plot svg { max-width: 100%; height: auto; }
`;

function table(t: Table): string {
  const cls = (i: number): string => (t.align[i] === 'right' ? ' class="right"' : '');
  const head = t.columns.map((c, i) => `<th${cls(i)}>${escapeHtml(c)}</th>`).join('');
  const body = t.rows
    .map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${c.startsWith('  ') ? '&nbsp;&nbsp;&nbsp;' : ''}${escapeHtml(c.trim())}</td>`).join('')}</tr>`)
    .join('\n');
  const note = t.note === undefined ? '' : `\n<p class="note">${escapeHtml(t.note)}</p>`;
  return `<table>\n<caption>${escapeHtml(t.caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>${note}`;
}

async function figure(plot: Plot): Promise<string> {
  const { svg } = await renderSvg(plot.spec);
  // The SVG's own title is what a screen reader announces for it.
  const titled = svg.replace(/^<svg([^>]*)>/, `<svg$1 role="img" aria-label="${escapeHtml(plot.title)}">`);
  return `<figure class="plot" id="${plot.id}">\n<figcaption><strong>${escapeHtml(plot.title)}.</strong> ${escapeHtml(plot.caption)}</figcaption>\n${titled}\n</figure>`;
}

/** A part laid out elsewhere and appended after the sections (the report's passes and transcripts), with its style. */
export interface HtmlPart {
  style: string;
  body: string;
}

export async function renderHtml(doc: Document, plotList: Plot[], parts: HtmlPart[] = []): Promise<string> {
  const figures: string[] = [];
  for (const plot of plotList) figures.push(await figure(plot));
  const sections = doc.sections.map((s) =>
    [`<h2>${escapeHtml(s.heading)}</h2>`, ...s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`), ...s.tables.map(table)].join('\n'));
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may load from elsewhere: the report must read the same offline and in a year.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${STYLE}${parts.map((p) => p.style).join('')}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(doc.title)}</h1>`,
    ...(doc.notice === null ? [] : [`<p class="notice">${escapeHtml(doc.notice)}</p>`]),
    ...doc.intro.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(figures.length === 0 ? [] : ['<h2>Plots</h2>', ...figures]),
    ...sections,
    ...parts.map((p) => p.body),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
