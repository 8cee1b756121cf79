import { request as httpRequest } from 'node:http';

/** A whole answer: status, headers and body text. */
export interface SentResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * The typed client's one transport call: a request over node's own http(s), the whole answer as
 * text. Not undici: loading it slows every cold CLI start, and its WebAssembly parser keeps the
 * process busy after the answer. The dashboard passes the client one over `fetch` instead
 * (web/src/transport/fetch-send.ts), so both run the same client. `node:https` loads only for an
 * https URL: it brings TLS and crypto, which a CLI talking to a server over plain http would
 * otherwise load at every start.
 */
export async function send(url: string, method: string, headers: Record<string, string>, payload?: string): Promise<SentResponse> {
  const request = url.startsWith('https:') ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const length = payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
    const req = request(url, { method, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
