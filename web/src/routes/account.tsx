import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api.js';
import { Page } from '../components/layout.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { useSession } from '../session.js';

/** Who is signed in, and until when. */
export default function AccountPage() {
  const api = useApi();
  const { session } = useSession();
  const me = useQuery({ queryKey: ['me'], queryFn: async () => (await api.call('getMe', {})).data });
  return (
    <Page title="Account">
      <ErrorAlert error={me.error} />
      {me.isLoading ? <Loading /> : null}
      {me.data ? (
        <dl className="facts">
          <dt>Name</dt><dd>{me.data.name}</dd>
          <dt>Email</dt><dd>{me.data.email}</dd>
          <dt>Member since</dt><dd>{new Date(me.data.createdAt).toLocaleDateString()}</dd>
          <dt>This session ends</dt><dd>{session ? new Date(session.expiresAt).toLocaleString() : ''}</dd>
        </dl>
      ) : null}
      <p className="hint">The command line signs in with <code>hop login</code>; API keys for scripts and CI are made in each workspace's settings.</p>
    </Page>
  );
}
