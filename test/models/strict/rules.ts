// What the strict test servers share. Each provider's module lists its rules in the order the
// real service checks them (as far as its error messages show), each with its source; the first
// rule a request breaks answers it with that service's real status and error body.

/** An error reply: the status and body the real service sends for the violation. */
export interface Refusal {
  readonly status: number;
  readonly json: unknown;
}

/** What a server knows beyond the request: the model's capabilities and defaults. */
export interface ServerModel {
  /** Ollama: the model reports the `thinking` capability (`/api/show`). */
  readonly thinks: boolean;
  /** Ollama: num_ctx when a request sets none. */
  readonly defaultNumCtx: number;
  /** Anthropic: the model refuses `thinking: {type: "disabled"}` (always thinks). */
  readonly mustThink: boolean;
  /** Anthropic: the model takes only adaptive thinking, not a token budget. */
  readonly adaptiveOnly: boolean;
}

export const DEFAULT_SERVER_MODEL: ServerModel = { thinks: true, defaultNumCtx: 4_096, mustThink: false, adaptiveOnly: false };

export interface Rule {
  /** A short name, used by tests to say which rule they exercise. */
  readonly id: string;
  /** Where the rule is documented, or the SDK or server source that shows it. */
  readonly source: string;
  readonly check: (body: any, model: ServerModel) => Refusal | undefined;
}

/** The first rule `body` breaks, with its refusal. */
export function firstBroken(rules: readonly Rule[], body: unknown, model: ServerModel): { rule: Rule; refusal: Refusal } | undefined {
  for (const rule of rules) {
    const refusal = rule.check(body, model);
    if (refusal !== undefined) return { rule, refusal };
  }
  return undefined;
}

export const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rough token count of a request, 4 bytes a token: what the fakes measure a context against. */
export function roughTokens(value: unknown): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(value)) / 4);
}
