// Events of one HTTP session kept in memory, so a client whose response stream was cut can
// reconnect with Last-Event-ID and get what it missed (the reply to a call in flight
// included). Bounded: the oldest events go first once the session has stored too many.
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '../mcp/types.ts';

/** Events kept per session: hours of a normal pass, and a few MB at most. */
const MAX_EVENTS = 5_000;

interface Stored {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
}

export class MemoryEventStore implements EventStore {
  readonly #events = new Map<EventId, Stored>();
  readonly #maxEvents: number;
  #seq = 0;

  constructor(maxEvents = MAX_EVENTS) {
    this.#maxEvents = maxEvents;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.#seq;
    const id = `${seq}.${streamId}`;
    this.#events.set(id, { seq, streamId, message });
    if (this.#events.size > this.#maxEvents) {
      const oldest = this.#events.keys().next().value;
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (!last) return '';
    for (const [id, event] of this.#events) {
      // Priming events carry no message ({}), only a position to resume from.
      if (event.seq <= last.seq || event.streamId !== last.streamId || !('jsonrpc' in event.message)) continue;
      await send(id, event.message);
    }
    return last.streamId;
  }
}
