#!/usr/bin/env node
// An agent on the OpenAI Agents SDK (@openai/agents), as its docs write one: an Agent with an
// MCP server over Streamable HTTP, and `run` until the model answers. The SDK's own MCP client
// lists and calls the tools; its own OpenAI client (Responses, the SDK's default API) asks the
// model. It takes the step's prompt as its argument (or on stdin) and prints the final output.
// Nothing in it knows about Ladder's arms: the reliability layer sits in the MCP gateway.
//
// A rung is one conversation in several steps, and this script runs once per step: it keeps the
// run's history (`result.history`, the SDK's input items) in CONVERSATION_FILE, which the agent
// file puts in the pass's home, and goes on from it unless LADDER_STEP (Ladder's 0-based step
// index) is 0, so each step's first request carries what the earlier steps said and found.
//
// Its packages come from this folder's node_modules (`npm ci --prefix examples/agents/openai-agents`),
// never from Ladder's own tree, whose openai is an older major.
const sdk = await import('@openai/agents').catch(notInstalled);
const { default: OpenAI } = await import('openai').catch(notInstalled);
const { Agent, MCPServerStreamableHttp, run, setDefaultOpenAIClient, setTracingDisabled } = sdk;

/** A turn cap of its own (the SDK's default is 10); Ladder's tool-call ceiling usually ends a step first. */
const MAX_TURNS = 50;

function notInstalled(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(`openai-agents example: its packages are not installed; run npm ci --prefix ${new URL('.', import.meta.url).pathname}\n`);
  process.exit(1);
}

function env(name) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`openai-agents example: ${name} is not set; the agent file (agent.yaml) sets it\n`);
    process.exit(1);
  }
  return value;
}

async function readStdin() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}

const prompt = process.argv[2] ?? (await readStdin());
const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
const saved = process.env.CONVERSATION_FILE;
const earlier = saved !== undefined && process.env.LADDER_STEP !== '0' && existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : [];

// Retries off: behind Ladder's model gateway the run's model adapter has already retried the
// provider with back-off, so a 5xx that reaches this client is one that persisted; the client's
// own two retries would only send it again, each one recorded as another model round.
setDefaultOpenAIClient(new OpenAI({ baseURL: env('OPENAI_BASE_URL'), apiKey: env('OPENAI_API_KEY'), maxRetries: 0 }));
// The SDK exports traces to OpenAI's tracing endpoint with the same key by default: here the
// key is the pass's token and there is no such endpoint; Ladder records the trace itself.
setTracingDisabled(true);

const gateway = new MCPServerStreamableHttp({
  name: 'ladder',
  url: env('MCP_URL'),
  requestInit: { headers: { Authorization: `Bearer ${env('MCP_TOKEN')}` } },
});
await gateway.connect();
try {
  const agent = new Agent({
    name: 'ladder-example',
    instructions: 'Use the tools to do what the user asks, then answer briefly.',
    model: env('AGENT_MODEL'),
    mcpServers: [gateway],
  });
  const result = await run(agent, [...earlier, { role: 'user', content: prompt }], { maxTurns: MAX_TURNS });
  if (saved !== undefined) writeFileSync(saved, JSON.stringify(result.history));
  process.stdout.write(`${result.finalOutput ?? ''}\n`);
} finally {
  await gateway.close();
}
