// The report's passes in HTML: per rung a grid of passes by arm, and each pass's transcripts,
// laid out from the same views `ladder show` prints. No script: a cell is a link to its
// transcript and CSS `:target` opens it, so the file still runs nothing and fetches nothing.
// A cell opens one transcript; "side by side" opens every arm of that pass in columns, with
// the first round where they differ marked. Each transcript is in the file once.
import type { RungGrid } from '../transcript/run.ts';
import type { Body, CallView, RoundView, StepView, TranscriptView } from '../transcript/view.ts';
import { escapeHtml as esc } from './html.ts';

export const PASSES_STYLE = `
table.grid td, table.grid th { padding: .1rem .35rem; text-align: center; }
table.grid a { text-decoration: none; display: block; min-width: 1.2rem; }
.good { color: #17692f; } .bad { color: #b3261e; } .warn { color: #8a5a00; }
td.good { background: #e3f4e6; } td.bad { background: #fbe3e1; } td.warn { background: #fff1cc; }
.pass { display: none; border: 1px solid #ccc; border-radius: 4px; padding: .5rem .8rem; margin: 1rem 0; }
.pass:target, .pass:has(.tr:target) { display: block; }
.pass:has(.tr:target) .tr:not(:target) { display: none; }
.pass:target .cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; }
.tr h4 { margin: .3rem 0; } .tr h5 { margin: .8rem 0 .2rem; font-size: 1rem; } .tr .f, .tr .n { color: #555; margin: .1rem 0; }
.tr pre { white-space: pre-wrap; word-break: break-word; margin: .1rem 0 .1rem 1rem; font: 12px/1.35 ui-monospace, monospace; }
.tr .r { margin: .3rem 0 .3rem .6rem; } .tr .r > b { font-weight: 600; } .tr .d, .tr .m, .tr .x { color: #666; }
.tr .c { margin: .2rem 0 .2rem 1rem; } .tr .c pre { color: #444; border-left: 2px solid #ddd; padding-left: .4rem; }
.tr .s { margin-left: 1rem; } .tr .mk { background: #fff1cc; border-left: 3px solid #e0a800; padding: .1rem .4rem; }
.tr ul { margin: .2rem 0; padding-left: 1.2rem; } .dv { font-weight: 600; } .tr .k { font-size: .9em; }
`;

const MARK: Record<string, string> = { passed: '✓', failed: '✗', errored: '!', unfinished: '…' };

function body(b: Body): string {
  if (b.kind === 'missing') return `<div class="x">[${esc(b.says)}]</div>`;
  const more = b.more === null ? '' : `<div class="x">… ${esc(b.more)}</div>`;
  return `<pre>${esc(b.lines.join('\n'))}</pre>${more}`;
}

function call(c: CallView): string {
  const args = c.args.kind === 'missing' ? `<span class="x">[${esc(c.args.says)}]</span>` : `<code>${esc(c.args.lines.join(' '))}</code>`;
  const checks = c.checks.map((k) => `<div class="s k ${k.tone}">${k.tone === 'good' ? '✓' : '✗'} ${esc(k.text)}</div>`).join('');
  return `<div class="c">→ <b>${esc(c.name)}</b> ${args}<div class="s ${c.tone}">${esc(c.status)}</div>${checks}${c.result === null ? '' : body(c.result)}</div>`;
}

function round(r: RoundView): string {
  return [
    `<div class="r${r.mark === null ? '' : ' mk'}"><b>${esc(r.label)}</b>${r.detail === '' ? '' : ` <span class="d">(${esc(r.detail)})</span>`}`,
    r.mark === null ? '' : `<div class="dv">◆ ${esc(r.mark)}</div>`,
    r.error === null ? '' : `<div class="warn">${esc(r.error)}</div>`,
    ...r.adaptations.map((a) => `<div class="d">Adapted for the provider: ${esc(a)}</div>`),
    ...r.thinking.map((t) => `<div class="d">Thinking:</div>${body(t)}`),
    r.refusal === null ? '' : `<div class="warn">Refusal:</div>${body(r.refusal)}`,
    r.text === null ? '' : body(r.text),
    ...r.calls.map(call),
    '</div>',
  ].join('');
}

