#!/usr/bin/env node
// An agent on LangChain.js, as its docs write one: the MCP servers' tools loaded through
// @langchain/mcp-adapters (MultiServerMCPClient, Streamable HTTP), a ChatOpenAI model (Chat
// Completions), and `createAgent`'s tool loop until the model answers. It takes the step's
// prompt as its argument (or on stdin) and prints the last message's text. Nothing in it knows
// about Ladder's arms: the reliability layer sits in the MCP gateway.
//
// A rung is one conversation in several steps, and this script runs once per step: it keeps the
// agent's messages (as LangChain stores them) in CONVERSATION_FILE, which the agent file puts in
// the pass's home, and goes on from them unless LADDER_STEP (Ladder's 0-based step index) is 0,
// so each step's first request carries what the earlier steps said and found.
//
// Its packages come from this folder's node_modules (`npm ci --prefix examples/agents/langchain`),
// never from Ladder's own tree.
const { createAgent } = await import('langchain').catch(notInstalled);
const { ChatOpenAI } = await import('@langchain/openai').catch(notInstalled);
const { MultiServerMCPClient } = await import('@langchain/mcp-adapters').catch(notInstalled);
const { mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages } = await import('@langchain/core/messages').catch(notInstalled);
const { existsSync, readFileSync, writeFileSync } = await import('node:fs');

/**
 * A round cap of its own, as tool-loop's: each round is two graph steps (the model, then the
 * tools), and LangGraph's default limit of 25 steps would stop it at 12 rounds.
 * Ladder's tool-call ceiling usually ends a step first.
 */
const RECURSION_LIMIT = 2 * 50 + 1;

function notInstalled(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(`langchain example: its packages are not installed; run npm ci --prefix ${new URL('.', import.meta.url).pathname}\n`);
  process.exit(1);
}

function env(name) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`langchain example: ${name} is not set; the agent file (agent.yaml) sets it\n`);
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
const saved = process.env.CONVERSATION_FILE;
const earlier = saved !== undefined && process.env.LADDER_STEP !== '0' && existsSync(saved)
  ? mapStoredMessagesToChatMessages(JSON.parse(readFileSync(saved, 'utf8')))
  : [];

const mcp = new MultiServerMCPClient({
  mcpServers: {
    ladder: {
      transport: 'http',
      url: env('MCP_URL'),
      headers: { Authorization: `Bearer ${env('MCP_TOKEN')}` },
      // The gateway speaks Streamable HTTP only: a refused request should fail here, not be retried as SSE.
      automaticSSEFallback: false,
    },
  },
});
try {
  const model = new ChatOpenAI({
    model: env('AGENT_MODEL'),
    apiKey: env('OPENAI_API_KEY'),
    configuration: { baseURL: env('OPENAI_BASE_URL') },
    // Retries off: LangChain retries a failed model call 6 times by default. Behind Ladder's model
    // gateway the run's model adapter has already retried the provider with back-off, so a 5xx that
    // reaches this client is one that persisted; each retry would be recorded as another round.
    maxRetries: 0,
  });
  const agent = createAgent({
    model,
    tools: await mcp.getTools(),
    systemPrompt: 'Use the tools to do what the user asks, then answer briefly.',
  });
  const result = await agent.invoke({ messages: [...earlier, { role: 'user', content: prompt }] }, { recursionLimit: RECURSION_LIMIT });
  if (saved !== undefined) writeFileSync(saved, JSON.stringify(mapChatMessagesToStoredMessages(result.messages)));
  process.stdout.write(`${result.messages.at(-1)?.text ?? ''}\n`);
} finally {
  await mcp.close();
}
