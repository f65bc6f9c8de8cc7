// `ladder gateway --trace DIR`: the gateway's tools.list and tool.call events, the same events a
// run writes, in JSONL files that rotate by size, so a gateway that runs for weeks does not
// grow one file without bound. Each file is `gateway-<start time>-<n>.jsonl`; `t` counts from
// the gateway's start across every file. Content is `none` by default (hashes and byte counts:
// this is someone's real work); `--content full` keeps arguments and results. Secrets in the
// servers' env and headers are scrubbed either way.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Scrubber, TraceWriter } from '../trace/index.ts';
import type { Emit, Secret } from '../trace/index.ts';

/** 64 MiB a file: a day of a busy client's calls with content, far more without. */
export const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;

export interface TraceFilesOptions {
  dir: string;
  content: 'none' | 'full';
  secrets: readonly Secret[];
  rotateBytes?: number;
}

export class TraceFiles implements Disposable {
  readonly #options: TraceFilesOptions;
  readonly #stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  readonly #startedAt = performance.now();
  readonly #scrubber: Scrubber;
  #writer: TraceWriter;
  #index = 0;
  #sinceCheck = 0;
  readonly emit: Emit;

  constructor(options: TraceFilesOptions) {
    this.#options = options;
    this.#scrubber = new Scrubber({ secrets: options.secrets });
    this.#writer = this.#open();
    this.emit = (event) => {
      this.#writer.emit(event);
      // On disk before the next event, not within the writer's 100 ms: a stdio client ends the
      // gateway it started as it pleases, and a client that kills it outright (or a machine
      // loaded enough to delay the timer past the kill) would take the last calls with it. One
      // write per event is nothing beside the call it records.
      this.#writer.flush();
      // A stat per event would cost a system call per tool call; every hundred is enough.
      this.#sinceCheck += 1;
      if (this.#sinceCheck >= 100) {
        this.#sinceCheck = 0;
        this.#rotateIfFull();
      }
    };
  }

  get path(): string {
    return this.#writer.path;
  }

  #open(): TraceWriter {
    this.#index += 1;
    const path = join(this.#options.dir, `gateway-${this.#stamp}-${this.#index}.jsonl`);
    return TraceWriter.open(path, {
      startedAt: this.#startedAt, scrubber: this.#scrubber, content: this.#options.content === 'full' ? 'full' : 'redacted',
    });
  }

  #rotateIfFull(): void {
    if (statSync(this.#writer.path).size < (this.#options.rotateBytes ?? DEFAULT_ROTATE_BYTES)) return;
    this.#writer.close();
    this.#writer = this.#open();
  }

  close(): void {
    this.#writer.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
