// Function parameters as Gemini takes them, made into the JSON Schema the neutral request holds.
import type { Json } from './check.ts';
import { isObject } from './check.ts';

/** The property Gemini CLI adds to every function declaration it sends (seen in 0.61.0). */
export const WAIT_FOR_PREVIOUS = 'wait_for_previous';

/**
 * `parameters` is Google's Schema, an OpenAPI 3.0 subset (API reference, Schema): types in capitals
 * (`OBJECT`, `STRING`), `nullable` for null. The model behind the gateway takes JSON Schema, so
 * each type is lower-cased and `nullable: true` becomes a `null` type beside it; the rest
 * (properties, required, items, enum, description, format, anyOf, bounds) is JSON Schema already.
 */
export function geminiSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'nullable' || key === 'propertyOrdering') continue;
    else if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, isObject(s) ? geminiSchema(s) : s]));
    else if (key === 'items' && isObject(value)) out.items = geminiSchema(value);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = value.map((s) => (isObject(s) ? geminiSchema(s) : s));
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/**
 * The schema without Gemini CLI's `wait_for_previous` (a boolean it adds to every declaration, to
 * schedule its own calls): the model is shown the tool's arguments as the MCP server lists them.
 * The same object when there is none, so a caller can tell.
 */
export function withoutWaitForPrevious(schema: Json): Json {
  const properties = schema.properties;
  if (!isObject(properties) || !isObject(properties[WAIT_FOR_PREVIOUS]) || properties[WAIT_FOR_PREVIOUS].type !== 'boolean') return schema;
  const { [WAIT_FOR_PREVIOUS]: _wait, ...rest } = properties;
  return { ...schema, properties: rest };
}
