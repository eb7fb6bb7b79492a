// Security headers on every answer (pages, API, files), with @fastify/helmet: one strict
// Content-Security-Policy for the web app, no framing by other sites, nosniff, a referrer policy, and
// HSTS only on requests that came over https (req.protocol, which honours TRUST_PROXY).
import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import type { Config } from '../config.ts';

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

/** The directives of the web app's policy (also sent on API and file answers, where it costs nothing). */
export function cspDirectives(config: Pick<Config, 'tileUrl'>): Record<string, string[]> {
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
    // https: for library logos (libraries.logo_url may be on any host, set by library admins) and
    // images in static pages (the sanitizer lets http(s) images through): an image cannot run script,
    // so allowing any https host only lets those hosts see that a page was shown. Plain http images
    // stay out (mixed content on an https site). The configured tile host (TILE_URL) is named too, so
    // an http tile server on an intranet works.
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...(tiles ? [tiles] : [])],
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

export async function installSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'tileUrl'>): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
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
