import { createContext, useContext, type ReactNode } from 'react';
import type { Send } from '@hop/shared/client-core';

/**
 * How the typed client sends a request: `fetch` in the app (fetch-send.ts); a component test
 * passes one that answers from memory or from a local server.
 */
const TransportContext = createContext<{ send: Send; baseUrl: string } | null>(null);

export function TransportProvider({ send, baseUrl, children }: { send: Send; baseUrl: string; children: ReactNode }) {
  return <TransportContext.Provider value={{ send, baseUrl }}>{children}</TransportContext.Provider>;
}

export function useTransport(): { send: Send; baseUrl: string } {
  const t = useContext(TransportContext);
  if (!t) throw new Error('useTransport outside TransportProvider');
  return t;
}
