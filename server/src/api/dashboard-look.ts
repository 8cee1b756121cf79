import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build -w web` writes the dashboard, from server/{src,dist}/api/. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

const ICON_TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png' };

/**
 * The dashboard's stylesheet and icon as a `<head>` fragment, for the server's own pages (OAuth
 * sign-in, sign-up, consent and device) to share its look. They are read from the built app once
 * and inlined: these pages load nothing (PAGE_CSP), and they work wherever the dashboard is
 * hosted. Empty when the dashboard is not built; the pages then keep their plain fallback style.
 */
export function readDashboardLook(dist: string = DASHBOARD_DIST): string {
  const indexFile = join(dist, 'index.html');
  if (!existsSync(indexFile)) return '';
  const html = readFileSync(indexFile, 'utf8');
  const local = (href: string) => join(dist, href.replace(/^\.?\//, ''));
  const styles = [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)]
    .map((m) => readFileSync(local(m[1]), 'utf8'));
  if (!styles.length) return '';
  const iconHref = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
  let icon = '';
  if (iconHref?.startsWith('data:')) icon = iconHref;
  else if (iconHref && existsSync(local(iconHref))) {
    const type = ICON_TYPES[iconHref.slice(iconHref.lastIndexOf('.'))] ?? 'image/png';
    icon = `data:${type};base64,${readFileSync(local(iconHref)).toString('base64')}`;
  }
  return `${icon ? `<link rel="icon" href="${icon.replace(/"/g, '%22')}">\n` : ''}<style>${styles.join('\n')}</style>`;
}

let cached: string | undefined;

/** readDashboardLook, read on first use (the built app does not change while the server runs). */
export function dashboardLook(): string {
  cached ??= readDashboardLook();
  return cached;
}
