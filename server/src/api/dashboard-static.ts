import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { dashboardPageAt } from '@hop/shared/dashboard-paths';
import { sendError } from './plugins/error-handler.js';
import { DASHBOARD_CSP, secureHtmlReply } from './security-headers.js';
import { DASHBOARD_DIST } from './dashboard-look.js';


const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

interface Asset { body: Buffer; gzip: Buffer | null; br: Buffer | null; type: string }

/** The build's brotli copy of an asset (`name.br`, web/vite.config.ts): a tenth smaller than gzip's. */
const BROTLI = '.br';

function loadAssets(dist: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const dir = join(dist, 'assets');
  if (!existsSync(dir)) return assets;
  const names = new Set(readdirSync(dir));
  for (const name of names) {
    if (name.endsWith(BROTLI)) continue;
    const body = readFileSync(join(dir, name));
    // gzip at start, for clients without brotli: the files are few, small and never change while
    // the server runs. Brotli's best level is too slow for a start, so the build writes it.
    const gzip = /\.(js|css|svg|json)$/.test(name) ? gzipSync(body, { level: 9 }) : null;
    const br = names.has(name + BROTLI) ? readFileSync(join(dir, name + BROTLI)) : null;
    assets.set(name, { body, gzip, br, type: TYPES[extname(name)] ?? 'application/octet-stream' });
  }
  return assets;
}

/** The smallest encoding of the asset that the request accepts. */
function encodingOf(asset: Asset, acceptEncoding: string): { name: 'br' | 'gzip'; body: Buffer } | null {
  if (asset.br && /\bbr\b/.test(acceptEncoding)) return { name: 'br', body: asset.br };
  if (asset.gzip && /\bgzip\b/.test(acceptEncoding)) return { name: 'gzip', body: asset.gzip };
  return null;
}

/**
 * The app's HTML for each page: with `<link rel="modulepreload">` for the page's own chunks (the
 * build lists them in page-chunks.json, web/vite.config.ts), so the browser fetches them with the
 * first load rather than once the app's script has run and asked for them.
 */
function pageHtml(dist: string, html: string): (path: string) => string {
  const file = join(dist, 'page-chunks.json');
  const chunks: Record<string, string[]> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const byPage = new Map<string, string>();
  return (path) => {
    const page = dashboardPageAt(path);
    const files = page ? chunks[page] : undefined;
    if (!page || !files?.length) return html;
    let out = byPage.get(page);
    if (out === undefined) {
      const links = files.map((f) => `    <link rel="modulepreload" crossorigin href="./${f}">\n`).join('');
      out = html.replace('</head>', `${links}  </head>`);
      byPage.set(page, out);
    }
    return out;
  };
}

/**
 * Serves the built single-page app under `mountPath` (the path of HOP_DASHBOARD_URL): hashed
 * assets from memory with a year's immutable cache, and the app's HTML (never cached, so a new
 * release is picked up) for every other path below it, which the app routes itself.
 */
export async function dashboardStatic(app: FastifyInstance, opts: { mountPath: string; distDir?: string }) {
  const dist = opts.distDir ?? DASHBOARD_DIST;
  const mount = opts.mountPath.replace(/\/+$/, '');
  const indexFile = join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (!built) app.log.warn(`dashboard not built (${indexFile} is missing): run npm run build`);
  // Relative asset URLs in the built HTML resolve against the mount path, wherever it is.
  const html = built ? readFileSync(indexFile, 'utf8').replace('<head>', `<head>\n    <base href="${mount}/">`) : '';
  const htmlFor = pageHtml(dist, html);
  const assets = loadAssets(dist);

  /** The app's HTML for `path`, below the mount. */
  const sendApp = (reply: FastifyReply, path: string) => {
    // Same-origin referrers: the app's own API calls may say which page made them; other sites learn nothing.
    reply.header('referrer-policy', 'same-origin');
    secureHtmlReply(reply, DASHBOARD_CSP);
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8');
    if (!built) return reply.code(503).send('<!doctype html><title>Hop</title><main><h1>The dashboard is not built</h1><p>Run <code>npm run build</code>.</p></main>');
    return reply.send(htmlFor(path));
  };

  app.get(mount || '/', { schema: { hide: true } }, async (_req, reply) => sendApp(reply, '/'));
  app.get(`${mount}/*`, { schema: { hide: true } }, async (req, reply) => {
    const rest = (req.params as { '*': string })['*'];
    if (!rest.startsWith('assets/')) return sendApp(reply, `/${rest}`);
    const asset = assets.get(rest.slice('assets/'.length));
    if (!asset) return sendError(reply, 'NOT_FOUND', 'no such dashboard asset', { resource: 'asset' });
    const encoded = encodingOf(asset, String(req.headers['accept-encoding'] ?? ''));
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('vary', 'accept-encoding')
      .type(asset.type);
    if (encoded) reply.header('content-encoding', encoded.name);
    return reply.send(encoded ? encoded.body : asset.body);
  });
}
