#!/usr/bin/env node
// A small agent harness of the kind Ladder's users write, to show what `ladder run --agent`
// needs from one: the OpenAI SDK for the model (Chat Completions), the MCP SDK for the tools,
// and a loop. It reads where to go from the environment Ladder gives every external agent
// (OPENAI_BASE_URL, OPENAI_API_KEY, LADDER_MCP_URL, LADDER_MCP_TOKEN), takes the step's prompt
// as its argument (or on stdin), and prints its answer on stdout. Nothing in it knows about
// Ladder's arms: the reliability layer sits in the MCP gateway it talks to.
//
// A rung is one conversation in several steps, and this harness runs once per step: it keeps
// the conversation in CONVERSATION_FILE (the agent file puts it in the pass's home, which lasts
// the pass) and starts a new one on the pass's first step (LADDER_STEP, the 0-based step index
// Ladder gives every exec agent), so step 2's first request carries what step 1 said and found.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import OpenAI from 'openai';

/** A round cap of its own, as most harnesses have; Ladder's ceiling usually ends a step first. */
const MAX_ROUNDS = 50;

async function readStdin() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}

const prompt = process.argv[2] ?? (await readStdin());
const env = (name) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`tool-loop-agent: ${name} is not set`);
  return value;
};

const mcp = new Client({ name: 'tool-loop-agent', version: '1.0.0' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(env('LADDER_MCP_URL')), {
  requestInit: { headers: { Authorization: `Bearer ${env('LADDER_MCP_TOKEN')}` } },
}));
const listed = [];
for (let cursor; ;) {
  const page = await mcp.listTools(cursor === undefined ? undefined : { cursor });
  listed.push(...page.tools);
  cursor = page.nextCursor;
  if (cursor === undefined) break;
}
const tools = listed.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
}));

const openai = new OpenAI({ baseURL: env('OPENAI_BASE_URL'), apiKey: env('OPENAI_API_KEY'), maxRetries: 0 });
const saved = process.env.CONVERSATION_FILE;
const goOn = saved !== undefined && process.env.LADDER_STEP !== '0' && existsSync(saved);
const messages = [...(goOn ? JSON.parse(readFileSync(saved, 'utf8')) : []), { role: 'user', content: prompt }];
let answer = '';
for (let round = 0; round < MAX_ROUNDS; round += 1) {
  const response = await openai.chat.completions.create({ model: process.env.AGENT_MODEL ?? 'default', messages, tools });
  const message = response.choices[0].message;
  messages.push(message);
  answer = message.content ?? '';
  if (!message.tool_calls || message.tool_calls.length === 0) break;
  for (const call of message.tool_calls) {
    let args;
    try {
      args = JSON.parse(call.function.arguments || '{}');
    } catch {
      messages.push({ role: 'tool', tool_call_id: call.id, content: 'The arguments were not JSON, so the tool was not called.' });
      continue;
    }
    const result = await mcp.callTool({ name: call.function.name, arguments: args });
    const text = result.content.map((item) => (item.type === 'text' ? item.text : JSON.stringify(item))).join('\n');
    messages.push({ role: 'tool', tool_call_id: call.id, content: result.isError ? `Error: ${text}` : text });
  }
}
await mcp.close();
if (saved !== undefined) writeFileSync(saved, JSON.stringify(messages));
process.stdout.write(`${answer}\n`);
