// What each upstream is doing now: `ladder gateway status`, and GET /status over HTTP. The
// figures come from the gateway's own tool.call events, so the status says what the trace says.
// Commands are shown as their command line or URL origin and path (describeServer): never env
// values or header values, where secrets live.
export interface UpstreamStatus {
  name: string;
  /** The command line or URL, without env or header values. */
  target: string;
  /**
   * `up`, `restarting`, `refused` (it refused the MCP revision offered; not restarted), or the
   * circuit when it is not closed: `circuit open`, `circuit half-open`.
   */
  state: string;
  /** The MCP revision it speaks with the gateway (`2026-07-28`, `2025-11-25`); null while it is down. */
  protocol: string | null;
  /** Failed calls since its last success (what the circuit counts toward opening). */
  failures: number;
  lastError: string | null;
  restarts: number;
  tools: number;
  calls: number;
  p95Ms: number | null;
  /** While restarting: when the next start is tried (ISO time). */
  retryAt?: string;
}

export interface GatewayStatus {
  pid: number;
  startedAt: string;
  transport: 'stdio' | 'http';
  url?: string;
  arm: string;
  turnPolicy: string;
  turn: number;
  /** HTTP: client sessions held now (ended by DELETE, or after the session idle time). */
  sessions?: number;
  /**
   * The gateway process's memory now, in bytes (process.memoryUsage()): what a long-lived
   * gateway holds, and what the soak (bench/gatewaySoak.ts) samples to tell a leak from the
   * allocator's own growth.
   */
  memory: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
  upstreams: UpstreamStatus[];
}

/** Call times kept per upstream for its p95: the last thousand, so memory stays flat. */
const KEPT_TIMES = 1_000;
/** A status line's last column: enough for an error's message, not a stack trace. */
const LAST_ERROR_CHARS = 160;

export class UpstreamStats {
  calls = 0;
  failures = 0;
  lastError: string | null = null;
  readonly #times: number[] = [];

  record(outcome: string, ms: number): void {
    this.calls += 1;
    this.#times.push(ms);
    if (this.#times.length > KEPT_TIMES) this.#times.shift();
    if (outcome === 'ok') this.failures = 0;
    else if (outcome === 'failed' || outcome === 'timeout') this.failures += 1;
  }

  /** The first line of what a failed call answered, cut to one status line. */
  failedWith(text: string): void {
    const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
    this.lastError = line.length > LAST_ERROR_CHARS ? `${line.slice(0, LAST_ERROR_CHARS)}...` : line;
  }

  p95(): number | null {
    if (this.#times.length === 0) return null;
    const sorted = [...this.#times].sort((a, b) => a - b);
    return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
  }
}

const pad = (text: string, width: number): string => text.padEnd(width);

/** The status as a person reads it: one line per upstream. */
export function statusText(status: GatewayStatus): string[] {
  const where = status.transport === 'http' ? `http ${status.url ?? ''}` : 'stdio';
  const sessions = status.sessions === undefined ? '' : `, ${status.sessions} session${status.sessions === 1 ? '' : 's'}`;
  const lines = [`ladder gateway pid ${status.pid} (${where}), arm ${status.arm}, turn ${status.turn} (${status.turnPolicy})${sessions}, since ${status.startedAt}`];
  const rows = status.upstreams.map((u) => [
    u.name, u.state, u.protocol ?? '-', String(u.failures), String(u.restarts), String(u.tools), String(u.calls), u.p95Ms === null ? '-' : `${Math.round(u.p95Ms)} ms`,
    u.lastError ?? '',
  ]);
  const head = ['upstream', 'state', 'protocol', 'failures', 'restarts', 'tools', 'calls', 'p95', 'last error'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!))).join('  ').trimEnd();
  lines.push(line(head), ...rows.map(line));
  return lines;
}
