// `ladder rungs validate` and `ladder run` against a server that speaks only the 2026-07-28
// revision (test/fixtures/v2-server.mjs, a real process on the SDK's v2 line), over stdio and
// over Streamable HTTP as a server the pass starts itself: the refusal is said in one line, the
// server is asked once, and a run stops at the first pass with the server named as the culprit.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/rungs.ts';
import { runLadder } from '../../src/cli/runLadder.ts';
import { fixtureLog, V2_SERVER } from '../helpers/v2Server.ts';
import { manifestOf, removeTempDirs, ROOT, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

type Over = 'stdio' | 'http';

/** A one-step rung whose server `v2` is the modern-only fixture over `over`, logging to `log`. */
async function modernRung(over: Over, log: string): Promise<string> {
  const env = `env: { V2_FIXTURE_LOG: ${JSON.stringify(log)} }`;
  const server = over === 'stdio'
    ? `{ command: node, args: ${JSON.stringify([V2_SERVER, 'modern', 'stdio'])}, ${env} }`
    : `{ url: "http://127.0.0.1:{port}/mcp", start: { command: node, args: ${JSON.stringify([V2_SERVER, 'modern', 'http', '{port}'])}, ${env} } }`;
  const file = join(await tempDir('ladder-refusal-rung-'), 'modern.yaml');
  writeFileSync(file, `name: modern-${over}
description: Add two numbers on a server that speaks only 2026-07-28.
servers:
  v2: ${server}
steps:
  - prompt: Add 2 and 3 with the add tool.
    ceiling: 3
    checks:
      - called: v2__add
      - answer: { mentions: ['5'] }
    reference:
      calls:
        - tool: v2__add
          args: { a: 2, b: 3 }
      answer: 2 + 3 = 5
`);
  return file;
}

/** How the fixture was reached: its starts over stdio, its initialize requests over HTTP. */
const reached = (over: Over, log: string) => fixtureLog(log).filter((line) => (over === 'stdio' ? line.startsWith('start ') : line === 'POST initialize'));

const REFUSED = /server "v2" refused Ladder's protocol version \(\S*node \S*v2-server\.mjs modern (stdio|http \d+)\): it speaks 2026-07-28, Ladder speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07 \(MCP error -32022: Unsupported protocol version: 2025-11-25(, HTTP 400)?\); the server speaks only revisions this Ladder does not, so it was not tried again: serve a revision Ladder speaks as well \(a server on the MCP SDK v2 serves both eras unless told legacy: 'reject'\)/;

describe.each(['stdio', 'http'] as const)('a modern-only server over %s', (over) => {
  it('fails validation in one line naming both sides\' revisions, after one attempt per pass', async () => {
    const log = join(await tempDir('ladder-refusal-log-'), 'server.log');
    const file = await modernRung(over, log);
    const said: string[] = [];
    const started = performance.now();
    expect(await runValidate({ files: [file] }, (line) => said.push(line))).toBe(1);
    // Over HTTP the readiness check used to ask again for the whole 60 s connect timeout.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(said).toEqual([expect.stringMatching(new RegExp(`^\\S*/modern\\.yaml: cannot run: ${REFUSED.source}$`)), '1 problem in 1 rung']);
    // The reference pass reached it once and stopped there: validation ends at a pass that cannot run.
    expect(reached(over, log)).toHaveLength(1);
  }, 60_000);

  it('stops a run at its first pass, the server named, never complete', async () => {
    const log = join(await tempDir('ladder-refusal-log-'), 'server.log');
    const file = await modernRung(over, log);
    const out = join(await tempDir('ladder-refusal-run-'), 'run');
    const said: string[] = [];
    const progress = new PassThrough().resume();
    const code = await runLadder({ rungs: [file], passes: 3, timeFactor: 0.01, concurrency: 1, out }, {
      cwd: ROOT, env: {}, stdout: (line) => said.push(line), stderr: (line) => said.push(line), progress, signal: new AbortController().signal,
    });
    expect(code).toBe(1);
    const stop = said.find((line) => line.startsWith('ladder run: stopped'));
    expect(stop).toMatch(new RegExp(`^ladder run: stopped, a server refused Ladder's protocol, as it would on every pass: ${REFUSED.source}; ` +
      `0/6 passes complete in ${out}; once the server serves a protocol revision Ladder speaks, continue with: ladder run --resume --out ${out}$`));
    expect((await manifestOf(out)).status).toBe('interrupted');
    // One pass made, not three: the first refusal is the answer every pass would get.
    expect(reached(over, log)).toHaveLength(1);
  }, 60_000);
});
