/** One Server-Sent Events message, as the WHATWG "event stream interpretation" dispatches it. */
export interface SseMessage {
  /** `message` when the server named none. */
  event: string;
  data: string;
  /** The last `id:` seen on the stream so far (it persists across messages), or undefined. */
  lastEventId?: string;
  /** A `retry:` the server asked for, in milliseconds. */
  retry?: number;
}

/**
 * An incremental Server-Sent Events parser: feed it text as it arrives, in any chunking, and it
 * calls `onMessage` once per complete message. Comments (`: ping`) are reported to `onComment`,
 * which is how a listener knows the connection is alive between events.
 */
export function createSseParser(handlers: { onMessage: (m: SseMessage) => void; onComment?: (text: string) => void; onRetry?: (ms: number) => void }) {
  let buffer = '';
  let first = true;
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  let hasData = false;
  let lastEventId: string | undefined;

  function line(text: string) {
    if (text === '') {
      if (hasData) handlers.onMessage({ event: event || 'message', data: data.join('\n'), lastEventId });
      event = '';
      data = [];
      hasData = false;
      return;
    }
    if (text.startsWith(':')) {
      handlers.onComment?.(text.slice(1).trimStart());
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'id') {
      if (!value.includes('\0')) lastEventId = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) handlers.onRetry?.(Number(value));
    }
  }

  return {
    feed(chunk: string) {
      buffer += chunk;
      if (first && buffer.length) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      // Lines end in \n, \r\n or \r; a \n right after a \r that ended the previous chunk is its second half.
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c === '\n' && afterCr && i === start) {
          afterCr = false;
          start = i + 1;
          continue;
        }
        afterCr = false;
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i++;
          } else afterCr = true;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** The id to resume from (`Last-Event-ID`). */
    get lastEventId() {
      return lastEventId;
    },
  };
}
