import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { HopClient } from '@hop/shared/client-core';
import { useApi } from '../api.js';

/**
 * A mutation through the API client that refreshes the queries under `keys` once it succeeds, or
 * with `settled` once it ends either way (a refused change then shows what the server kept).
 */
export function useApiMutation<I = void, O = unknown>(
  call: (api: HopClient, input: I) => Promise<O>,
  keys: readonly QueryKey[],
  when: 'success' | 'settled' = 'success',
) {
  const api = useApi();
  const queries = useQueryClient();
  const refresh = async () => {
    for (const queryKey of keys) await queries.invalidateQueries({ queryKey });
  };
  return useMutation({ mutationFn: (input: I) => call(api, input), ...(when === 'settled' ? { onSettled: refresh } : { onSuccess: refresh }) });
}
