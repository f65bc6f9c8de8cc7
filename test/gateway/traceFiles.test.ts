// The gateway's trace files: every event on disk as soon as it is emitted (a client may kill the
// gateway it started at any moment), and a new file once one is full.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TraceFiles } from '../../src/gateway/traceFiles.ts';
import type { TraceEventInput } from '../../src/trace/index.ts';

const call = (n: number): TraceEventInput => ({
  type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'a__echo', turn: 1, round: n, server: 'a', tool: 'echo',
  key: `k${n}`, outcome: 'ok', ms: 3, argBytes: 7, resultBytes: 9,
});

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (): string[] => readdirSync(dir).sort().flatMap((name) => readFileSync(join(dir, name), 'utf8').trim().split('\n').filter(Boolean));

describe('gateway trace files', () => {
  it('has each event on disk as soon as it is emitted, without waiting for a flush or a close', () => {
    dir = mkdtempSync(join(tmpdir(), 'ladder-gwtrace-'));
    const files = new TraceFiles({ dir, content: 'none', secrets: [] });
    files.emit(call(1));
    expect(lines().map((l) => JSON.parse(l).type)).toStrictEqual(['tool.call']);
    files.emit(call(2));
    expect(lines()).toHaveLength(2);
    files.close();
  });

  it('starts a new file once the current one is over its size, checked every hundred events', () => {
    dir = mkdtempSync(join(tmpdir(), 'ladder-gwtrace-'));
    const files = new TraceFiles({ dir, content: 'none', secrets: [], rotateBytes: 1 });
    for (let n = 0; n < 99; n += 1) files.emit(call(n));
    expect(readdirSync(dir)).toHaveLength(1);
    files.emit(call(99));
    files.emit(call(100));
    files.close();
    const names = readdirSync(dir).sort();
    expect(names).toHaveLength(2);
    expect(names[1]).toMatch(/-2\.jsonl$/);
    expect(lines()).toHaveLength(101);
  });
});
