import { useMemo } from 'react';
import { createHopClient, HopApiError, type HopClient } from '@hop/shared/client-core';
import { useSession } from './session.js';
import { useTransport } from './transport/transport.js';

export { HopApiError };

/** The shared typed client, over the transport provided, with the session's token. */
export function useApi(): HopClient {
  const { session, signOut } = useSession();
  const { send, baseUrl } = useTransport();
  return useMemo(() => {
    const client = createHopClient({ baseUrl, send, token: session?.token, userAgent: 'hop-dashboard' });
    // A session the server no longer accepts (expired, secret rotated) signs the app out.
    const call: HopClient['call'] = async (name, input) => {
      try {
        return await client.call(name, input);
      } catch (err) {
        if (session && err instanceof HopApiError && err.statusCode === 401) signOut();
        throw err;
      }
    };
    return { ...client, call };
  }, [session, signOut, send, baseUrl]);
}
