// VALIDATION_ERROR issues in words people use, from the one mapping in shared/; a reserved slug
// names the word; a taken slug names a free one in the message, not only in details.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HopApiError } from '@hop/shared/client';
import { team, unique } from '../helpers/api.js';

async function refusal(p: Promise<unknown>): Promise<HopApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HopApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

test('issues read as words: empty, too long, at least one, unknown field, required', async () => {
  const t = await team();
  const ws = { workspaceId: t.workspaceId };
  const res = await t.api.raw('POST', `/v1/workspaces/${t.workspaceId}/links`, { body: { url: 'https://example.com', title: 'x'.repeat(257), slug: '', extra: 1 } });
  assert.equal(res.status, 400);
  const issues = (res.body as { error: { details: { issues: { path: string; message: string }[] } } }).error.details.issues;
  const byPath: Record<string, string> = {};
  for (const i of issues) byPath[i.path] ??= i.message;
  assert.equal(byPath.title, 'must be at most 256 characters');
  assert.equal(byPath.slug, "can't be empty");
  assert.equal(byPath[''] ?? byPath.body, 'has an unknown field: extra');
  const key = await refusal(t.api.call('createApiKey', { params: ws, body: { name: 'k', scopes: [] } }));
  assert.equal(key.message, 'scopes: choose at least one');
  const missing = await refusal(t.api.call('createLink', { params: ws, body: {} as never }));
  assert.equal(missing.message, 'url: is required');
  for (const text of [key.message, missing.message, ...issues.map((i) => i.message)]) assert.doesNotMatch(text, /Too (small|big)|expected|Invalid input/);
});

test('a reserved slug names the word; a taken slug suggests a free one in the message', async () => {
  const t = await team();
  const ws = { workspaceId: t.workspaceId };
  const reserved = await refusal(t.api.call('createLink', { params: ws, body: { url: 'https://example.com', slug: 'Admin' } }));
  assert.equal(reserved.message, 'slug: "Admin" is a reserved word (the server\'s own paths use it)');
  const slug = unique('dup-');
  await t.api.call('createLink', { params: ws, body: { url: 'https://example.com', slug } });
  const taken = await refusal(t.api.call('createLink', { params: ws, body: { url: 'https://example.com', slug } }));
  assert.equal(taken.code, 'SLUG_ALREADY_EXISTS');
  assert.equal(taken.details.suggestion, `${slug}-2`);
  assert.match(taken.message, new RegExp(`^the slug "${slug}" is taken on \\S+; "${slug}-2" is free$`));
  const wsTaken = await refusal(t.api.call('createWorkspace', { body: { name: 'Again', slug: t.slug } }));
  assert.match(wsTaken.message, new RegExp(`^the workspace slug "${t.slug}" is taken; "${t.slug}-\\w+" is free$`));
});
