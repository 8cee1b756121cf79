import { lazy, startTransition, StrictMode, Suspense, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes, useParams } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DASHBOARD_PATHS, dashboardPath } from '@hop/shared/dashboard-paths';
import { SessionProvider } from './session.js';
import { TransportProvider } from './transport/transport.js';
import { fetchSend } from './transport/fetch-send.js';
import { Layout } from './components/layout.js';
import { RequireSession } from './components/require-session.js';
import { Loading } from './components/states.js';
import './styles.css';

// Each page is its own chunk: the first load carries only the shell and the page opened.
const page = (load: () => Promise<{ default: ComponentType }>, signedIn = true) => {
  const Page = lazy(load);
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
                <Route path={DASHBOARD_PATHS.signup} element={page(() => import('./routes/signup.js'), false)} />
                <Route path={DASHBOARD_PATHS.login} element={page(() => import('./routes/login.js'), false)} />
                <Route path={DASHBOARD_PATHS.forgotPassword} element={page(() => import('./routes/forgot-password.js'), false)} />
                <Route path={DASHBOARD_PATHS.resetPassword} element={page(() => import('./routes/reset-password.js'), false)} />
                <Route path={DASHBOARD_PATHS.invite} element={page(() => import('./routes/invite-accept.js'), false)} />
                <Route path={DASHBOARD_PATHS.workspaces} element={page(() => import('./routes/workspaces.js'))} />
                <Route path={DASHBOARD_PATHS.account} element={page(() => import('./routes/account.js'))} />
                <Route path={DASHBOARD_PATHS.accountApps} element={page(() => import('./routes/account-apps.js'))} />
                <Route path={DASHBOARD_PATHS.workspace} element={<ToLinks />} />
                <Route path={DASHBOARD_PATHS.links} element={page(() => import('./routes/links-list.js'))} />
                <Route path={DASHBOARD_PATHS.newLink} element={page(() => import('./routes/link-new.js'))} />
                <Route path={DASHBOARD_PATHS.importLinks} element={page(() => import('./routes/links-import.js'))} />
                <Route path={DASHBOARD_PATHS.link} element={page(() => import('./routes/link-detail.js'))} />
                <Route path={DASHBOARD_PATHS.analytics} element={page(() => import('./routes/analytics.js'))} />
                <Route path={DASHBOARD_PATHS.domains} element={page(() => import('./routes/domains.js'))} />
                <Route path={DASHBOARD_PATHS.webhooks} element={page(() => import('./routes/webhooks-list.js'))} />
                <Route path={DASHBOARD_PATHS.webhook} element={page(() => import('./routes/webhook-detail.js'))} />
                <Route path={DASHBOARD_PATHS.settings} element={page(() => import('./routes/settings.js'))} />
                <Route path={DASHBOARD_PATHS.members} element={page(() => import('./routes/settings-members.js'))} />
                <Route path={DASHBOARD_PATHS.keys} element={page(() => import('./routes/settings-keys.js'))} />
                <Route path={DASHBOARD_PATHS.oauthClients} element={page(() => import('./routes/settings-oauth-clients.js'))} />
                <Route path={DASHBOARD_PATHS.ciTrusts} element={page(() => import('./routes/settings-ci-trusts.js'))} />
                <Route path={DASHBOARD_PATHS.billing} element={page(() => import('./routes/settings-billing.js'))} />
                <Route path="*" element={page(() => import('./routes/not-found.js'), false)} />
              </Route>
            </Routes>
          </BrowserRouter>
        </SessionProvider>
      </QueryClientProvider>
    </TransportProvider>
  </StrictMode>,
));
