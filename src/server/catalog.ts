// Documentation lookups over a small built-in corpus. A pure function of the arguments, and
// declared so in `_meta`, which is what lets the harness short-circuit a model that asks the
// same question again and again (the corpus cannot answer some questions by design).
import { z } from 'zod';
import { CATALOG } from './catalogCorpus.ts';
import { addTool, DETERMINISTIC_META, text, ToolError, type ToolHost } from './tool.ts';

export function registerCatalog(host: ToolHost): void {
  const topics = CATALOG.map((page) => page.topic);
  addTool(
    host,
    'catalog_search',
    {
      title: 'Search the catalog',
      description:
        'Searches the documentation catalog and returns the topics whose name, summary or text contain every ' +
        'word of the query, each with a one-line summary. Read a topic with catalog_lookup.',
      inputSchema: { query: z.string().min(1).describe('Words to look for, e.g. "retries backoff".') },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: DETERMINISTIC_META,
    },
    ({ query }) => {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = CATALOG.filter((page) => {
        const haystack = `${page.topic}\n${page.summary}\n${page.body}`.toLowerCase();
        return words.every((word) => haystack.includes(word));
      });
      if (hits.length === 0) return text(`no topic matches ${JSON.stringify(query)}; topics: ${topics.join(', ')}`);
      return text(hits.map((page) => `${page.topic}: ${page.summary}`).join('\n'));
    },
  );
  addTool(
    host,
    'catalog_lookup',
    {
      title: 'Read a catalog topic',
      description: `Returns the documentation page for a topic. Topics: ${topics.join(', ')}.`,
      inputSchema: { topic: z.string().min(1).describe('A topic name, e.g. "config/service".') },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      _meta: DETERMINISTIC_META,
    },
    ({ topic }) => {
      const page = CATALOG.find((entry) => entry.topic === topic.trim().toLowerCase());
      if (!page) throw new ToolError(`no catalog topic ${JSON.stringify(topic)}; topics: ${topics.join(', ')}`);
      return text(`# ${page.topic}\n${page.summary}\n\n${page.body}`);
    },
  );
}
