import { beforeAll, describe, expect, test } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Link, Workspace } from '@hop/shared';
import { renderWithApp, type SentRequest } from '../test/render.js';
import { useCreateLink, useUpdateLink } from '../queries/links.js';
import { LinkForm } from './link-form.js';

const workspace: Workspace = { id: 'ws_0000000000000000', name: 'Acme', slug: 'acme', role: 'owner', plan: 'pro', createdAt: '2026-11-01T00:00:00.000Z' };
const link: Link = {
  id: 'lnk_0000000000000000', slug: 'launch', domain: 'localhost:3000', url: 'https://example.com/launch', shortUrl: 'http://localhost:3000/launch',
  title: 'Launch', description: null, tags: ['q4'], expiresAt: null, expiredUrl: null, maxClicks: null, passwordProtected: false, clicks: 0,
  status: 'active', rules: [{ when: { country: 'DE', os: ['iOS', 'Android'] }, url: 'https://de.example.com/' }], variants: null, ios: null,
  android: null, preview: { title: 'Card' }, health: null, importedClicks: null, originalCreatedAt: null, createdBy: null, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
};

/** The API's answers: no domains; a saved link echoed with what was sent. */
const api = (req: SentRequest) => {
  if (req.path.endsWith('/domains')) return { status: 200, body: { data: [], pagination: { nextCursor: null } } };
  return { status: 200, body: { data: { ...link, ...(req.body as object) } } };
};

function Create() {
  return <LinkForm workspace={workspace} submitLabel="Create link" mutation={useCreateLink(workspace.id)} />;
}
function Edit() {
  const update = useUpdateLink(workspace.id);
  return <LinkForm workspace={workspace} link={link} submitLabel="Save" mutation={{ ...update, mutate: (body, o) => update.mutate({ linkId: link.id, body }, o) }} />;
}
const writes = (sent: SentRequest[]) => sent.filter((r) => r.method !== 'GET');

describe('the link form', () => {
  // The form loads its check (zod and the link schemas) on first use; Vitest transforms those
  // modules on that first import, which takes longer than a query's wait. Loaded once here.
  beforeAll(() => import('./check-body.js'), 30_000);

  test('refuses a destination without a scheme with the shared words, and sends nothing', async () => {
    const { sent } = renderWithApp(<Create />, api);
    fireEvent.change(screen.getByLabelText('Destination URL'), { target: { value: 'example.com/page' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByText('must be an absolute http or https URL');
    expect(writes(sent)).toEqual([]);
  });

  test('names the reserved word a slug may not be', async () => {
    renderWithApp(<Create />, api);
    fireEvent.change(screen.getByLabelText('Destination URL'), { target: { value: 'https://example.com/' } });
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'Login' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await screen.findByText(/"Login" is a reserved word/);
  });

  test('creates with the smart fields set in it', async () => {
    const { sent } = renderWithApp(<Create />, api);
    fireEvent.change(screen.getByLabelText('Destination URL'), { target: { value: 'https://example.com/' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    fireEvent.change(screen.getByLabelText('Rule 1: countries'), { target: { value: 'de, at' } });
    fireEvent.change(screen.getByLabelText('Rule 1: destination URL'), { target: { value: 'https://de.example.com/' } });
    fireEvent.change(screen.getByLabelText('iOS link'), { target: { value: 'myapp://open/42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(writes(sent)).toHaveLength(1));
    expect(writes(sent)[0].body).toEqual({
      url: 'https://example.com/', ios: 'myapp://open/42', rules: [{ when: { country: ['de', 'at'] }, url: 'https://de.example.com/' }],
    });
  });

  test('saving sends only what changed: untouched rules and preview are not in the body', async () => {
    const { sent } = renderWithApp(<Edit />, api);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Launch day' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(sent)).toHaveLength(1));
    expect(writes(sent)[0]).toMatchObject({ method: 'PATCH', body: { title: 'Launch day' } });
    expect(Object.keys(writes(sent)[0].body as object)).toEqual(['title']);
  });

  test('an edited rule list is sent whole, one value as itself and several as a list', async () => {
    const { sent } = renderWithApp(<Edit />, api);
    fireEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    fireEvent.click(screen.getAllByRole('checkbox', { name: 'tablet' })[1]);
    fireEvent.change(screen.getByLabelText('Rule 2: destination URL'), { target: { value: 'https://example.com/tablet' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(sent)).toHaveLength(1));
    expect(writes(sent)[0].body).toEqual({
      rules: [{ when: { country: 'DE', os: ['iOS', 'Android'] }, url: 'https://de.example.com/' }, { when: { device: 'tablet' }, url: 'https://example.com/tablet' }],
    });
  });

  test('variants whose weights do not sum to 100 are refused before sending, at the list', async () => {
    const { sent } = renderWithApp(<Edit />, api);
    fireEvent.click(screen.getByRole('button', { name: 'Split between variants' }));
    fireEvent.change(screen.getByLabelText('Variant 1: URL'), { target: { value: 'https://a.example.com/' } });
    fireEvent.change(screen.getByLabelText('Variant 2: URL'), { target: { value: 'https://b.example.com/' } });
    fireEvent.change(screen.getByLabelText('Variant 2: weight (%)'), { target: { value: '40' } });
    expect(screen.getByText('Weights sum to 90, not 100.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Variants: weights must sum to 100');
    expect(writes(sent)).toEqual([]);
  });

  test('the social cards follow the preview fields as they are typed', async () => {
    renderWithApp(<Edit />, api);
    fireEvent.change(screen.getByLabelText('Preview title'), { target: { value: 'Big news' } });
    fireEvent.change(screen.getByLabelText('Preview image URL'), { target: { value: 'https://cdn.example.com/c.png' } });
    for (const site of ['Facebook', 'X', 'LinkedIn', 'Slack']) {
      expect(screen.getByRole('img', { name: `${site} card image from cdn.example.com` })).toBeTruthy();
    }
    expect(screen.getAllByText('Big news')).toHaveLength(4);
  });
});
