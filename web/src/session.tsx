import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AuthResult, User } from '@hop/shared';

/**
 * The dashboard-session JWT of /v1/auth/login, kept in this origin's localStorage so a signed-in
 * session survives a reload and opens any page by its URL. Only scripts of this origin can read
 * it, and the server's CSP lets no other origin's script run here (docs/adr/).
 */
const KEY = 'hop.session';

export interface Session { token: string; expiresAt: string; user: User }

/** The session this browser keeps, unless it has expired. */
export function storedSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null;
    if (!s || new Date(s.expiresAt).getTime() <= Date.now()) return null;
    return s;
  } catch {
    return null;
  }
}

interface SessionState {
  session: Session | null;
  signIn: (auth: AuthResult) => void;
  signOut: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(storedSession);
  const signIn = useCallback((auth: AuthResult) => {
    const s = { token: auth.token, expiresAt: auth.expiresAt, user: auth.user };
    localStorage.setItem(KEY, JSON.stringify(s));
    setSession(s);
  }, []);
  const signOut = useCallback(() => {
    localStorage.removeItem(KEY);
    setSession(null);
  }, []);
  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
