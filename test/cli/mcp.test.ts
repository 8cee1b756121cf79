// `hop mcp` as an MCP client meets it: the SDK's own Client launches the real `hop mcp` over
// stdio (StdioClientTransport), lists its tools and calls each against the run's server.
import { before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CreateLinkBodySchema, ResolveLinkQuerySchema, type Analytics, type Link, type LinkResolution, type QrCode } from '@hop/shared';
import { API_URL, apiKey, eventually, visit, type Team } from '../helpers/api.js';
import { CLI_CLIENT, oauthTokens } from '../helpers/oauth.js';
import { HOP_BIN, hopEnv, hopSession, loggedInTeam } from './run-hop.js';

const ALL_TOOLS = [
  'create_link', 'get_link', 'update_link', 'list_links', 'delete_link', 'link_analytics', 'workspace_analytics', 'create_qr', 'resolve_link',
];
const READING_TOOLS = ['get_link', 'list_links', 'link_analytics', 'workspace_analytics', 'resolve_link'];

/** The SDK's client connected to `hop mcp <args>` run with the settings in `configDir`, closed when the test ends. */
async function connect(ctx: TestContext, configDir: string, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HOP_BIN, 'mcp', ...args],
    env: hopEnv({ HOP_CONFIG_DIR: configDir }),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hop-test', version: '1.0.0' });
  await client.connect(transport);
  ctx.after(() => client.close());
  return client;
}

/** Calls a tool that must succeed; its structured content, which the client checked against the tool's output schema. */
async function call<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.ok(!res.isError, `${name} failed: ${JSON.stringify(res.content)}`);
  assert.deepEqual(JSON.parse((res.content[0] as { text: string }).text), res.structuredContent, 'the text is the structured content');
  return res.structuredContent as T;
}

/** Calls a tool that must fail; its error text. */
async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(res.isError, true, `${name} should have failed: ${JSON.stringify(res.content)}`);
  return (res.content[0] as { text: string }).text;
}

let t: Team;
let hop: ReturnType<typeof hopSession>;
before(async () => {
  ({ t, hop } = await loggedInTeam());
});

