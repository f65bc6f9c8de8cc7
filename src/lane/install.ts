// Where this copy of Ladder is installed, and its version. The folder is found by walking up
// from this module to the first package.json rather than by a fixed '../..': the compiled build
// (dist/) bundles modules into files at other depths than src/lane/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The folder holding Ladder's package.json, bin/, src/ and (once built) dist/. */
export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

export const LADDER_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * True when this code runs from the compiled build, false when from the TypeScript sources
 * (tests, the mutation battery, a checkout whose build is out of date). What a run starts for
 * its passes follows the same choice, so a test of the sources never runs a stale build.
 */
export const COMPILED = import.meta.url.endsWith('.js');
