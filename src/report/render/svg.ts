// Vega-Lite spec -> Vega -> SVG text, in Node with no canvas and no browser: the HTML report
// inlines the result, so it opens offline and needs no script to show a plot.
import type { TopLevelSpec } from 'vega-lite';

export interface RenderedSvg {
  svg: string;
  /** What Vega-Lite or Vega warned about while compiling or rendering (a dropped channel, say). */
  warnings: string[];
}

/**
 * Vega is loaded on first use, not at import: it costs a few hundred milliseconds, and only the
 * HTML format draws plots.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<RenderedSvg> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const warnings: string[] = [];
  const logger = vega.logger(vega.Warn, undefined, (_method, _level, input: unknown[]) => {
    warnings.push(input.map(String).join(' '));
  });
  const compiled = vegaLite.compile(spec, { logger }).spec;
  // renderer 'none': the scenegraph is built headless; toSVG serialises it.
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger });
  try {
    const svg = await view.toSVG();
    return { svg, warnings };
  } finally {
    view.finalize();
  }
}
