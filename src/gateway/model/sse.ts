// Server-sent events as the three APIs send them: `event:` (Anthropic, Responses) and `data:`
// lines, a blank line after each. Each event is written as it is made; nothing is held back.
// The response opens (status 200, the event-stream headers) with the first event, not with the
// request, so an answer that fails before any output still gets the format's HTTP error status,
// which the SDKs' retries and the agents' back-off read; after that a failure is an event.
import type { ServerResponse } from 'node:http';
import type { EventSink } from './types.ts';

export interface ResponseSink extends EventSink {
  /** Whether anything was written: the status is sent. */
  readonly opened: boolean;
  end(): void;
}

export function eventSink(res: ServerResponse): ResponseSink {
  let opened = false;
  const open = () => {
    if (opened) return;
    opened = true;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  };
  const write = (text: string) => {
    open();
    if (!res.writableEnded && !res.destroyed) res.write(text);
  };
  return {
    get opened() {
      return opened;
    },
    send(data, event) {
      write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
    },
    sendRaw(data) {
      write(`data: ${data}\n\n`);
    },
    write,
    end() {
      open();
      if (!res.writableEnded) res.end();
    },
  };
}
