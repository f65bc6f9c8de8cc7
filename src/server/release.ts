// The tool that is not there at first. `release_publish` is listed only once a trigger has
// fired (a job of a given kind finished, or a given file exists), and every connected client
// is told with notifications/tools/list_changed. A rung uses it to test that the harness
// re-lists when told, and that a turn's tool list does not change under it.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { resolveInside } from './paths.ts';
import { addTool, json, ToolError, type ToolHost } from './tool.ts';

export const RELEASE_TOOL = 'release_publish';
/** Where a publication is recorded, relative to the workspace, for a rung's file check. */
export const RELEASE_RECORD = 'release/published.json';

export class Reveal {
  readonly #test: () => boolean;
  readonly #listeners = new Set<() => void>();
  #revealed = false;

  constructor(test: () => boolean) {
    this.#test = test;
  }

  get revealed(): boolean {
    return this.#revealed;
  }

  /** Fires the listeners once, the first time the trigger holds. */
  check(): void {
    if (this.#revealed || !this.#test()) return;
    this.#revealed = true;
    for (const listener of this.#listeners) listener();
  }

  /** Calls `listener` when the tool is revealed; returns the unsubscribe. */
  onReveal(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export function registerRelease(host: ToolHost): () => void {
  const { state } = host;
  const { afterJob, afterFile } = state.config.reveal;
  const when = [afterJob && `a ${afterJob} job has finished`, afterFile && `${afterFile} exists`]
    .filter(Boolean)
    .join(' or ');
  const tool = addTool(
    host,
    RELEASE_TOOL,
    {
      title: 'Publish the release',
      description:
        `Publishes the release: records the version and notes in ${RELEASE_RECORD}. ` +
        `Available once ${when || 'its trigger has fired'}. A version can be published once.`,
      inputSchema: {
        version: z.string().regex(/^\d+\.\d+\.\d+$/).describe('Semantic version, e.g. "1.4.0".'),
        notes: z.string().min(1).max(4_000).describe('Release notes, one or more lines.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ version, notes }) => {
      const file = resolveInside(state.root, RELEASE_RECORD);
      const published: { version: string; notes: string }[] = fs.existsSync(file)
        ? JSON.parse(fs.readFileSync(file, 'utf8'))
        : [];
      if (published.some((entry) => entry.version === version)) {
        throw new ToolError(`version ${version} is already published; publish a new version`);
      }
      published.push({ version, notes });
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(published, null, 2)}\n`);
      state.logs.append(`INFO  release: published ${version}`);
      return json({ published: version, record: RELEASE_RECORD });
    },
  );
  if (!state.reveal.revealed) tool.disable();
  // enable() announces the change; setting the flag lists the tool without a word.
  return state.reveal.onReveal(() => {
    if (state.config.reveal.announce) tool.enable();
    else tool.enabled = true;
  });
}
