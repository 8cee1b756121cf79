// Every stored field of the shared table of link fields is a column of `links` with a type its
// kind can hold, and a link created with every field set reads back with each of them: the
// recipe of CONTRIBUTING.md ("Add a link field") followed for the fields there are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STORED_LINK_FIELDS, type LinkFieldKind } from '@hop/shared';
import { inProcessApi } from '../helpers/in-process.js';

const TYPES: Record<LinkFieldKind, string[]> = {
  text: ['text'], url: ['text'], integer: ['integer', 'bigint'], time: ['timestamp with time zone'], tags: ['ARRAY'], json: ['jsonb'],
};

test('each stored link field is a column of links of a type its kind can hold', async () => {
  const api = await inProcessApi();
  try {
    const rows = await api.services.db.query<{ column_name: string; data_type: string }>(
      "select column_name, data_type from information_schema.columns where table_name = 'links'",
    );
    const types = new Map(rows.map((r) => [r.column_name, r.data_type]));
    for (const f of STORED_LINK_FIELDS) assert.ok(TYPES[f.kind].includes(types.get(f.column) ?? 'missing'), `${f.name}: column ${f.column} is ${types.get(f.column)}`);
  } finally {
    await api.close();
  }
});

test('a link made with every field set returns each one as it was sent', async () => {
  const api = await inProcessApi();
  try {
    const { body: signup } = await api.request('POST', '/v1/auth/signup', { body: { email: 'fields@example.test', password: 'correct horse battery', name: 'F' } });
    const token = signup.data.token;
    const { body: ws } = await api.request('POST', '/v1/workspaces', { token, body: { name: 'Fields', slug: 'fields' } });
    const sent = {
      url: 'https://example.com/every', slug: 'every-field', title: 'Every field', description: 'All of them', tags: ['a', 'b'],
      expiresAt: new Date(api.clock.now().getTime() + 86_400_000).toISOString(), expiredUrl: 'https://example.com/gone', maxClicks: 5,
      rules: [{ when: { country: ['DE'] }, url: 'https://example.com/de' }],
      variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }],
      ios: 'https://example.com/ios-app', android: 'myapp://open/every',
      preview: { title: 'P', description: 'D', image: 'https://example.com/i.png' },
      importedClicks: 1234, originalCreatedAt: '2019-04-01T12:00:00.000Z',
    };
    const created = await api.request('POST', `/v1/workspaces/${ws.data.id}/links`, { token, body: sent });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (const f of STORED_LINK_FIELDS) {
      if (f.name === 'domain') continue;
      assert.deepEqual(created.body.data[f.name], sent[f.name as keyof typeof sent], f.name);
    }
    const got = await api.request('GET', `/v1/workspaces/${ws.data.id}/links/${created.body.data.id}`, { token });
    assert.deepEqual(got.body.data, created.body.data);
  } finally {
    await api.close();
  }
});
