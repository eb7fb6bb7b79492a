// Security headers on every answer (pages, API, files), with @fastify/helmet: one strict
// Content-Security-Policy for the web app, no framing by other sites, nosniff, a referrer policy, and
// HSTS only on requests that came over https (req.protocol, which honours TRUST_PROXY).
import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';

/** One year; no includeSubDomains: other hosts under the same domain are not ours to force onto https. */
export const HSTS = 'max-age=31536000';

/**
 * The CSP source of a Leaflet tile template's host, or null when it needs none ('' or a same-origin
 * path, which 'self' covers). A `{s}` (or any placeholder) as the first label becomes the `*.` wildcard;
 * a placeholder elsewhere in the host cannot be written in CSP, so then the scheme alone is allowed.
 */
export function tileSource(tileUrl: string): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(tileUrl.trim());
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const labels = m[2].toLowerCase().split('.');
  if (labels[0].includes('{')) labels[0] = '*';
  if (labels.some((l) => /[{}]/.test(l) || l === '')) return `${scheme}:`;
  return `${scheme}://${labels.join('.')}`;
}

/**
 * More image origins than this and img-src allows any https image instead of naming them: a long
 * header would exceed a proxy's header buffer (nginx's is 4 KiB by default) and break every answer.
 */
export const MAX_NAMED_IMAGE_ORIGINS = 50;
const IMAGE_ORIGINS_TTL_MS = 10_000;

/** The origin of an http(s) image address, or null (relative, other schemes, unparsable). */
function httpOrigin(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** The src of every <img> in a piece of HTML, read with an HTML parser. */
function imageSources(html: string): string[] {
  const found: string[] = [];
  type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.DocumentFragment;
  const walk = (node: Node) => {
    if ('tagName' in node && node.tagName === 'img') {
      const src = node.attrs.find((a) => a.name === 'src');
      if (src) found.push(src.value);
    }
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parseFragment(html));
  return found;
}

/**
 * The other hosts the site shows images from: the site logo (settings.site_logo) and images in static
 * pages, both a superuser's. Library logos are not among them: they are kept and served by us
 * (libraries/logos.ts), so no library admin's host widens the policy. Read from the database at most every 10 s, so every
 * process follows a change by an admin within seconds. Null when there are too many to name.
 */
export class ImageOrigins {
  private cached: string[] | null = [];
  private readAt = -Infinity;

  constructor(private db: Db, private now: () => number = Date.now) {}

  current(): string[] | null {
    const t = this.now();
    if (t - this.readAt >= IMAGE_ORIGINS_TTL_MS) {
      this.cached = this.read();
      this.readAt = t;
    }
    return this.cached;
  }

  private read(): string[] | null {
    const s = this.db.sqlite;
    const urls = [
      ...(s.prepare("SELECT value FROM settings WHERE name = 'site_logo'").pluck().all() as string[]),
      ...(s.prepare("SELECT content FROM pages WHERE content LIKE '%<img%'").pluck().all() as string[]).flatMap(imageSources),
    ];
    const origins = [...new Set(urls.map(httpOrigin).filter((o): o is string => o !== null))].sort();
    return origins.length > MAX_NAMED_IMAGE_ORIGINS ? null : origins;
  }
}

/** img-src's sources besides the fixed ones: the named image origins, or any https image when they are too many. */
function imageOriginSources(origins: string[] | null): string[] {
  return origins === null ? ['https:'] : origins;
}

/** The directives of the web app's policy (also sent on API and file answers, where it costs nothing). */
export function cspDirectives(config: Pick<Config, 'tileUrl'>, imageOrigins: () => string[] | null = () => []): Record<string, (string | (() => string))[]> {
  const tiles = tileSource(config.tileUrl);
  return {
    'default-src': ["'self'"],
    // Vite's build has no inline script (index.html loads /assets/*.js; chunks load as modules from
    // 'self'). Entry pages carry <script type="application/ld+json">: data, never executed, so CSP does
    // not apply to it. No eval either.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Stylesheets only from 'self' (no <style> elements: Vite emits .css files). Style *attributes* are
    // allowed: the full text is Muse HTML from the server (packages/muse/src/html.ts) with
    // style="font-variant: small-caps" and image width/rotation attributes, shown with innerHTML.
    // (React's style props and Leaflet's positioning go through the CSSOM, which CSP does not govern.)
    // An attribute cannot run script or hold selectors, so it cannot read the page; hashes would need
    // 'unsafe-hashes' and one hash per width, which Muse texts choose freely.
    'style-src': ["'self'"],
    'style-src-elem': ["'self'"],
    'style-src-attr': ["'unsafe-inline'"],
    // data: for Leaflet's CSS icons; blob: for the cover builder's live SVG preview (an object URL).
    // The configured tile host (TILE_URL) and the hosts of the site logo and images in static pages
    // (ImageOrigins, read as they change): an injected <img> cannot send the page to a host of its
    // choosing. Library logos come from 'self' (libraries/logos.ts).
    'img-src': ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : []), () => imageOriginSources(imageOrigins()).join(' ')],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'media-src': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    // The Book Builder, the Covers tab and the entry page embed our own PDFs in an iframe.
    'frame-src': ["'self'"],
    // Nobody frames our pages; PDFs answer with frame-ancestors 'self' instead (see below).
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/**
 * The policy of PDF answers. Chrome shows a PDF in a synthetic page of the PDF's own origin that
 * holds an <embed> and inline styles, governed by the PDF answer's CSP (crbug.com/271452): with
 * `object-src 'none'` or without inline styles the viewer stays blank. So a PDF only says who may
 * frame it (our own pages: the Book Builder's and the entry page's viewers); nosniff and the exact
 * Content-Type keep it a PDF.
 */
export const PDF_CSP = "frame-ancestors 'self'";

export async function installSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'tileUrl'>, db: Db): Promise<void> {
  const imageOrigins = new ImageOrigins(db);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config, () => imageOrigins.current()) },
    // Set per request below (only over https).
    strictTransportSecurity: false,
    // frame-ancestors is the rule; X-Frame-Options for browsers that predate it.
    xFrameOptions: { action: 'deny' },
    // The origin only, and only to https sites: library sites see where their visitors come from, and
    // tile servers that require a Referer (OpenStreetMap's policy) get one.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // helmet's defaults for the rest: nosniff, COOP same-origin, CORP same-origin,
    // Origin-Agent-Cluster, X-DNS-Prefetch-Control off, X-Permitted-Cross-Domain-Policies none.
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (/^application\/pdf\b/i.test(String(reply.getHeader('content-type') ?? ''))) {
      reply.header('Content-Security-Policy', PDF_CSP);
      reply.header('X-Frame-Options', 'SAMEORIGIN');
    }
    return payload;
  });
}
