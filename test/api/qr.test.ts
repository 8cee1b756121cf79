// QR codes (docs/api.md, QR codes): every format decoded by an independent decoder, styled codes, dynamic
// redirects through /q/{code}, scans as clicks of source qr, bad input, quota and access.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HopApiError } from '@hop/shared/client';
import type { QrCode } from '@hop/shared';
import { API_URL, BROWSER_UA, apiKey, addMember, anonymous, eventually, team, visit, type Team } from '../helpers/api.js';
import { decode, decodePng, zbarDecode } from '../helpers/qr-decode.js';

async function linkOf(t: Team, url = 'https://example.com/landing') {
  return (await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url } })).data;
}

async function download(qr: QrCode) {
  const res = await fetch(qr.publicUrl);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function failure(p: Promise<unknown>): Promise<HopApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HopApiError) return err;
    throw err;
  }
  assert.fail('expected the call to fail');
}

test('a default code is a 512 px PNG at M, publicly downloadable, decoding to /q/{code} which redirects', async () => {
  const t = await team('pro');
  const link = await linkOf(t);
  const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  assert.match(qr.id, /^qr_[0-9A-Za-z]{16,}$/);
  assert.equal(qr.linkId, link.id);
  // {base_url}/v1/qr/{id}/download; the test server's base URL names localhost where the tests use 127.0.0.1.
  const publicUrl = new URL(qr.publicUrl);
  assert.equal(publicUrl.pathname, `/v1/qr/${qr.id}/download`);
  assert.equal(publicUrl.port, new URL(API_URL).port);
  assert.deepEqual(
    { format: qr.format, size: qr.size, ec: qr.errorCorrection, fg: qr.foregroundColor, bg: qr.backgroundColor, logoUrl: qr.logoUrl, logoSize: qr.logoSize },
    { format: 'png', size: 512, ec: 'M', fg: '#000000', bg: '#ffffff', logoUrl: null, logoSize: null },
  );
  const short = new URL(link.shortUrl);
  assert.match(qr.scanUrl, new RegExp(`^${short.protocol}//${short.host}/q/[A-Za-z0-9]{8}$`));

  // Public: no credential at all, the image itself, cacheable for a long time.
  const { res, bytes } = await download(qr);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.match(res.headers.get('cache-control')!, /public.*max-age=31536000.*immutable/);
  assert.equal(res.headers.get('content-disposition'), `inline; filename="${link.slug}.png"`);
  const meta = await (await import('sharp')).default(bytes).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['png', 512, 512]);
  assert.equal(await decodePng(bytes), qr.scanUrl);
  const zbar = zbarDecode(bytes);
  if (zbar !== undefined) assert.equal(zbar, qr.scanUrl);
  // A revalidation answers 304 without the bytes.
  const again = await fetch(qr.publicUrl, { headers: { 'if-none-match': res.headers.get('etag')! } });
  assert.equal(again.status, 304);

  const scan = await visit(qr.scanUrl);
  assert.equal(scan.status, 302);
  assert.equal(scan.headers.get('location'), 'https://example.com/landing');
  assert.equal((await t.api.call('getQrCode', { params: { qrId: qr.id } })).data.id, qr.id);
});

test('every format and error correction, styled, decodes to the same address', async () => {
  const t = await team('pro');
  const link = await linkOf(t);
  const styles = [
    { format: 'png', size: 128, errorCorrection: 'L', foregroundColor: '#1A1A2E', backgroundColor: '#F5F5DC' },
    { format: 'svg', size: 300, errorCorrection: 'Q', foregroundColor: '#003366', backgroundColor: '#ffffff' },
    { format: 'pdf', size: 400, errorCorrection: 'H', foregroundColor: '#5a1e00', backgroundColor: '#fff8e7' },
    { format: 'svg', size: 256 },
    { format: 'pdf' },
    { format: 'png', size: 2048, errorCorrection: 'H' },
  ] as const;
  for (const body of styles) {
    const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body });
    assert.equal(qr.format, body.format);
    if ('foregroundColor' in body) assert.equal(qr.foregroundColor, body.foregroundColor.toLowerCase());
    const { res, bytes } = await download(qr);
    assert.equal(res.status, 200);
    const type = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' }[body.format];
    assert.equal(res.headers.get('content-type')?.split(';')[0], type);
    assert.equal(res.headers.get('content-disposition'), `inline; filename="${link.slug}.${body.format}"`);
    if (body.format === 'pdf') {
      assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
      // Vector: the modules are drawn, not embedded as an image.
      assert.doesNotMatch(bytes.toString('latin1'), /\/Subtype\s*\/Image/);
    }
    if (body.format === 'svg') assert.match(bytes.toString(), /^<\?xml[^>]*>\s*<svg[^>]*width="\d+"/);
    assert.equal(await decode(body.format, bytes), qr.scanUrl, `decoding ${JSON.stringify(body)}`);
  }
  const list = await t.api.call('listQrCodes', { params: { linkId: link.id }, query: { limit: 4 } });
  assert.equal(list.data.length, 4);
  assert.ok(list.pagination.nextCursor);
  const rest = await t.api.call('listQrCodes', { params: { linkId: link.id }, query: { cursor: list.pagination.nextCursor! } });
  assert.equal(rest.data.length, styles.length - 4);
  assert.equal(rest.pagination.nextCursor, null);
  assert.equal(new Set([...list.data, ...rest.data].map((q) => q.id)).size, styles.length);
});

