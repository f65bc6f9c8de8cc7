// Listing faults at the wire. The SDK answers tools/list itself, so a listing that fails or
// stalls is made here, between the transport and the server: a failing listing is answered
// with a JSON-RPC error without reaching the server, a stalling one reaches it late.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '../mcp/types.ts';
import { RpcCode } from '../mcp/errors.ts';
import type { FaultPlan } from './faults.ts';
import type { WorkbenchTime } from './time.ts';

export const LISTING_FAILED_MESSAGE = 'tools/list failed: tool registry unavailable (503)';

export class ListingFaultTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #inner: Transport;
  readonly #faults: FaultPlan;
  readonly #time: WorkbenchTime;
  readonly #closing: AbortSignal;

  constructor(inner: Transport, faults: FaultPlan, time: WorkbenchTime, closing: AbortSignal) {
    this.#inner = inner;
    this.#faults = faults;
    this.#time = time;
    this.#closing = closing;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  async start(): Promise<void> {
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => void this.#receive(message, extra);
    await this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): Promise<void> {
    if (!('method' in message) || message.method !== 'tools/list' || !('id' in message)) {
      this.onmessage?.(message, extra);
      return;
    }
    const fault = this.#faults.nextListing();
    if (fault.kind === 'fail') {
      const error = { code: RpcCode.InternalError, message: LISTING_FAILED_MESSAGE };
      await this.#inner.send({ jsonrpc: '2.0', id: message.id, error }).catch((e: Error) => this.onerror?.(e));
      return;
    }
    if (fault.kind === 'stall') {
      try {
        await this.#time.sleep(fault.ms, this.#closing);
      } catch {
        return; // Closed while stalling: nobody is left to answer.
      }
    }
    this.onmessage?.(message, extra);
  }
}
