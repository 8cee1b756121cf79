// Logos on QR codes, against a server of our own started with HOP_ALLOW_PRIVATE_URLS=1 so it may
// fetch logos from a loopback HTTP server (the shared test server refuses them: see qr.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { HopApiError, createHopClient } from '@hop/shared/client';
import type { QrCode } from '@hop/shared';
import { startServer } from '../helpers/start-server.mjs';
import { unique } from '../helpers/api.js';
import { decode, zbarDecode } from '../helpers/qr-decode.js';

const ADMIN = 'qr-logo-admin-token-0123456789';
let server: Awaited<ReturnType<typeof startServer>>;
let logos: Server;
let logoBase: string;
let dataDir: string;
let api: ReturnType<typeof createHopClient>;
let linkId: string;

before(async () => {
  const logo = await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="140" fill="#e63946"/><rect x="100" y="100" width="100" height="100" fill="#1d3557"/></svg>') }])
    .png()
    .toBuffer();
  const wide = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#2a9d8f' } }).png().toBuffer();
  const noise = await sharp(Buffer.from(Array.from({ length: 900 * 900 * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: 900, height: 900, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  assert.ok(noise.length > 1024 * 1024);
  const jpeg = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#ff0000' } }).jpeg().toBuffer();
  logos = createServer((req, res) => {
    const send = (type: string, body: Buffer | string) => res.writeHead(200, { 'content-type': type }).end(body);
    switch (req.url) {
      case '/logo.png': return send('image/png', logo);
      case '/wide.png': return send('image/png', wide);
      case '/big.png': return send('image/png', noise);
      case '/chunked-big.png': {
        // No Content-Length: the limit must hold while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(noise.subarray(0, 600_000));
        return res.end(noise.subarray(600_000));
      }
      case '/photo.png': return send('image/png', jpeg);
      case '/text.png': return send('image/png', 'this is not an image');
      case '/truncated.png': return send('image/png', logo.subarray(0, 60));
      case '/redirect.png': return res.writeHead(302, { location: '/logo.png' }).end();
      case '/slow.png': return void setTimeout(() => send('image/png', logo), 6000);
      default: return res.writeHead(404).end('no');
    }
  });
  await new Promise<void>((r) => logos.listen(0, '127.0.0.1', r));
  logoBase = `http://127.0.0.1:${(logos.address() as AddressInfo).port}`;

  dataDir = mkdtempSync(join(tmpdir(), 'hop-qr-logo-'));
  server = await startServer({ dataDir, env: { HOP_ALLOW_PRIVATE_URLS: '1', HOP_ADMIN_TOKEN: ADMIN, HOP_CLICK_FLUSH_MS: '100' } });
  const anon = createHopClient({ baseUrl: server.url, validateResponses: true });
  const { data: auth } = await anon.call('signup', { body: { email: `${unique('logo')}@example.test`, password: 'correct horse battery', name: 'Logo' } });
  api = createHopClient({ baseUrl: server.url, token: auth.token, validateResponses: true });
  const { data: ws } = await api.call('createWorkspace', { body: { name: 'Logos', slug: unique('logos-') } });
  const res = await anon.raw('PATCH', `/v1/admin/workspaces/${ws.id}`, { body: { plan: 'pro' }, headers: { 'x-admin-token': ADMIN } });
  assert.equal(res.status, 200, res.text);
  linkId = (await api.call('createLink', { params: { workspaceId: ws.id }, body: { url: 'https://example.com/with-logo' } })).data.id;
});

after(async () => {
  logos?.closeAllConnections();
  logos?.close();
  if (server) assert.equal(await server.stop(), 0);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function bytesOf(qr: QrCode) {
  const res = await fetch(qr.publicUrl);
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

test('codes with a logo decode in every format, at H by default and at Q', async () => {
  const cases = [
    { format: 'png', size: 1024 },
    { format: 'png', size: 512, logoSize: 30 },
    { format: 'png', size: 400, logoSize: 25, errorCorrection: 'Q', foregroundColor: '#0b3d2e', backgroundColor: '#f0fff0' },
    { format: 'svg', size: 512, logoSize: 25 },
    { format: 'pdf', size: 600, logoSize: 30 },
    { format: 'png', size: 512, logoSize: 5 },
  ] as const;
  for (const body of cases) {
    const { data: qr } = await api.call('createQrCode', { params: { linkId }, body: { ...body, logoUrl: `${logoBase}/logo.png` } });
    assert.equal(qr.logoUrl, `${logoBase}/logo.png`);
    assert.equal(qr.logoSize, 'logoSize' in body ? body.logoSize : 20);
    assert.equal(qr.errorCorrection, 'errorCorrection' in body ? body.errorCorrection : 'H');
    const bytes = await bytesOf(qr);
    if (body.format === 'svg') assert.match(bytes.toString(), /<image [^>]*href="data:image\/png;base64,/);
    assert.equal(await decode(body.format, bytes), qr.scanUrl, `decoding ${JSON.stringify(body)}`);
    if (body.format === 'png') {
      const zbar = zbarDecode(bytes);
      if (zbar !== undefined) assert.equal(zbar, qr.scanUrl, `zbarimg on ${JSON.stringify(body)}`);
      // The logo is really there: its red shows in the middle of the code.
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const mid = (Math.floor(info.height / 2) * info.width + Math.floor(info.width * 0.42)) * 3;
      if (!('logoSize' in body) || body.logoSize >= 20) assert.deepEqual([...data.subarray(mid, mid + 3)], [230, 57, 70]);
    }
  }
  // A logo that is not square is fitted inside its square, not stretched.
  const { data: wide } = await api.call('createQrCode', { params: { linkId }, body: { logoUrl: `${logoBase}/wide.png` } });
  assert.equal(await decode('png', await bytesOf(wide)), wide.scanUrl);
});

test('logos that are not small PNGs served at once are refused with the reason', async () => {
  const cases: [string, RegExp][] = [
    ['/big.png', /larger than 1048576 bytes/],
    ['/chunked-big.png', /larger than 1048576 bytes/],
    ['/photo.png', /not a PNG/],
    ['/text.png', /not a PNG/],
    ['/truncated.png', /not a readable PNG/],
    ['/redirect.png', /redirect/],
    ['/missing.png', /answered 404/],
    ['/slow.png', /within 5 s/],
  ];
  for (const [path, message] of cases) {
    const started = Date.now();
    const err = await api.call('createQrCode', { params: { linkId }, body: { logoUrl: `${logoBase}${path}` } }).then(
      () => assert.fail(`${path} was accepted`),
      (e: HopApiError) => e,
    );
    assert.equal(err.statusCode, 400, path);
    assert.equal(err.code, 'VALIDATION_ERROR', path);
    assert.match(err.message, /^logoUrl: /, path);
    assert.match(err.message, message, path);
    if (path === '/slow.png') assert.ok(Date.now() - started < 5900, 'gave up after 5 s');
  }
  const bad = await api.call('createQrCode', { params: { linkId }, body: { logoUrl: 'http://no-such-host.invalid/logo.png' } }).then(
    () => assert.fail('accepted'),
    (e: HopApiError) => e,
  );
  assert.match(bad.message, /does not resolve/);
});
