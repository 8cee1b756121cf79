import type { LinkPreview } from '@hop/shared';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * What a link-preview crawler gets instead of the redirect: Open Graph and Twitter Card tags, every
 * value escaped (a title is the link owner's text, not markup). No refresh and no link to the
 * destination: the card is what the owner chose to show.
 */
export function previewPage(preview: LinkPreview, shortUrl: string): string {
  const meta: string[] = [];
  const tag = (attr: 'property' | 'name', key: string, value: string | null | undefined) => {
    if (value) meta.push(`<meta ${attr}="${key}" content="${escapeHtml(value)}">`);
  };
  tag('property', 'og:type', 'website');
  tag('property', 'og:url', shortUrl);
  tag('property', 'og:title', preview.title);
  tag('property', 'og:description', preview.description);
  tag('property', 'og:image', preview.image);
  tag('name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary');
  tag('name', 'twitter:title', preview.title);
  tag('name', 'twitter:description', preview.description);
  tag('name', 'twitter:image', preview.image);
  if (preview.description) meta.push(`<meta name="description" content="${escapeHtml(preview.description)}">`);
  const title = escapeHtml(preview.title ?? shortUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
${meta.join('\n')}
</head>
<body>
<h1>${title}</h1>
${preview.description ? `<p>${escapeHtml(preview.description)}</p>\n` : ''}</body>
</html>`;
}
