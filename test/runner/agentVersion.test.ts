// A run with --agent asks the agent its version before the results folder exists, records it in
// the manifest beside the file's name and hash, starts the copy it found (the cache first, then
// PATH), and says in its start line which version from where.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareRun } from '../../src/runner/prepare.ts';
import { FIXTURES, removeTempDirs, ROOT, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

describe('a run with --agent', () => {
  it('records the version the agent printed, and starts the copy it found on PATH', async () => {
    const dir = await tempDir('ladder-agent-version-');
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'fakeagent'), '#!/bin/sh\necho "fakeagent version 3.4.5"\n');
    chmodSync(join(dir, 'bin', 'fakeagent'), 0o755);
    const file = join(dir, 'fake.yaml');
    writeFileSync(file, ['name: fake', 'kind: exec', 'command: fakeagent', "package: 'fake-agent@3.4.6'", 'version: { args: [--version] }'].join('\n'));
    const env = { PATH: `${join(dir, 'bin')}:/usr/bin:/bin`, LADDER_AGENTS_CACHE: join(dir, 'cache') };
    const prepared = await prepareRun({ rungs: FIXTURES, agent: file, out: join(dir, 'run') }, { cwd: ROOT, env });
    expect(prepared.manifest.agent).toMatchObject({ name: 'fake', file, version: '3.4.5' });
    expect(prepared.agentLine).toBe(`agent: fake 3.4.5 (from PATH (${join(dir, 'bin', 'fakeagent')})); the recipe pins 3.4.6, so results may differ from CI's; ` +
      `npx ladder agents install ${file} puts 3.4.6 in the agent cache, which is used first`);
    const made = await prepared.agent({ rung: prepared.rungs[0]!.rung, id: { rung: 'x', arm: 'on', armSlug: 'on', pass: 0, seed: 1 }, workspace: dir, oneShot: false, scrubber: undefined as never });
    expect(made.external?.command).toBe(join(dir, 'bin', 'fakeagent'));
  });
});
