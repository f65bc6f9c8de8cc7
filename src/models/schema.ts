// Tool input schemas as each provider accepts them. MCP servers list any JSON Schema; the
// providers refuse some (a 400 for the whole request, whichever tool it is) or silently read
// only part of it. The schema the model is shown is rewritten here, and each change is said;
// what the MCP server receives is untouched, since arguments go to it as the model wrote them
// and the server validates them against its own schema.
export type SchemaProfile = 'openai' | 'anthropic' | 'ollama';

type Schema = Record<string, unknown>;

export interface AdaptedSchema {
  readonly schema: Schema;
  /** One phrase per change, in the order made; empty when the schema went out as listed. */
  readonly changes: readonly string[];
}

const UNIONS = ['anyOf', 'oneOf', 'allOf'] as const;

// Keys Ollama decodes from a tool's parameters and from each property (api/types.go,
// ToolFunctionParameters and ToolProperty); it drops every other key without a word. Made per
// schema, not at load: a mutant of a module-level constant is one Stryker on Vitest misjudges.
const ollamaTop = (): ReadonlySet<string> => new Set(['type', '$defs', 'items', 'required', 'properties']);
const ollamaProperty = (): ReadonlySet<string> => new Set(['anyOf', 'type', 'items', 'description', 'enum', 'properties', 'required']);

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * One object schema from a top-level union of object schemas: every variant's properties
 * (a name two variants define differently becomes an `anyOf` of both), and as required only
 * what every variant requires (`allOf`: what any requires). The server still checks the union.
 */
function flattenUnion(schema: Schema, key: (typeof UNIONS)[number]): Schema {
  const variants = (schema[key] as unknown[]).filter(isObject);
  const { [key]: _union, ...rest } = schema;
  const properties: Schema = isObject(rest.properties) ? { ...rest.properties } : {};
  for (const variant of variants) {
    for (const [name, def] of Object.entries(isObject(variant.properties) ? variant.properties : {})) {
      const known = properties[name];
      if (known === undefined) properties[name] = def;
      else if (JSON.stringify(known) !== JSON.stringify(def)) properties[name] = { anyOf: [known, def] };
    }
  }
  const lists = variants.map((v) => strings(v.required));
  const shared = key === 'allOf'
    ? [...new Set(lists.flat())]
    : (lists[0] ?? []).filter((name) => lists.every((list) => list.includes(name)));
  const required = [...new Set([...strings(rest.required), ...shared])].filter((name) => name in properties);
  const { required: _required, ...withoutRequired } = rest;
  return { ...withoutRequired, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** Keeps only the keys Ollama reads, at the top and in every nested property; says what went. */
function ollamaKeys(schema: Schema, keep: ReadonlySet<string>, dropped: Set<string>): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    // A top-level oneOf list was flattened before this, so one here is a property's.
    if (key === 'oneOf' && Array.isArray(value) && schema.anyOf === undefined) {
      // Ollama reads anyOf but not oneOf; anyOf shows the model the same alternatives
      out.anyOf = value.filter(isObject).map((v) => ollamaKeys(v, ollamaProperty(), dropped));
      dropped.add('oneOf (as anyOf)');
      continue;
    }
    if (!keep.has(key)) {
      dropped.add(key);
      continue;
    }
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, def]) => [name, isObject(def) ? ollamaKeys(def, ollamaProperty(), dropped) : def]),
      );
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map((v) => (isObject(v) ? ollamaKeys(v, ollamaProperty(), dropped) : v));
    } else {
      out[key] = value;
    }
  }
  return out;
}

export function adaptSchema(profile: SchemaProfile, listed: Readonly<Schema>): AdaptedSchema {
  const changes: string[] = [];
  let schema: Schema = structuredClone(listed) as Schema;
  for (;;) {
    // OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not'
    // at the top level"; Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the
    // top level"; Ollama keeps none of them and shows the model no arguments at all.
    const key = UNIONS.find((k) => Array.isArray(schema[k]));
    if (key === undefined) break;
    changes.push(`flattened the top-level ${key} of ${(schema[key] as unknown[]).length} schemas into one object`);
    schema = flattenUnion(schema, key);
  }
  if (schema.type !== 'object') {
    // OpenAI: "schema must be a JSON Schema of 'type: \"object\"'"; Anthropic: input_schema.type
    // is required and must be "object"
    changes.push(schema.type === undefined ? 'added type "object"' : `replaced type ${JSON.stringify(schema.type)} with "object"`);
    schema = { ...schema, type: 'object' };
  }
  if (profile === 'openai') {
    for (const key of ['enum', 'const', 'not']) {
      if (key in schema) {
        changes.push(`dropped the top-level ${key}`);
        const { [key]: _gone, ...rest } = schema;
        schema = rest;
      }
    }
    // OpenAI: "Invalid schema for function 'x': In context=(), object schema missing properties."
    if (!isObject(schema.properties)) {
      changes.push('added empty properties');
      schema = { ...schema, properties: {} };
    }
  }
  if (profile === 'ollama') {
    const dropped = new Set<string>();
    schema = ollamaKeys(schema, ollamaTop(), dropped);
    if (dropped.size > 0) changes.push(`dropped keywords Ollama does not read: ${[...dropped].sort().join(', ')}`);
  }
  return { schema, changes };
}
