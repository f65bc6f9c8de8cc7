// What never enters a results folder: secrets, and the pass's temporary path. Applied to every
// string of every event as it is written, whatever field it is in (a tool result that prints
// its environment, a server's start-up error quoting its command line).
//
// Secrets are the values of every environment variable given to a server, every header given
// to a server, and every variable of the runner's own environment whose name looks like a
// credential (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, any case), which covers the model
// providers' API keys. A value shorter than MIN_SECRET_CHARS is not scrubbed: it cannot be
// told from ordinary text (`DEBUG=1`), and replacing it everywhere would wreck the trace.
//
// The workspace path becomes `{workspace}`, the token rung files use for it: two runs of the
// same rungs then write the same conversation, wherever their temporary folders were.

/** `{workspace}`: the token rung files use for the pass's folder. */
export const WORKSPACE_TOKEN = '{workspace}';
/** Shorter values are too likely to be ordinary words or numbers to replace everywhere. */
export const MIN_SECRET_CHARS = 4;
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

export interface Secret {
  /** Where it came from, named in its placeholder: `OPENAI_API_KEY`, `server wb env API_TOKEN`. */
  name: string;
  value: string;
}

/** The credential-like variables of an environment (the runner's own, or a server's). */
export function credentialsIn(env: Readonly<Record<string, string | undefined>>, label = ''): Secret[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && CREDENTIAL_NAME.test(name) ? [{ name: `${label}${name}`, value }] : []);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Scrubber {
  /** Longest first, so a secret that contains another is replaced whole; one that matches nothing when there is nothing to scrub. */
  readonly #pattern: RegExp;
  readonly #replacement: ReadonlyMap<string, string>;

  constructor(options: { secrets?: readonly Secret[]; workspace?: string } = {}) {
    const replacement = new Map<string, string>();
    for (const { name, value } of options.secrets ?? []) {
      if (value.length >= MIN_SECRET_CHARS && !replacement.has(value)) replacement.set(value, `[secret ${name}]`);
    }
    if (options.workspace !== undefined && options.workspace.length >= MIN_SECRET_CHARS) {
      replacement.set(options.workspace, WORKSPACE_TOKEN);
    }
    const values = [...replacement.keys()].sort((a, b) => b.length - a.length);
    this.#replacement = replacement;
    this.#pattern = values.length === 0 ? /(?!)/g : new RegExp(values.map(escapeRegExp).join('|'), 'g');
  }

  /** True when there is nothing to scrub: the writer then skips the walk. */
  get empty(): boolean {
    return this.#replacement.size === 0;
  }

  /** The text with every secret and the workspace path replaced. */
  readonly text = (value: string): string => value.replace(this.#pattern, (found) => this.#replacement.get(found)!);

  /** A copy of a JSON-like value with every string (keys included) scrubbed; the input is not changed. */
  deep<T>(value: T): T {
    if (this.empty) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.text(key)] = this.#walk(item);
      return out;
    }
    return value;
  }
}
