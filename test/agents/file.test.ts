// The agent file: what a valid one reads as, and each mistake as the one line its author gets
// (file, line, field, what to do), as for a rung file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentFileError, loadAgentFile, parseAgentFile, recipeNames } from '../../src/agents/file.ts';

function problems(text: string): string[] {
  try {
    parseAgentFile('mine.yaml', text);
  } catch (error) {
    if (error instanceof AgentFileError) return error.problems;
    throw error;
  }
  return [];
}

const EXEC = 'name: mine\nkind: exec\ncommand: my-agent\n';

describe('the agent file', () => {
  it('reads a minimal exec file with its defaults', () => {
    expect(parseAgentFile('mine.yaml', EXEC)).toEqual({
      file: 'mine.yaml', dir: process.cwd(), name: 'mine', kind: 'exec', command: 'my-agent', args: [], env: {}, files: {}, answer: 'stdout', permissions: 'allow',
    });
  });

  it('reads every field', () => {
    const text = `name: mine
kind: acp
command: my-acp
args: [--stdio, '{model}']
env: { MY_HOME: '{home}/.mine' }
files:
  '{home}/.mine/config.json': '{"url": "{mcpUrl}", "literal": "{{model}}"}'
install: npm i -g my-acp@1.2.3
mode: auto
permissions: deny
ownTools: a shell, switched off by its mode
`;
    expect(parseAgentFile('mine.yaml', text)).toEqual({
      file: 'mine.yaml', dir: process.cwd(), name: 'mine', kind: 'acp', command: 'my-acp', args: ['--stdio', '{model}'], env: { MY_HOME: '{home}/.mine' },
      files: { '{home}/.mine/config.json': '{"url": "{mcpUrl}", "literal": "{{model}}"}' },
      answer: 'stdout', install: 'npm i -g my-acp@1.2.3', mode: 'auto', permissions: 'deny', ownTools: 'a shell, switched off by its mode',
    });
  });

  it('names an unknown placeholder, with the one that was meant', () => {
    expect(problems(`${EXEC}args:\n  - --model\n  - '{modle}'\n  - '{promt}'\n`)).toEqual([
      'mine.yaml:6 args[1]: unknown placeholder {modle}; did you mean {model}?',
      'mine.yaml:7 args[2]: unknown placeholder {promt}; did you mean {prompt}?',
    ]);
    expect(problems(`${EXEC}env:\n  X: '{somethingElse}'\n`)).toEqual([
      'mine.yaml:5 env.X: unknown placeholder {somethingElse}; the placeholders are {prompt}, {step}, {workspace}, {home}, {model}, {mcpUrl}, {mcpToken}, {mcpConfig}, {openaiBaseUrl}, {anthropicBaseUrl}, {geminiBaseUrl}, {apiKey}, {agentDir}, {sessionId}, {agentBin}; write {{somethingElse}} for the text {somethingElse}',
    ]);
  });

  it('says where {prompt} cannot go', () => {
    expect(problems(`${EXEC}files:\n  '{home}/x': 'ask {prompt}'\n`)).toEqual([
      "mine.yaml:5 files.{home}/x: {prompt} cannot go here: files are written once, before the pass's first step; put {prompt} in args or env",
    ]);
    expect(problems('name: mine\nkind: acp\ncommand: my-acp\nargs: [\'{prompt}\']\n')).toEqual([
      "mine.yaml:4 args[0]: {prompt} cannot go here: an acp agent gets each step's prompt over ACP (session/prompt), not in its command line",
    ]);
    expect(problems('name: mine\nkind: exec\ncommand: \'{prompt}\'\n')).toEqual([
      'mine.yaml:3 command: {prompt} cannot go here: the command is the same for every step; put {prompt} in args or env',
    ]);
  });

  it('says where {step} cannot go: it changes with each step, as {prompt} does', () => {
    expect(problems(`${EXEC}files:\n  '{home}/x': 'at {step}'\ncommand: 'run-{step}'\n`.replace('command: my-agent\n', ''))).toEqual([
      'mine.yaml:5 command: {step} cannot go here: the command is the same for every step; put {step} in args or env',
      "mine.yaml:4 files.{home}/x: {step} cannot go here: files are written once, before the pass's first step; put {step} in args or env",
    ]);
    expect(problems(`${EXEC}args: ['{prompt}', --step, '{step}', --session, '{sessionId}']\nenv: { S: '{step}' }\n`)).toEqual([]);
  });

  it('reads continue: the arguments of the steps after the first', () => {
    const text = `${EXEC}args: [-p, '{prompt}', --session-id, '{sessionId}']\ncontinue:\n  args: [-p, '{prompt}', --resume, '{sessionId}']\n`;
    expect(parseAgentFile('mine.yaml', text).continue).toEqual({ args: ['-p', '{prompt}', '--resume', '{sessionId}'] });
    // The agent's own "last session" needs no id.
    expect(problems(`${EXEC}args: ['{prompt}']\ncontinue: { args: [--continue, '{prompt}'] }\n`)).toEqual([]);
    // The prompt in env: both lists may leave it out.
    expect(problems(`${EXEC}env: { ASK: '{prompt}' }\ncontinue: { args: [--continue] }\n`)).toEqual([]);
  });

  it('refuses a continue that cannot work, in one line each', () => {
    expect(problems('name: mine\nkind: acp\ncommand: my-acp\ncontinue: { args: [--resume] }\n')).toEqual([
      'mine.yaml:4 continue: only for an exec agent (the arguments of the steps after the first); an acp agent keeps one session a pass by itself: remove this field',
    ]);
    expect(problems(`${EXEC}args: ['{prompt}']\ncontinue:\n  args: ['{prompt}']\n`)).toEqual([
      "mine.yaml:6 continue.args: the same as args, so nothing tells the agent to go on from the last step: give the agent's own resume flag here, or remove continue",
    ]);
    expect(problems(`${EXEC}args: ['{prompt}']\ncontinue:\n  args: [--continue]\n`)).toEqual([
      "mine.yaml:6 continue.args: {prompt} is in args but not in continue.args, so one of them would get the prompt on stdin: put '{prompt}' in both, or in neither",
    ]);
    expect(problems(`${EXEC}args: [--new]\ncontinue:\n  args: [--continue, '{prompt}']\n`)).toEqual([
      "mine.yaml:6 continue.args: {prompt} is in continue.args but not in args, so one of them would get the prompt on stdin: put '{prompt}' in both, or in neither",
    ]);
    expect(problems(`${EXEC}args: ['{prompt}']\ncontinue:\n  args: ['{prompt}', --resume, '{sessionId}']\n`)).toEqual([
      "mine.yaml:6 continue.args: {sessionId} is never given to the first step (args, env and files do not use it), so there is no session by that id to resume: start the session with it (for example --session-id '{sessionId}'), or resume the agent's last session",
    ]);
    // Given in a file the first step reads, the id is the agent's from the start.
    expect(problems(`${EXEC}args: ['{prompt}']\nfiles: { '{home}/s': '{sessionId}' }\ncontinue:\n  args: ['{prompt}', --resume, '{sessionId}']\n`)).toEqual([]);
    expect(problems(`${EXEC}continue: { args: [] }\n`)).toEqual([
      "mine.yaml:4 continue.args: expected the arguments of the steps after the first, such as [-p, '{prompt}', --resume, '{sessionId}']",
    ]);
    expect(problems(`${EXEC}continue: { args: [--continue], env: {} }\n`)).toHaveLength(1);
    expect(problems(`${EXEC}continue: { args: ['{sesionId}'] }\n`)).toEqual([
      'mine.yaml:4 continue.args[0]: unknown placeholder {sesionId}; did you mean {sessionId}?',
    ]);
  });

  it('refuses the fields of the other kind', () => {
    expect(problems(`${EXEC}mode: auto\npermissions: deny\nsessionModel: '{model}'\nsessionMeta: { a: 1 }\n`)).toEqual([
      'mine.yaml:4 mode: only for an acp agent (a session mode set after session/new); an exec agent runs unattended: remove this field',
      'mine.yaml:5 permissions: only for an acp agent (how ACP permission requests are answered); an exec agent runs unattended: remove this field',
      'mine.yaml:6 sessionModel: only for an acp agent (the model chosen in the ACP session; give an exec agent its model in args); an exec agent runs unattended: remove this field',
      "mine.yaml:7 sessionMeta: only for an acp agent (session/new's _meta); an exec agent runs unattended: remove this field",
    ]);
    expect(problems("name: mine\nkind: acp\ncommand: my-acp\nsessionModel: 'ladder/{modle}'\n")).toEqual([
      'mine.yaml:4 sessionModel: unknown placeholder {modle}; did you mean {model}?',
    ]);
    expect(problems('name: mine\nkind: acp\ncommand: my-acp\nanswer: last-line\n')).toEqual([
      "mine.yaml:4 answer: only an exec agent's stdout is read for an answer; an acp agent's answer is the text of its agent messages: remove this field",
    ]);
  });

  it("reads an agent's loop guard, exec or acp, and refuses a pattern that is not a regular expression", () => {
    expect(parseAgentFile('mine.yaml', `${EXEC}loopGuard:\n  pattern: '^Loop detection halted'\n`).loopGuard).toEqual({ pattern: '^Loop detection halted' });
    expect(problems(`${EXEC}loopGuard:\n  pattern: 'halted (the run'\n`)).toEqual([
      'mine.yaml:5 loopGuard.pattern: not a regular expression (Invalid regular expression: /halted (the run/: Unterminated group); '
      + "write the start of the agent's loop-guard message, with \\ before any of . * + ? ( ) [ ] { } | ^ $",
    ]);
    expect(parseAgentFile('mine.yaml', 'name: mine\nkind: acp\ncommand: my-acp\nloopGuard: { pattern: halted }\n').loopGuard).toEqual({ pattern: 'halted' });
    expect(problems(`${EXEC}loopGuard: { pattern: '' }\n`)).toEqual(["mine.yaml:4 loopGuard.pattern: expected a regular expression for the agent's loop-guard message"]);
  });

  it('keeps files inside the pass\'s folders', () => {
    expect(problems(`${EXEC}files:\n  /etc/agent.conf: x\n  ../up.txt: y\n  '{workspace}/ok.txt': z\n  here/ok.txt: w\n`)).toEqual([
      "mine.yaml:5 files./etc/agent.conf: a file goes under {home} or {workspace} (or a path relative to the workspace), so nothing outside the pass's own folders is written",
      "mine.yaml:6 files.../up.txt: a file goes under {home} or {workspace} (or a path relative to the workspace), so nothing outside the pass's own folders is written",
    ]);
  });

  it('says what the schema expected, field by field', () => {
    expect(problems('name: mine\nkind: shell\nmodle: auto\n')).toEqual([
      'mine.yaml:2 kind: expected "exec" or "acp", got the text "shell"',
      'mine.yaml:1 command: missing; expected text',
      'mine.yaml:3 modle: unknown field; did you mean mode?',
    ]);
    expect(problems(`${EXEC}answer: first-line\n`)).toEqual([
      "mine.yaml:4 answer: expected stdout, last-line, or {json: 'a.b.c'} (a path into the last JSON line of stdout)",
    ]);
    expect(problems(`${EXEC}env:\n  not-a-name: x\n`)).toEqual(['mine.yaml:5 env.not-a-name: expected an environment variable name (letters, digits, _)']);
  });

  it('gives a YAML syntax error as one line', () => {
    expect(problems('name: mine\nkind: exec\ncommand: [my-agent\n')).toEqual(['mine.yaml:3 YAML syntax: the [ opened here is never closed with ]']);
    expect(problems('')).toEqual(['mine.yaml:1 an agent file is a mapping with name, kind (exec or acp), command and args (docs/agent.md, "External agents: the agent file")']);
  });
});