test('a printed code follows the link: new destination, new slug', async () => {
  const t = await team('pro');
  const link = await linkOf(t, 'https://example.com/first');
  const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: { format: 'svg' } });
  const scanUrl = await decode('svg', (await download(qr)).bytes);
  assert.equal(scanUrl, qr.scanUrl);
  assert.equal((await visit(scanUrl!)).headers.get('location'), 'https://example.com/first');

  await t.api.call('updateLinkById', { params: { linkId: link.id }, body: { url: 'https://example.com/second' } });
  const afterUrl = await visit(scanUrl!);
  assert.equal(afterUrl.status, 302);
  assert.equal(afterUrl.headers.get('location'), 'https://example.com/second');

  const { data: moved } = await t.api.call('updateLinkById', { params: { linkId: link.id }, body: { slug: `moved-${link.slug}`, url: 'https://example.com/third' } });
  assert.equal((await visit(link.shortUrl)).status, 404);
  assert.equal((await visit(moved.shortUrl)).headers.get('location'), 'https://example.com/third');
  const afterSlug = await visit(scanUrl!);
  assert.equal(afterSlug.status, 302);
  assert.equal(afterSlug.headers.get('location'), 'https://example.com/third');
});

test('scans count as clicks of source qr, with their own analytics by country', async () => {
  const t = await team('pro');
  const link = await linkOf(t);
  const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  const { data: other } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: { format: 'svg' } });
  const scans = [
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8' },
    { ua: BROWSER_UA.desktopChrome, ip: '8.8.8.8' },
    { ua: BROWSER_UA.iphoneSafari, ip: '81.2.69.142' },
    { ua: BROWSER_UA.googlebot, ip: '66.249.66.1' },
  ];
  for (const s of scans) assert.equal((await visit(qr.scanUrl, s)).status, 302);
  assert.equal((await visit(other.scanUrl, { ip: '81.2.69.142' })).status, 302);
  assert.equal((await visit(link.shortUrl, { ip: '8.8.4.4' })).status, 302);
  // HEAD looks without counting.
  assert.equal((await visit(qr.scanUrl, { method: 'HEAD' })).status, 302);

  const params = { workspaceId: t.workspaceId, linkId: link.id };
  await eventually(async () => ((await t.api.call('getLink', { params })).data.clicks === 5 ? true : undefined), 5000, '5 counted clicks');
  const { data } = await t.api.call('getQrAnalytics', { params: { qrId: qr.id } });
  assert.equal(data.totalScans, 3);
  assert.equal(data.uniqueScans, 2);
  assert.deepEqual(data.scansByCountry, [{ country: 'US', scans: 2 }, { country: 'GB', scans: 1 }]);
  assert.equal(data.timeseries.length, 30);
  assert.deepEqual(data.timeseries.at(-1), { date: new Date().toISOString().slice(0, 10), scans: 3, uniqueScans: 2 });
  const week = (await t.api.call('getQrAnalytics', { params: { qrId: qr.id }, query: { days: 7 } })).data;
  assert.equal(week.timeseries.length, 7);
  assert.equal((await t.api.call('getQrAnalytics', { params: { qrId: other.id } })).data.totalScans, 1);
  // The link's own analytics hold every click, scans included.
  assert.equal((await t.api.call('getLinkAnalytics', { params })).data.totalClicks, 5);
  const bad = await failure(t.api.call('getQrAnalytics', { params: { qrId: qr.id }, query: { days: 0 } }));
  assert.equal(bad.statusCode, 400);
});

