import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSseParser, type SseMessage } from './sse-parser.js';

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const p = createSseParser({ onMessage: (m) => messages.push(m), onComment: (c) => comments.push(c), onRetry: (r) => retries.push(r) });
  for (const c of chunks) p.feed(c);
  return { messages, comments, retries, lastEventId: p.lastEventId };
}

const STREAM = 'retry: 2000\n\nevent: ready\ndata: {"a":1}\n\n: ping\n\nid: 7\nevent: link.created\ndata: {"b":2}\n\n';

test('events, ids, comments and retry hints, whatever the chunking', () => {
  const whole = parse([STREAM]);
  assert.deepEqual(whole.messages, [
    { event: 'ready', data: '{"a":1}', lastEventId: undefined },
    { event: 'link.created', data: '{"b":2}', lastEventId: '7' },
  ]);
  assert.deepEqual(whole.comments, ['ping']);
  assert.deepEqual(whole.retries, [2000]);
  assert.equal(whole.lastEventId, '7');
  // One character at a time, and with CRLF / CR line ends, gives the same messages.
  assert.deepEqual(parse([...STREAM]).messages, whole.messages);
  assert.deepEqual(parse([...STREAM.replace(/\n/g, '\r\n')]).messages, whole.messages);
  assert.deepEqual(parse([STREAM.replace(/\n/g, '\r')]).messages, whole.messages);
});

test('multi-line data joins with newlines; a message without data is not dispatched; an unfinished one waits', () => {
  const { messages } = parse(['\uFEFFdata: one\ndata:two\n\nevent: empty\n\ndata: half']);
  assert.deepEqual(messages, [{ event: 'message', data: 'one\ntwo', lastEventId: undefined }]);
});
