import { createParser } from 'eventsource-parser';

/** One Server-Sent Event as a client reads it; a comment line (`: keep-alive`) comes as `comment`. */
export interface StreamEvent {
  event?: string;
  id?: string;
  data?: unknown;
  comment?: string;
}

export interface EventStream {
  status: number;
  contentType: string | null;
  /** The JSON error of an answer that is not a stream. */
  error?: unknown;
  /** The next event or comment, or undefined once the stream has ended. */
  next(): Promise<StreamEvent | undefined>;
  /** Hangs up, as a client that goes away. */
  close(): void;
}

/** Opens a run's event stream (GET .../events) with a bearer token, resuming after `lastEventId` when given. */
export async function openEventStream(url: string, token: string, lastEventId?: string): Promise<EventStream> {
  const hangUp = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: hangUp.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return { status: response.status, contentType, error: await response.json(), next: async () => undefined, close: () => {} };
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parsed: StreamEvent[] = [];
  const parser = createParser({
    onEvent: ({ event, id, data }) => parsed.push({ event, id, data: JSON.parse(data) }),
    onComment: (comment) => parsed.push({ comment: comment.trim() }),
  });
  return {
    status: response.status,
    contentType,
    async next() {
      while (parsed.length === 0) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done || value === undefined) return undefined;
        parser.feed(value);
      }
      return parsed.shift();
    },
    close: () => hangUp.abort(),
  };
}

/** Every event of the stream until it ends, comments left out. */
export async function readToEnd(stream: EventStream): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for (let event = await stream.next(); event; event = await stream.next()) if (!event.comment) events.push(event);
  return events;
}
