// A browser behind an upstream, as production browser tools are (a proxy in front of a
// browser process). The upstream serves the workspace's site folder. A fault can kill it,
// and then every call answers with the same session-closed error, byte for byte: the
// failure the breaker exists for (a dead tool called again and again in one turn).
import fs from 'node:fs';
import { z } from 'zod';
import { UPSTREAM_CLOSED_ERROR } from './faults.ts';
import { resolveInside } from './paths.ts';
import { addTool, text, ToolError, type ToolHost } from './tool.ts';

/** A page is cut here, as a browser snapshot tool would cut it. */
const MAX_PAGE_CHARS = 20_000;

export function registerBrowser(host: ToolHost): void {
  const { state } = host;
  addTool(
    host,
    'browser_navigate',
    {
      title: 'Open a page',
      description:
        'Opens a URL in the browser (through the browser upstream) and returns the page title and its text. ' +
        `Pages are served from the review site; a path such as http://site.local/reviews/42.html opens ` +
        `${state.config.siteDir}/reviews/42.html.`,
      inputSchema: { url: z.string().min(1).describe('An http(s) URL, e.g. "http://site.local/index.html".') },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) => {
      if (state.faults.navigate().dead) throw new ToolError(UPSTREAM_CLOSED_ERROR);
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ToolError(`navigation failed: ${JSON.stringify(url)} is not a URL; give an http(s) URL`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new ToolError(`navigation failed: only http and https URLs open, not ${parsed.protocol}`);
      }
      let page: string;
      try {
        page = pagePath(decodeURIComponent(parsed.pathname));
      } catch {
        throw new ToolError(`navigation failed: 400 Bad Request (${url})`);
      }
      const siteRoot = resolveInside(state.root, state.config.siteDir);
      if (!fs.existsSync(siteRoot)) throw new ToolError(`navigation failed: 404 Not Found (${url})`);
      let file: string;
      try {
        file = resolveInside(fs.realpathSync(siteRoot), page);
      } catch {
        throw new ToolError(`navigation failed: 403 Forbidden (${url})`);
      }
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
        throw new ToolError(`navigation failed: 404 Not Found (${url})`);
      }
      const html = fs.readFileSync(file, 'utf8');
      const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? page;
      const body = pageText(html);
      const cut = body.length > MAX_PAGE_CHARS ? `${body.slice(0, MAX_PAGE_CHARS)}\n[page cut]` : body;
      return text(`Title: ${title}\nURL: ${url}\n\n${cut}`);
    },
  );
}

function pagePath(pathname: string): string {
  const trimmed = pathname.replace(/^\/+/, '');
  return trimmed === '' || trimmed.endsWith('/') ? `${trimmed}index.html` : trimmed;
}

/** The readable text of a page: scripts and styles dropped, tags removed, blank runs folded. */
function pageText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<title>[\s\S]*?<\/title>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}
