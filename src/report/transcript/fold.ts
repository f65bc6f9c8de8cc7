// Long texts folded to their first lines, with what was left out said in one line: a tool
// result can be a whole file or a 100 kB JSON listing, and a transcript is read for the shape
// of the conversation first.
import { grouped, plural } from '../words.ts';

export interface FoldLimits {
  /** Lines shown; the rest are folded. */
  lines: number;
  /** Characters shown of one line (a JSON result is often one long line). */
  chars: number;
}

/** How far each kind of text is folded: results and arguments hard, what was said lightly. */
export interface Folding {
  /** Tool results and call arguments: enough to recognise one and read a short one whole. */
  data: FoldLimits;
  /** Prompts and the model's text: read whole unless they run away. */
  prose: FoldLimits;
}

export const FOLD: Folding = { data: { lines: 8, chars: 240 }, prose: { lines: 40, chars: 2000 } };
const ALL: FoldLimits = { lines: Number.POSITIVE_INFINITY, chars: Number.POSITIVE_INFINITY };
/** `ladder show --full`: nothing folded. */
export const NO_FOLD: Folding = { data: ALL, prose: ALL };

export interface Folded {
  lines: string[];
  /** What was folded away (`12 more lines; 3,456 bytes in all`), or null when nothing was. */
  more: string | null;
}

export function bytesText(bytes: number): string {
  return plural(bytes, 'byte').replace(/^\d+/, grouped(bytes));
}

export function fold(text: string, limits: FoldLimits): Folded {
  const all = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const shown = all.slice(0, limits.lines);
  let cut = false;
  const lines = shown.map((line) => {
    if (line.length <= limits.chars) return line;
    cut = true;
    return `${line.slice(0, limits.chars)}…`;
  });
  const hidden = all.length - shown.length;
  if (hidden === 0 && !cut) return { lines, more: null };
  const size = bytesText(Buffer.byteLength(text));
  return { lines, more: hidden > 0 ? `${plural(hidden, 'more line')}; ${size} in all` : `${size} in all` };
}
