/** One Server-Sent Event: its name and its data, parsed as JSON. Comments (keep-alives) are not events. */
export interface ServerEvent {
  event: string;
  data: unknown;
}

/** The events of a stream as they come; ends when the stream does, and throws when its connection breaks. */
export async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  let buffer = '';
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trimStart();
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}
