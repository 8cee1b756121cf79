import { describe, expect, test } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithApp, type SentRequest } from '../test/render.js';
import WorkspacesPage, { slugFromName } from './workspaces.js';

const answer = (req: SentRequest) => {
  if (req.method === 'GET') return { status: 200, body: { data: [], pagination: { nextCursor: null } } };
  return { status: 400, body: { error: { code: 'SLUG_ALREADY_EXISTS', message: 'the workspace slug "acme-cafe" is taken; "acme-cafe-2" is free', details: { field: 'slug', value: 'acme-cafe', suggestion: 'acme-cafe-2' } } } };
};

describe('the create-workspace form', () => {
  test('slugFromName lower-cases, drops accents and joins words with dashes', () => {
    expect(slugFromName('  Acme Café, Inc. ')).toBe('acme-cafe-inc');
    expect(slugFromName('x'.repeat(60))).toHaveLength(48);
  });

  test('fills the slug from the name until the slug is typed in', async () => {
    renderWithApp(<WorkspacesPage />, answer);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme Café' } });
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('acme-cafe');
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'acme' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme Cafe Ltd' } });
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('acme');
  });

  test('a taken slug offers the free one the server names', async () => {
    const { sent } = renderWithApp(<WorkspacesPage />, answer);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme Café' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create workspace' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use “acme-cafe-2”' }));
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('acme-cafe-2');
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1));
  });
});