function step(s: StepView): string {
  return [
    `<h5>${esc(s.heading)}: <span class="${s.tone}">${esc(s.status)}</span></h5>`,
    s.prompt === null ? '' : `<div class="m">Prompt</div>${body(s.prompt)}`,
    `<div class="m">Tools: ${esc(s.tools)}</div>`,
    ...s.asked.map((a) => `<div class="m">Asked for input: ${esc(a)}</div>`),
    ...s.rounds.map(round),
    `<div class="${s.tone}">Ended: ${esc(s.end)}</div>`,
    s.failedChecks.length === 0 ? '' : `<ul>${s.failedChecks.map((c) => `<li class="bad">✗ ${esc(c.check)}: ${esc(c.why)}</li>`).join('')}</ul>`,
    s.judgedPassed.length === 0 ? '' : `<ul>${s.judgedPassed.map((c) => `<li class="good">✓ ${esc(c.check)}: judged by ${esc(c.model)}</li>`).join('')}</ul>`,
  ].join('\n');
}

export function transcriptHtml(view: TranscriptView, id: string): string {
  return [
    `<article class="tr" id="${id}">`,
    `<h4 class="${view.tone}">${esc(view.title)}</h4>`,
    `<p class="f">${esc(view.facts)}</p>`,
    view.failure === null ? '' : `<p class="${view.tone}">Why: ${esc(view.failure)}</p>`,
    ...view.notes.map((n) => `<p class="n">Note: ${esc(n)}</p>`),
    view.system === null ? '' : `<div class="m">System prompt</div>${body(view.system)}`,
    ...view.steps.map(step),
    '</article>',
  ].join('\n');
}

function grid(g: RungGrid, r: number): string {
  const head = `<tr><th>arm \\ pass</th>${g.passes.map((p) => `<th>${p}</th>`).join('')}</tr>`;
  const rows = g.arms.map((arm, a) => `<tr><th>${esc(arm)}</th>${g.cells[a]!.map((cell, i) => {
    if (cell === null) return '<td title="not counted (left out or not run)">–</td>';
    return `<td class="${cell.tone}"><a href="#t-${r}-${a}-${g.passes[i]}" title="${esc(cell.title)}">${MARK[cell.status]}</a></td>`;
  }).join('')}</tr>`);
  const pairs = g.arms.length < 2 ? [] : [`<tr><th>side by side</th>${g.passes.map((p) => `<td><a href="#p-${r}-${p}" title="pass ${p}: every arm side by side">⇆</a></td>`).join('')}</tr>`];
  return `<table class="grid" id="g-${r}">\n<caption>${esc(g.rung)}: passes by arm</caption>\n<thead>${head}</thead>\n<tbody>\n${[...rows, ...pairs].join('\n')}\n</tbody>\n</table>`;
}

function passViews(g: RungGrid, r: number): string[] {
  return g.pairs.map((pair) => [
    `<section class="pass" id="p-${r}-${pair.pass}">`,
    `<p><strong>${esc(g.rung)}, pass ${pair.pass}</strong> · <a href="#p-${r}-${pair.pass}">side by side</a> · <a href="#g-${r}">back to the grid</a></p>`,
    ...pair.divergence.map((d) => `<p class="dv">${esc(d)}</p>`),
    '<div class="cols">',
    ...pair.columns.map((col) => (col.view === null ? '' : transcriptHtml(col.view, `t-${r}-${g.arms.indexOf(col.arm)}-${pair.pass}`))),
    '</div>',
    '</section>',
  ].join('\n'));
}

/** The Passes section: a grid per rung, then the transcripts its cells open (hidden until opened). */
export function passesHtml(grids: RungGrid[]): string {
  if (grids.length === 0) return '';
  return [
    '<h2 id="passes">Passes</h2>',
    '<p>Each cell is one pass: ✓ passed, ✗ failed, ! errored (a provider or harness failure). A cell opens that pass\'s transcript; ' +
      'under a call, ✓ and ✗ name the checks that call satisfied or broke. ' +
      '⇆ opens every arm of the pass side by side, with the first round where their conversations differ marked. ' +
      'Long results are folded; <code>ladder show</code> prints a pass whole with <code>--full</code>.</p>',
    ...grids.flatMap((g, r) => [grid(g, r), ...passViews(g, r)]),
  ].join('\n');
}
