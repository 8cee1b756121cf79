import { startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes, useParams } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DASHBOARD_PATHS, dashboardPath, type DashboardPage } from '@hop/shared/dashboard-paths';
import { SessionProvider } from './session.js';
import { TransportProvider } from './transport/transport.js';
import { fetchSend } from './transport/fetch-send.js';
import { Layout } from './components/layout.js';
import { RequireSession } from './components/require-session.js';
import { Loading } from './components/states.js';
import { lazyPreloaded } from './components/lazy-preloaded.js';
import { startPage, type PageModule } from './page-start.js';
import { PAGE_MODULES } from './pages.js';
import './styles.css';

// Each page is its own chunk: the first load carries only the shell and the page opened.
const ROUTE_MODULES = import.meta.glob<PageModule>(['./routes/*.tsx', '!./routes/*.test.tsx']);
const pageModule = (name: DashboardPage): (() => Promise<PageModule>) | undefined => {
  const entry = PAGE_MODULES[name];
  return entry && ROUTE_MODULES[`./routes/${entry[0]}.tsx`];
};

/** Each page's lazy component, made once per chunk: the opened page's is preloaded as the app starts (below). */
const lazyPages = new Map<() => Promise<PageModule>, ReturnType<typeof lazyPreloaded<PageModule>>>();
const lazyPage = (load: () => Promise<PageModule>) => {
  let entry = lazyPages.get(load);
  if (!entry) lazyPages.set(load, (entry = lazyPreloaded(load)));
  return entry;
};

const page = (load: () => Promise<PageModule>, signedIn: boolean) => {
  const { Component: Page } = lazyPage(load);
  const el = <Suspense fallback={<Loading />}><Page /></Suspense>;
  return signedIn ? <RequireSession>{el}</RequireSession> : el;
};

function ToLinks() {
  const { ws } = useParams();
  return <Navigate to={dashboardPath('links', { ws: ws! })} replace />;
}

const queries = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: (n, err) => n < 1 && (err as { statusCode?: number }).statusCode === 0 },
  },
});

// Where the server mounted the app (its <base href>), so links and reloads agree.
const basename = new URL(document.baseURI).pathname.replace(/\/+$/, '') || '/';

// The opened page's chunk and data are asked for before the first render (page-start.ts).
startPage(queries, basename, (name) => {
  const load = pageModule(name);
  return load && lazyPage(load).preload;
});

// A transition, which React renders in short tasks that leave the main thread free in between,
// rather than one long task (the first render is otherwise synchronous).
const root = createRoot(document.getElementById('root')!);
startTransition(() => root.render(
  <StrictMode>
    <TransportProvider send={fetchSend} baseUrl={window.location.origin}>
      <QueryClientProvider client={queries}>
        <SessionProvider>
          <BrowserRouter basename={basename}>
            <Routes>
              <Route element={<Layout />}>
                {(Object.entries(PAGE_MODULES) as [DashboardPage, readonly [string, boolean]][]).map(([name, [, signedIn]]) => (
                  <Route key={name} path={DASHBOARD_PATHS[name]} element={page(pageModule(name)!, signedIn)} />
                ))}
                <Route path={DASHBOARD_PATHS.workspace} element={<ToLinks />} />
                <Route path="*" element={page(ROUTE_MODULES['./routes/not-found.tsx'], false)} />
              </Route>
            </Routes>
          </BrowserRouter>
        </SessionProvider>
      </QueryClientProvider>
    </TransportProvider>
  </StrictMode>,
));