describe('--agent NAME', () => {
  it('loads a shipped recipe by its name', async () => {
    const codex = await loadAgentFile('codex');
    expect(codex).toMatchObject({ file: 'agents/codex.yaml', name: 'codex', kind: 'exec', command: 'codex' });
  });

  it('loads an agent file by its path, and from a folder of recipes by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ladder-agentfile-'));
    try {
      writeFileSync(join(dir, 'mine.yaml'), EXEC);
      expect((await loadAgentFile(join(dir, 'mine.yaml'))).command).toBe('my-agent');
      expect((await loadAgentFile('mine', dir)).file).toBe('agents/mine.yaml');
      writeFileSync(join(dir, 'bad.yaml'), `${EXEC}mode: auto\n`);
      await expect(loadAgentFile(join(dir, 'bad.yaml'))).rejects.toThrow(`${join(dir, 'bad.yaml')}:4 mode: only for an acp agent`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the recipes there are when neither a recipe nor a file goes by that name', async () => {
    const names = recipeNames();
    expect(names).toEqual(['claude-code', 'claude-code-acp', 'codex', 'codex-acp', 'gemini', 'gemini-acp', 'opencode', 'opencode-acp', 'qwen-code', 'qwen-code-acp']);
    await expect(loadAgentFile('codx')).rejects.toThrow(
      'codx: no shipped agent by that name and no such file; did you mean codex? the recipes are claude-code, claude-code-acp, codex, codex-acp, gemini, gemini-acp, opencode, opencode-acp, qwen-code, qwen-code-acp, or give the path of an agent file',
    );
    await expect(loadAgentFile('nothing-like-it')).rejects.toThrow(
      'nothing-like-it: no shipped agent by that name and no such file; the recipes are claude-code, claude-code-acp, codex, codex-acp, gemini, gemini-acp, opencode, opencode-acp, qwen-code, qwen-code-acp, or give the path of an agent file',
    );
  });

  it('loads every shipped recipe', async () => {
    for (const name of recipeNames()) {
      const agent = await loadAgentFile(name);
      expect(agent.name, name).toBe(name);
      expect(agent.install, `${name} says how to install it`).toBe(`npx ladder agents install ${name}`);
      expect(agent.package, `${name} is pinned to an exact version`).toMatch(/^\S+@\d+\.\d+\.\d+$/);
    }
  });
});

