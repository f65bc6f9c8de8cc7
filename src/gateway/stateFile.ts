// Where a running gateway says what it is doing, so `ladder gateway status` can ask one that
// a client started over stdio (it has no port to ask). Each gateway writes
// `<state dir>/gateways/<pid>.json` (rewritten whole through a rename, at most twice a second)
// and removes it when it exits; a file whose process is gone (killed outright) is removed by the
// next `status`. The state dir is LADDER_STATE_DIR, else $XDG_STATE_HOME/ladder, else
// ~/.local/state/ladder.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { GatewayStatus } from './status.ts';

/** Status written at most this often: a call storm does not become a write storm. */
const WRITE_EVERY_MS = 500;

export function gatewaysDir(env: Readonly<Record<string, string | undefined>>): string {
  const base = env['LADDER_STATE_DIR'] ?? join(env['XDG_STATE_HOME'] ?? join(homedir(), '.local', 'state'), 'ladder');
  return join(base, 'gateways');
}

export class StateFile {
  readonly #path: string;
  readonly #read: () => GatewayStatus;
  #timer: NodeJS.Timeout | undefined;

  constructor(dir: string, read: () => GatewayStatus) {
    mkdirSync(dir, { recursive: true });
    this.#path = join(dir, `${process.pid}.json`);
    this.#read = read;
    this.write();
  }

  /** Something changed: write soon (coalesced). */
  changed(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.write();
    }, WRITE_EVERY_MS).unref();
  }

  write(): void {
    const temp = `${this.#path}.tmp`;
    writeFileSync(temp, `${JSON.stringify(this.#read(), null, 2)}\n`);
    renameSync(temp, this.#path);
  }

  remove(): void {
    clearTimeout(this.#timer);
    rmSync(this.#path, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every running gateway's last status; files of gateways that are gone are removed. */
export function readGateways(dir: string): GatewayStatus[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const found: GatewayStatus[] = [];
  for (const name of names) {
    const pid = Number(name.slice(0, -'.json'.length));
    const path = join(dir, name);
    if (!alive(pid)) {
      rmSync(path, { force: true });
      continue;
    }
    try {
      found.push(JSON.parse(readFileSync(path, 'utf8')) as GatewayStatus);
    } catch {
      // Being rewritten: the rename makes that rare; the next status reads it.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}
