// A rung whose server asks the user for input (the SDK v2 fixture's `deploy`), run by `ladder
// run` on both MCP eras as arms: the rung's declared answer confirms one deployment, the other
// request matches none and is declined; each is recorded and `ladder show` prints it. And a
// declared answer's mistakes, one located line each.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runShow } from '../../src/cli/show.ts';
import { parseRung } from '../../src/rungs/load.ts';
import { V2_SERVER } from '../helpers/v2Server.ts';
import { quietRun, removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const RUNG = `name: deploy-confirm
description: Deploy to staging and to production, each once the user confirms.
servers:
  v2: { command: node, args: ${JSON.stringify([V2_SERVER, 'dual', 'stdio'])} }
elicit:
  - message: Deploy to staging
    content: { confirm: true }
steps:
  - prompt: Deploy to staging, then to production.
    ceiling: 3
    checks:
      - answer: { mentions: [staging] }
    reference:
      calls:
        - tool: v2__deploy
          args: { env: staging }
        - tool: v2__deploy
          args: { env: production }
      answer: Deployed to staging; production was not confirmed.
`;

describe("a rung that answers its server's requests for input", () => {
  it('confirms what it declares and declines the rest, in either era, and show prints each request', async () => {
    const file = join(await tempDir('ladder-elicit-rung-'), 'deploy-confirm.yaml');
    writeFileSync(file, RUNG);
    const out = join(await tempDir('ladder-elicit-run-'), 'run');
    const run = await quietRun({ rungs: [file], model: 'synthetic:reference', passes: 1, seed: 1, timeFactor: 0.01, arms: 'on,protocol=legacy;on,protocol=2026-07-28', out });
    expect(run.code).toBe(0);
    for (const arm of ['on,protocol=legacy', 'on,protocol=2026-07-28']) {
      let text = '';
      expect(await runShow({ run: out, rung: 'deploy-confirm', arm, pass: 0 }, { out: (t) => void (text += t), colour: false })).toBe(0);
      const lines = text.split('\n');
      expect(lines.filter((l) => l.includes('Asked for input'))).toEqual([
        '  Asked for input: v2 asked "Deploy to staging?": accept {"confirm":true} (a declared answer)',
        '  Asked for input: v2 asked "Deploy to production?": decline (no declared answer matched)',
      ]);
      expect(text).toContain('deployed to staging');
      expect(text).toContain('not deployed (decline)');
    }
  }, 120_000);

  it('says in one located line what is wrong with a declared answer', () => {
    const bad = (elicit: string) => {
      try {
        parseRung('r.yaml', RUNG.replace(/elicit:\n(.*\n){2}/, `elicit:\n${elicit}\n`));
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(bad('  - { message: Deploy, action: decline, content: { confirm: true } }')).toMatch(/^r\.yaml:\d+ elicit\[0\]\.content: content goes with action: accept only/);
    expect(bad('  - { message: Deploy, action: maybe }')).toMatch(/^r\.yaml:\d+ elicit\[0\]\.action: expected accept, decline or cancel/);
    expect(bad('  - { message: "" }')).toMatch(/^r\.yaml:\d+ elicit\[0\]\.message: expected a part of the message the server asks/);
    expect(bad('  - { message: Deploy, content: { confirm: { nested: true } } }')).toMatch(/^r\.yaml:\d+ elicit\[0\]\.content\.confirm: /);
  });
});
