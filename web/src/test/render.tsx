// Renders a component as the app does (transport, queries, session, router), with a transport
// that records each request and answers it with `answer`: the form's part ends at the request.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { Send } from '@hop/shared/client-core';
import { TransportProvider } from '../transport/transport.js';
import { SessionProvider } from '../session.js';

export interface SentRequest { method: string; path: string; body: unknown }

export function renderWithApp(ui: ReactNode, answer: (req: SentRequest) => { status: number; body: unknown } = () => ({ status: 500, body: {} })) {
  const sent: SentRequest[] = [];
  const send: Send = async (url, method, _headers, payload) => {
    const req = { method, path: new URL(url).pathname, body: payload === undefined ? undefined : JSON.parse(payload) };
    sent.push(req);
    const res = answer(req);
    return { status: res.status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(res.body) };
  };
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <TransportProvider send={send} baseUrl="http://127.0.0.1:9">
      <QueryClientProvider client={queries}>
        <SessionProvider>
          <MemoryRouter>{ui}</MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </TransportProvider>,
  );
  return { ...view, sent };
}
