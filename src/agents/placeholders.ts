// The values an agent file's `{name}` placeholders stand for, and the environment an agent
// process gets. The environment is built from nothing rather than from Ladder's own: Ladder's
// process holds the real provider keys, and an agent that inherited them could reach the
// provider around the model gateway (and leave the key in its files or logs).
import { join } from 'node:path';

/** What one pass gives its agent. Every URL is on 127.0.0.1 and lives as long as the pass. */
export interface AgentPassValues {
  /** The pass's folder: the agent's cwd, and `{workspace}`. */
  workspace: string;
  /** A fresh, empty folder for this pass only: `HOME`, and `{home}`. Made if absent. */
  home: string;
  /** The model name the agent is to ask the model gateway for. */
  model: string;
  /** The MCP gateway's Streamable HTTP endpoint. */
  mcpUrl: string;
  /** The pass's bearer token for the MCP gateway (sent as `Authorization: Bearer <token>`). */
  mcpToken: string;
  /** The model gateway's OpenAI base URL as OpenAI's SDKs take it, ending in /v1 (they append /responses, /chat/completions). */
  openaiBaseUrl: string;
  /** The model gateway's Anthropic base URL as Anthropic's SDK takes it, without /v1 (it appends /v1/messages). */
  anthropicBaseUrl: string;
  /** The model gateway's Gemini base URL as @google/genai takes it (GOOGLE_GEMINI_BASE_URL), without /v1beta (it appends /v1beta/models/...). */
  geminiBaseUrl: string;
  /** The pass token the agent sends the model gateway as its API key; never a real provider key. */
  apiKey: string;
  /**
   * A UUID for this pass only, `{sessionId}`: what a recipe hands an agent that lets the caller
   * name its session (`claude --session-id`) so later steps resume it. Made per pass when absent.
   */
  sessionId?: string;
  /** also a stdio bridge command for agents that only start commands, if given */
  mcpStdio?: { command: string; args: string[] };
}

/** Every placeholder an agent file may use. `{prompt}` and `{step}` only where a step fills them (exec args and env). */
export const PLACEHOLDERS = [
  'prompt', 'step', 'workspace', 'home', 'model', 'mcpUrl', 'mcpToken', 'mcpConfig', 'openaiBaseUrl', 'anthropicBaseUrl', 'geminiBaseUrl', 'apiKey', 'agentDir', 'sessionId', 'agentBin',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** The placeholders each step fills anew: they go only where a step's process starts (exec args and env). */
export const STEP_PLACEHOLDERS: readonly Placeholder[] = ['prompt', 'step'];

/**
 * `{name}` is a placeholder; `{{name}}` is the literal text `{name}`. Only a name in braces
 * counts, so the braces of JSON or TOML in a file's content are left as they are.
 */
const PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9]*)\}\}|\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The placeholder names a text uses, in order, each once. */
export function placeholdersIn(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) if (match[2] !== undefined) names.add(match[2]);
  return [...names];
}

export type PlaceholderValues = Partial<Record<Placeholder, string>>;

/** Fills the placeholders of a text validated by the agent file's schema (so every name is known). */
export function fill(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER, (whole, literal: string | undefined, name: string | undefined) => {
    if (literal !== undefined) return `{${literal}}`;
    const value = values[name as Placeholder];
    // The schema refuses unknown names and `{prompt}` where no prompt is given; reaching here is a bug.
    if (value === undefined) throw new Error(`no value for the placeholder ${whole}`);
    return value;
  });
}

/** Where the `{mcpConfig}` file is written: in the pass's home, beside the agent's own state. */
export function mcpConfigPath(home: string): string {
  return join(home, 'ladder-mcp.json');
}

/** The pass's values by placeholder name (without `{prompt}` and `{step}`, which each step adds). */
export function passPlaceholders(values: AgentPassValues): PlaceholderValues {
  return {
    ...(values.sessionId === undefined ? {} : { sessionId: values.sessionId }),
    workspace: values.workspace,
    home: values.home,
    model: values.model,
    mcpUrl: values.mcpUrl,
    mcpToken: values.mcpToken,
    mcpConfig: mcpConfigPath(values.home),
    openaiBaseUrl: values.openaiBaseUrl,
    anthropicBaseUrl: values.anthropicBaseUrl,
    geminiBaseUrl: values.geminiBaseUrl,
    apiKey: values.apiKey,
  };
}

/** The `{mcpConfig}` file: the ecosystem's `mcpServers` shape, one HTTP server pointing at the gateway. */
export function mcpConfigText(values: AgentPassValues): string {
  const config = {
    mcpServers: {
      ladder: { type: 'http', url: values.mcpUrl, headers: { Authorization: `Bearer ${values.mcpToken}` } },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The whole environment of an agent process: PATH (to find the agent and what it starts),
 * LANG, HOME, the gateway values under the names agents and SDKs read, then the agent file's
 * own `env` (filled), which may override any of them. No TERM and NO_COLOR=1: an answer read
 * from stdout should not carry colour codes.
 */
export function agentEnv(values: AgentPassValues, fileEnv: Record<string, string>, placeholderValues: PlaceholderValues, ladderEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    PATH: ladderEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: ladderEnv.LANG ?? 'C.UTF-8',
    NO_COLOR: '1',
    HOME: values.home,
    LADDER_MCP_URL: values.mcpUrl,
    LADDER_MCP_TOKEN: values.mcpToken,
    LADDER_MCP_CONFIG: mcpConfigPath(values.home),
    OPENAI_BASE_URL: values.openaiBaseUrl,
    OPENAI_API_KEY: values.apiKey,
    ANTHROPIC_BASE_URL: values.anthropicBaseUrl,
    ANTHROPIC_API_KEY: values.apiKey,
    GOOGLE_GEMINI_BASE_URL: values.geminiBaseUrl,
    GEMINI_API_KEY: values.apiKey,
    // What a harness of its own needs to keep its conversation between steps (docs/agent.md).
    ...(placeholderValues.sessionId === undefined ? {} : { LADDER_SESSION_ID: placeholderValues.sessionId }),
    ...(placeholderValues.step === undefined ? {} : { LADDER_STEP: placeholderValues.step }),
  };
  for (const [name, value] of Object.entries(fileEnv)) env[name] = fill(value, placeholderValues);
  return env;
}