describe('the shipped recipes', () => {
  it('write files that parse once their placeholders are filled', async () => {
    const { fill, passPlaceholders } = await import('../../src/agents/placeholders.ts');
    const values = passPlaceholders({
      workspace: '/w', home: '/h', model: 'm', mcpUrl: 'http://127.0.0.1:1/mcp', mcpToken: 't', openaiBaseUrl: 'http://127.0.0.1:2/v1', anthropicBaseUrl: 'http://127.0.0.1:2', geminiBaseUrl: 'http://127.0.0.1:2', apiKey: 'k',
    });
    let jsonFiles = 0;
    for (const name of recipeNames()) {
      for (const [path, content] of Object.entries((await loadAgentFile(name)).files)) {
        const text = fill(content, values);
        expect(text, `${name} ${path}`).not.toMatch(/\{(workspace|home|model|mcpUrl|mcpToken|mcpConfig|openaiBaseUrl|anthropicBaseUrl|geminiBaseUrl|apiKey)\}/);
        if (path.endsWith('.json')) {
          expect(() => JSON.parse(text), `${name} ${path}`).not.toThrow();
          jsonFiles++;
        }
      }
    }
    // gemini's settings, opencode's config and its package-lock, qwen-code's settings, and the same in their acp recipes.
    expect(jsonFiles).toBe(8);
  });
});
