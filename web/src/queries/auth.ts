import { useMutation } from '@tanstack/react-query';
import type { ConfirmPasswordResetBody, LoginBody, PasswordResetBody, SignupBody } from '@hop/shared';
import { useApi } from '../api.js';

export function useLogin() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: LoginBody) => (await api.call('login', { body })).data });
}

export function useSignup() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: SignupBody) => (await api.call('signup', { body })).data });
}

/** Answers the address it was sent to: the answer is the same whether or not it has an account. */
export function useRequestPasswordReset() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: PasswordResetBody) => { await api.call('requestPasswordReset', { body }); return body.email; } });
}

export function useConfirmPasswordReset() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: ConfirmPasswordResetBody) => (await api.call('confirmPasswordReset', { body })).data });
}
