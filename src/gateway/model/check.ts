// Reading a request body field by field. A refusal is the provider's own message where its API
// has one for the case (`refuse`), else one line of Ladder's naming the endpoint and the field as
// the provider's errors do (`messages[2].tool_call_id`), and what to send instead (`fail`).
import { WireRequestError } from './types.ts';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

export class BodyReader {
  constructor(
    /** `POST /v1/chat/completions`: the start of every message. */
    readonly endpoint: string,
  ) {}

  /** A refusal in Ladder's words, where the provider has none for the case: endpoint, field, what to send instead. */
  fail(field: string, problem: string): never {
    throw new WireRequestError(`${this.endpoint}: ${field}: ${problem}`, field);
  }

  /**
   * A refusal in the provider's own words (its `message`, and for OpenAI its `param` and `code`),
   * for a case its API answers so: a client's recovery may key on that wording.
   */
  refuse(message: string, param: string | null, code: string | null = null, status = 400): never {
    throw new WireRequestError(message, param, status, code);
  }

  object(value: unknown, field: string): Json {
    return isObject(value) ? value : this.fail(field, `expected an object, got ${kind(value)}`);
  }

  array(value: unknown, field: string): unknown[] {
    return Array.isArray(value) ? value : this.fail(field, `expected an array, got ${kind(value)}`);
  }

  string(value: unknown, field: string): string {
    return typeof value === 'string' ? value : this.fail(field, `expected a string, got ${kind(value)}`);
  }

  /** A field the API requires: missing says so first, as the providers' own errors do. */
  required(body: Json, key: string, what: string, field = key): unknown {
    if (body[key] === undefined) this.fail(field, `required (${what})`);
    return body[key];
  }

  optionalString(value: unknown, field: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, field);
  }

  optionalNumber(value: unknown, field: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fail(field, `expected a number, got ${kind(value)}`);
  }

  optionalBoolean(value: unknown, field: string): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    return typeof value === 'boolean' ? value : this.fail(field, `expected a boolean, got ${kind(value)}`);
  }

  /** A model name: every one of the three APIs requires it. */
  model(body: Json): string {
    const model = this.string(this.required(body, 'model', 'the model name, a string'), 'model');
    return model.trim() === '' ? this.fail('model', 'must not be empty') : model;
  }

  /** A JSON Schema for a function's arguments; absent means no arguments. */
  schema(value: unknown, field: string): Json {
    if (value === undefined || value === null) return { type: 'object', properties: {} };
    return this.object(value, field);
  }
}