// A scan of an expired link answers 410 as the link does: test/in-process/expiry.test.ts moves the clock for it.
test('scans obey the link: password', async () => {
  const t = await team('pro');
  const { data: locked } = await t.api.call('createLink', { params: { workspaceId: t.workspaceId }, body: { url: 'https://example.com/secret', password: 'open sesame' } });
  const { data: qr } = await t.api.call('createQrCode', { params: { linkId: locked.id }, body: {} });
  const form = await visit(qr.scanUrl);
  assert.equal(form.status, 200);
  assert.match(await form.text(), /password/i);
  const unlocked = await visit(qr.scanUrl, { method: 'POST', body: 'password=open%20sesame' });
  assert.equal(unlocked.status, 302);
  assert.equal(unlocked.headers.get('location'), 'https://example.com/secret');

});

test('every bad input answers 400 with the reason', async () => {
  const t = await team('pro');
  const link = await linkOf(t);
  const cases: [Record<string, unknown>, RegExp, string?][] = [
    [{ format: 'gif' }, /format/],
    [{ size: 127 }, /size/],
    [{ size: 4097 }, /size/],
    [{ size: 512.5 }, /size/],
    [{ size: '512' }, /size/],
    [{ errorCorrection: 'X' }, /errorCorrection/],
    [{ foregroundColor: 'red' }, /foregroundColor.*#rrggbb/],
    [{ backgroundColor: '#fff' }, /backgroundColor.*#rrggbb/],
    [{ foregroundColor: '#777777', backgroundColor: '#888888' }, /contrast ratio .* under the 3:1/],
    [{ foregroundColor: '#ffffff', backgroundColor: '#000000' }, /darker than backgroundColor/],
    [{ foregroundColor: '#ffff00', backgroundColor: '#ffffff' }, /contrast ratio/],
    [{ logoSize: 10 }, /logoSize: only applies with a logoUrl/],
    [{ logoUrl: 'https://example.com/logo.png', logoSize: 31 }, /logoSize/],
    [{ logoUrl: 'https://example.com/logo.png', logoSize: 0 }, /logoSize/],
    [{ logoUrl: 'https://example.com/logo.png', errorCorrection: 'L' }, /needs Q or H/],
    [{ logoUrl: 'https://example.com/logo.png', errorCorrection: 'M' }, /needs Q or H/],
    [{ logoUrl: 'not a url' }, /logoUrl/],
    [{ colour: '#000000' }, /colour|Unrecognized|unrecognized/],
    [{ logoUrl: 'http://example.com/logo.png' }, /must be an https URL/, 'scheme'],
    [{ logoUrl: 'ftp://example.com/logo.png' }, /must be an https URL/, 'scheme'],
    [{ logoUrl: 'https://127.0.0.1/logo.png' }, /non-public address/, 'private_address'],
    [{ logoUrl: 'https://localhost/logo.png' }, /non-public address/, 'private_address'],
    [{ logoUrl: 'https://[::1]/logo.png' }, /non-public address/, 'private_address'],
    [{ logoUrl: 'https://169.254.169.254/latest/meta-data' }, /metadata|non-public/, 'private_address'],
    [{ logoUrl: 'https://10.0.0.1/logo.png' }, /non-public address/, 'private_address'],
    [{ logoUrl: 'https://user:pw@example.com/logo.png' }, /user name or password/, 'credentials'],
  ];
  for (const [body, message, reason] of cases) {
    const err = await failure(t.api.call('createQrCode', { params: { linkId: link.id }, body: body as never }));
    assert.equal(err.statusCode, 400, JSON.stringify(body));
    assert.match(err.message, message, JSON.stringify(body));
    if (reason) {
      assert.equal(err.code, 'URL_NOT_ALLOWED', JSON.stringify(body));
      assert.equal(err.details.reason, reason);
    } else {
      assert.equal(err.code, 'VALIDATION_ERROR', JSON.stringify(body));
    }
  }
  // Nothing was created by any of them.
  assert.equal((await t.api.call('listQrCodes', { params: { linkId: link.id } })).data.length, 0);
  const badId = await anonymous.raw('GET', '/v1/qr/qr_nope/download');
  assert.equal(badId.status, 400);
});

test('the free plan creates 10 codes an hour; the 11th answers 429 with Retry-After', async () => {
  const t = await team('free');
  const link = await linkOf(t);
  const made: QrCode[] = [];
  for (let i = 0; i < 10; i++) made.push((await t.api.call('createQrCode', { params: { linkId: link.id }, body: { format: 'svg' } })).data);
  // Deleting does not give quota back.
  await t.api.call('deleteQrCode', { params: { qrId: made[0].id } });
  const err = await failure(t.api.call('createQrCode', { params: { linkId: link.id }, body: { format: 'svg' } }));
  assert.equal(err.statusCode, 429);
  assert.equal(err.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(err.details.limit, 10);
  assert.equal(err.details.window, '1h');
  const resetAt = Date.parse(String(err.details.resetAt));
  assert.ok(resetAt > Date.now() + 3500_000 && resetAt <= Date.now() + 3600_000, String(err.details.resetAt));
  const retryAfter = Number(err.headers['retry-after']);
  assert.ok(retryAfter > 3500 && retryAfter <= 3600, String(retryAfter));
  // Codes already made keep working.
  assert.equal((await fetch(made[1].publicUrl)).status, 200);
});

test('deleting a code stops its scans and downloads', async () => {
  const t = await team('pro');
  const link = await linkOf(t);
  const { data: qr } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  assert.equal((await visit(qr.scanUrl)).status, 302);
  assert.equal((await fetch(qr.publicUrl)).status, 200);
  const { data: deleted } = await t.api.call('deleteQrCode', { params: { qrId: qr.id } });
  assert.equal(deleted.id, qr.id);
  assert.equal((await visit(qr.scanUrl)).status, 404);
  const gone = await fetch(qr.publicUrl);
  assert.equal(gone.status, 404);
  assert.equal(((await gone.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  assert.equal((await failure(t.api.call('getQrCode', { params: { qrId: qr.id } }))).statusCode, 404);
  assert.equal((await visit(`${new URL(qr.scanUrl).origin}/q/NoSuchCd`)).status, 404);
  // Deleting the link takes its codes with it.
  const { data: qr2 } = await t.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  await t.api.call('deleteLink', { params: { workspaceId: t.workspaceId, linkId: link.id } });
  assert.equal((await visit(qr2.scanUrl)).status, 404);
  assert.equal((await fetch(qr2.publicUrl)).status, 404);
});

test('another workspace sees 404; scopes and roles apply', async () => {
  const owner = await team('pro');
  const stranger = await team('pro');
  const link = await linkOf(owner);
  const { data: qr } = await owner.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  const calls = [
    () => stranger.api.call('createQrCode', { params: { linkId: link.id }, body: {} }),
    () => stranger.api.call('listQrCodes', { params: { linkId: link.id } }),
    () => stranger.api.call('getQrCode', { params: { qrId: qr.id } }),
    () => stranger.api.call('getQrAnalytics', { params: { qrId: qr.id } }),
    () => stranger.api.call('deleteQrCode', { params: { qrId: qr.id } }),
  ];
  for (const c of calls) {
    const err = await failure(c());
    assert.equal(err.statusCode, 404);
    assert.equal(err.code, 'NOT_FOUND');
  }
  const noAuth = await failure(anonymous.call('getQrCode', { params: { qrId: qr.id } }));
  assert.equal(noAuth.statusCode, 401);

  const reader = await apiKey(owner, ['links:read']);
  assert.equal((await reader.api.call('getQrCode', { params: { qrId: qr.id } })).data.id, qr.id);
  const scope = await failure(reader.api.call('createQrCode', { params: { linkId: link.id }, body: {} }));
  assert.equal(scope.code, 'INSUFFICIENT_SCOPE');
  assert.equal((await failure(reader.api.call('getQrAnalytics', { params: { qrId: qr.id } }))).code, 'INSUFFICIENT_SCOPE');
  assert.equal((await failure(reader.api.call('deleteQrCode', { params: { qrId: qr.id } }))).code, 'INSUFFICIENT_SCOPE');
  // A key of another workspace cannot reach this one's codes either.
  const foreignKey = await apiKey(stranger, ['links:read', 'links:write']);
  assert.equal((await failure(foreignKey.api.call('getQrCode', { params: { qrId: qr.id } }))).statusCode, 404);

  const viewer = await addMember(owner, 'viewer');
  assert.equal((await failure(viewer.api.call('createQrCode', { params: { linkId: link.id }, body: {} }))).code, 'FORBIDDEN');
  const member = await addMember(owner, 'member');
  const { data: mine } = await member.api.call('createQrCode', { params: { linkId: link.id }, body: {} });
  assert.equal((await failure(member.api.call('deleteQrCode', { params: { qrId: qr.id } }))).code, 'FORBIDDEN');
  assert.equal((await member.api.call('deleteQrCode', { params: { qrId: mine.id } })).data.id, mine.id);
});
