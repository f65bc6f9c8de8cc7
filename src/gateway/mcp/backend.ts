// What the MCP gateway serves: a tool list and a way to call it. In a run it is the pass's
// lane behind the step the runner has open (step.ts); in `ladder gateway` it is a long-lived
// lane whose turns a policy draws on the wire. The front (server.ts) knows nothing of either.
import type { LaneTool } from '../../lane/index.ts';
import type { PassThrough, PassThroughOffer } from '../passThrough.ts';
import type { Outcome } from '../../trace/index.ts';

export interface GatewayProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface GatewayCallAt {
  /** Aborted when the client cancels the request (notifications/cancelled) or its session closes. */
  signal: AbortSignal;
  /** The client's MCP session, when the transport has one. */
  session: string | undefined;
  /** Set when the client asked for progress (a progressToken); forwards the upstream's. */
  onProgress?: (progress: GatewayProgress) => void;
  /** The client's `_meta` on the request, for turn policies that read it. */
  meta?: Record<string, unknown>;
}

export interface GatewayAnswer {
  text: string;
  isError: boolean;
  outcome: Outcome | 'ceiling';
}

export interface GatewayBackend {
  /** What tools/list answers now. */
  tools(at: { session: string | undefined }): Promise<readonly LaneTool[]>;
  /** Always answers: a call the lane refuses or cannot make is an error result, never a thrown error. */
  call(name: string, args: Record<string, unknown> | undefined, at: GatewayCallAt): Promise<GatewayAnswer>;
  /** Called when the tool list changed; the front sends notifications/tools/list_changed. Returns an unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Resources and prompts, passed through (`ladder gateway`); a pass's gateway serves tools only. */
  resourcesAndPrompts?: ResourcesAndPrompts;
}

export interface ResourcesAndPrompts {
  readonly offer: PassThroughOffer;
  readonly upstream: PassThrough;
  /** The upstreams' resource and prompt notifications; returns an unsubscribe. */
  onNotification(listener: (notification: UpstreamNotification) => void): () => void;
}

export interface UpstreamNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** A tiny listener set, for backends. */
export class ToolsChanged {
  readonly #listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  fire(): void {
    for (const listener of this.#listeners) listener();
  }
}
