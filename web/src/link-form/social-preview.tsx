import type { PreviewRow } from './body.js';

const SITES = ['Facebook', 'X', 'LinkedIn', 'Slack'] as const;
type Site = (typeof SITES)[number];

/** The image's place in a card. The dashboard loads no image of another origin, so it is named, not shown. */
function ImageBox({ image, site }: { image: string; site: Site }) {
  let where = image;
  try { where = new URL(image).host; } catch { /* shown as typed */ }
  return <div className={`card-image card-image-${site.toLowerCase()}`} role="img" aria-label={`${site} card image from ${where}`}><span>Image from {where}</span></div>;
}

/** One site's card, laid out as that site shows a link with Open Graph or Twitter Card tags. */
function Card({ site, p, host }: { site: Site; p: PreviewRow; host: string }) {
  const title = p.title || host;
  switch (site) {
    case 'Facebook':
      return (
        <div className="social social-facebook">
          {p.image ? <ImageBox image={p.image} site={site} /> : null}
          <div className="social-body">
            <div className="social-host">{host.toUpperCase()}</div>
            <div className="social-title">{title}</div>
            {p.description ? <div className="social-desc clamp-1">{p.description}</div> : null}
          </div>
        </div>
      );
    case 'X':
      // summary_large_image with an image; the small summary card without one.
      return (
        <div className={`social social-x ${p.image ? '' : 'social-x-small'}`}>
          {p.image ? <ImageBox image={p.image} site={site} /> : null}
          <div className="social-body">
            <div className="social-title">{title}</div>
            {p.image ? null : p.description ? <div className="social-desc clamp-2">{p.description}</div> : null}
            <div className="social-host">From {host}</div>
          </div>
        </div>
      );
    case 'LinkedIn':
      return (
        <div className="social social-linkedin">
          {p.image ? <ImageBox image={p.image} site={site} /> : null}
          <div className="social-body">
            <div className="social-title clamp-2">{title}</div>
            <div className="social-host">{host}</div>
          </div>
        </div>
      );
    case 'Slack':
      return (
        <div className="social social-slack">
          <div className="social-host">{host}</div>
          <div className="social-title social-link">{title}</div>
          {p.description ? <div className="social-desc">{p.description}</div> : null}
          {p.image ? <ImageBox image={p.image} site={site} /> : null}
        </div>
      );
  }
}

/**
 * How Facebook, X, LinkedIn and Slack would show the short link with these preview fields,
 * updated as they are typed. Without any, crawlers follow the redirect and show the
 * destination's own card.
 */
export function SocialPreview({ preview, host }: { preview: PreviewRow; host: string }) {
  const any = Boolean(preview.title.trim() || preview.description.trim() || preview.image.trim());
  return (
    <section className="social-previews" aria-label="Live preview of the social card" aria-live="polite">
      {any ? SITES.map((site) => (
        <figure key={site} className="social-figure" data-site={site}>
          <figcaption className="hint">{site}</figcaption>
          <Card site={site} p={preview} host={host} />
        </figure>
      )) : <p className="hint">No preview set: crawlers follow the link and show the destination's own card.</p>}
    </section>
  );
}