test('hop mcp lists the nine tools, marks those that change anything, and takes input schemas from the contracts', async (ctx) => {
  const client = await connect(ctx, hop.configDir);
  assert.equal(client.getServerVersion()?.name, 'hop');
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ALL_TOOLS);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of READING_TOOLS) assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, name);
  const hints = (name: string) => {
    const a = byName.get(name)?.annotations ?? {};
    return [a.readOnlyHint, a.destructiveHint, a.idempotentHint];
  };
  assert.deepEqual(hints('create_link'), [false, false, false]);
  assert.deepEqual(hints('create_qr'), [false, false, false]);
  assert.deepEqual(hints('update_link'), [false, true, true]);
  assert.deepEqual(hints('delete_link'), [false, true, true]);
  for (const tool of tools) {
    assert.ok(tool.description && tool.title, `${tool.name} is described`);
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares its output`);
  }
  const asJson = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-7', io: 'input' });
  assert.deepEqual(byName.get('create_link')?.inputSchema, asJson(CreateLinkBodySchema));
  const resolve = byName.get('resolve_link')?.inputSchema as { properties: Record<string, unknown>; required: string[] };
  assert.deepEqual(resolve.properties.country, (asJson(ResolveLinkQuerySchema) as { properties: Record<string, unknown> }).properties.country);
  assert.deepEqual(resolve.required, ['link']);
});

test('hop mcp: every tool against the server, with the CLI\'s login and default workspace', async (ctx) => {
  const client = await connect(ctx, hop.configDir);
  const slug = `mcp-${Date.now().toString(36)}`;
  const created = await call<Link>(client, 'create_link', { url: 'https://example.com/mcp', slug, tags: ['Agents'] });
  assert.deepEqual([created.slug, created.url, created.tags], [slug, 'https://example.com/mcp', ['agents']]);
  const stored = (await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: created.id } })).data;
  assert.equal(stored.shortUrl, created.shortUrl, 'made in the CLI\'s default workspace');

  assert.equal((await call<Link>(client, 'get_link', { link: slug })).id, created.id, 'a slug names the link');
  const updated = await call<Link>(client, 'update_link', { link: created.id, changes: { title: 'Launch', rules: [{ when: { country: ['DE'] }, url: 'https://example.com/de' }] } });
  assert.equal(updated.title, 'Launch');
  const page = await call<{ links: Link[]; nextCursor: string | null }>(client, 'list_links', { q: slug, limit: 5 });
  assert.deepEqual(page.links.map((l) => l.id), [created.id]);
  assert.equal(page.nextCursor, null);

  const german = await call<LinkResolution>(client, 'resolve_link', { link: slug, country: 'DE' });
  assert.deepEqual([german.url, german.target], ['https://example.com/de', 'rule:0']);
  const other = await call<LinkResolution>(client, 'resolve_link', { link: slug, country: 'FR' });
  assert.deepEqual([other.url, other.target], ['https://example.com/mcp', 'default']);

  const qr = await call<QrCode>(client, 'create_qr', { link: slug, format: 'svg', size: 256 });
  assert.deepEqual([qr.linkId, qr.format, qr.size], [created.id, 'svg', 256]);
  const image = await fetch(qr.publicUrl);
  assert.equal(image.status, 200);
  assert.match(await image.text(), /<svg/);

  await visit(created.shortUrl);
  const clicks = await eventually(async () => {
    const a = await call<Analytics>(client, 'link_analytics', { link: slug, days: 7 });
    return a.totalClicks === 1 ? a : undefined;
  }, 20_000, 'the visit in the link\'s analytics');
  assert.equal(clicks.timeseries?.length, 7);
  const workspace = await call<Analytics>(client, 'workspace_analytics', { groupBy: 'country' });
  assert.equal(workspace.totalClicks, 1);
  assert.deepEqual(workspace.topLinks?.map((l) => l.linkId), [created.id]);

  const deleted = await call<Link>(client, 'delete_link', { link: created.id });
  assert.equal(deleted.id, created.id);
  assert.match(await refusal(client, 'get_link', { link: created.id }), /\(NOT_FOUND\)$/);
  assert.match(await refusal(client, 'get_link', { link: slug }), /no link with slug/);
});

test('hop mcp: bad input is a tool error with the reason, from the schema or the server', async (ctx) => {
  const client = await connect(ctx, hop.configDir);
  assert.match(await refusal(client, 'create_link', { url: 'ftp://example.com/x' }), /Invalid arguments for tool create_link: must be an absolute http or https URL at url/);
  assert.match(await refusal(client, 'update_link', { link: 'nope', changes: {} }), /name at least one field to change/);
  assert.match(await refusal(client, 'link_analytics', { link: 'x', days: 7, start: '2026-01-01' }), /either days or start\/end/);
  const link = await call<Link>(client, 'create_link', { url: 'https://example.com/bad-qr' });
  assert.match(await refusal(client, 'create_qr', { link: link.id, foregroundColor: '#777777', backgroundColor: '#888888' }), /contrast ratio .*\(VALIDATION_ERROR\)/);
});

test('hop mcp --read-only offers only the reading tools and refuses the others', async (ctx) => {
  const link = (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/read-only' } })).data;
  const client = await connect(ctx, hop.configDir, ['--read-only']);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), READING_TOOLS);
  assert.match(await refusal(client, 'delete_link', { link: link.id }), /delete_link not found/);
  assert.equal((await call<Link>(client, 'get_link', { link: link.id })).id, link.id);
  await t.api.call('getLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
});

test('hop mcp with a key of links:read: reading works, the rest is refused naming the scope', async (ctx) => {
  const key = await apiKey(t, ['links:read']);
  const keyHop = hopSession();
  await keyHop.login(key.key);
  const client = await connect(ctx, keyHop.configDir);
  assert.ok(Array.isArray((await call<{ links: Link[] }>(client, 'list_links', {})).links));
  assert.match(await refusal(client, 'create_link', { url: 'https://example.com/no-scope' }), /links:write.*\(INSUFFICIENT_SCOPE\)$/);
  assert.match(await refusal(client, 'workspace_analytics', {}), /analytics:read.*\(INSUFFICIENT_SCOPE\)$/);
  const links = await t.api.call('listLinks', { params: { workspaceId: t.workspaceId }, query: { q: 'no-scope' } });
  assert.equal(links.data.length, 0, 'nothing was created');
});

test('hop mcp keeps stdout to the protocol, ends when stdin closes, and without a login exits 4 at once', async () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const res = await hop.run(['mcp'], { input: `${JSON.stringify(initialize)}\n` });
  assert.equal(res.code, 0, res.stderr);
  const lines = res.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: { serverInfo: { name: string } } });
  assert.deepEqual(lines.map((l) => [l.id, l.result.serverInfo.name]), [[1, 'hop']]);
  const anonymous = await hopSession().run(['mcp']);
  assert.equal(anonymous.code, 4);
  assert.match(anonymous.stderr, /not logged in/);
  assert.equal(anonymous.stdout, '');
});

test('every registration docs/agents.md shows starts a server that lists its tools', async (ctx) => {
  const page = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
  const argLists = new Set<string>();
  for (const [, block] of page.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block!) as { mcpServers?: Record<string, { command: string; args: string[] }>; servers?: Record<string, { command: string; args: string[] }> };
    const servers = Object.values(config.mcpServers ?? config.servers ?? {});
    assert.equal(servers.length, 1, block);
    for (const server of servers) {
      assert.match(server.command, /(^|\/)hop$/);
      argLists.add(JSON.stringify(server.args));
    }
  }
  for (const [, args] of page.matchAll(/^claude mcp add .* -- hop (.+)$/gm)) argLists.add(JSON.stringify(args!.split(' ')));
  assert.deepEqual([...argLists].sort(), ['["mcp","--read-only"]', '["mcp"]']);
  for (const args of [...argLists].map((a) => JSON.parse(a) as string[])) {
    const { tools } = await (await connect(ctx, hop.configDir, args.slice(1))).listTools();
    assert.deepEqual(tools.map((tool) => tool.name), args.includes('--read-only') ? READING_TOOLS : ALL_TOOLS);
  }
});

test('hop mcp reads the stored login before each call: refreshes it once when due, takes up another hop\'s refresh', async (ctx) => {
  const tokens = await oauthTokens(t, t.workspaceId);
  const session = hopSession();
  const file = join(session.configDir, 'config.json');
  type Stored = { credential: string; oauth: { expiresAt: string } };
  const stored = () => JSON.parse(readFileSync(file, 'utf8')) as Stored;
  const store = (settings: Stored) => writeFileSync(file, JSON.stringify(settings), { mode: 0o600 });
  // The CLI refreshes an access token a minute before the expiry it stored: a past one is due.
  const due = () => store({ ...stored(), oauth: { ...stored().oauth, expiresAt: new Date(Date.now() - 1000).toISOString() } });
  store({
    apiUrl: API_URL, credential: tokens.access_token, workspace: t.workspaceId, workspaceSlug: t.slug,
    oauth: { clientId: CLI_CLIENT, refreshToken: tokens.refresh_token, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), scopes: tokens.scope.split(' '), workspaceId: t.workspaceId },
  } as Stored);
  const client = await connect(ctx, session.configDir);
  await call(client, 'list_links', { limit: 1 });
  assert.equal(stored().credential, tokens.access_token, 'not due: not refreshed');

  // Another hop refreshes the login, rotating the refresh token the server read at its start.
  due();
  const whoami = await session.run(['whoami']);
  assert.equal(whoami.code, 0, whoami.stderr);
  const second = stored();
  assert.notEqual(second.credential, tokens.access_token);
  await call(client, 'list_links', { limit: 1 });
  assert.equal(stored().credential, second.credential, 'the server used the new login, not the old refresh token');

  // Due again: two calls at once refresh it once; a second refresh would reuse the rotated token and end the login.
  due();
  const [a, b] = await Promise.all([call(client, 'list_links', { limit: 1 }), call(client, 'list_links', { limit: 1 })]);
  assert.deepEqual(a, b);
  const third = stored();
  assert.notEqual(third.credential, second.credential, 'refreshed by the server');
  assert.ok(Date.parse(third.oauth.expiresAt) > Date.now() + 30 * 60_000, third.oauth.expiresAt);
  await call(client, 'create_link', { url: 'https://example.com/refreshed' });
});
