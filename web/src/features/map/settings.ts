// Which basemap to draw. Default: the bundled Natural Earth outline (no tile server, no third-party
// request). A tile server is used only when configured:
//   1. the site settings (GET /collector/api/general) carry `tile_url` (and `tile_attribution`), or
//   2. the web app was built with VITE_TILE_URL (and VITE_TILE_ATTRIBUTION), e.g.
//      VITE_TILE_URL='https://tile.example.org/{z}/{x}/{y}.png' npm run build -w web
// The URL is a Leaflet tile template ({s}, {z}, {x}, {y}); it must be https or same-origin.

export interface TileSetting {
  url: string;
  attribution: string;
}

function clean(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** A usable tile template: absolute http(s) or a same-origin path, with {z}, {x} and {y}. */
export function isTileTemplate(url: string): boolean {
  if (!/\{z\}/.test(url) || !/\{x\}/.test(url) || !/\{y\}/.test(url)) return false;
  return /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'));
}

export function tileSetting(general: unknown, env: Record<string, unknown> = import.meta.env): TileSetting | null {
  const g = (general && typeof general === 'object' ? general : {}) as Record<string, unknown>;
  const fromSettings = clean(g.tile_url);
  if (fromSettings && isTileTemplate(fromSettings)) return { url: fromSettings, attribution: clean(g.tile_attribution) };
  const fromEnv = clean(env.VITE_TILE_URL);
  if (fromEnv && isTileTemplate(fromEnv)) return { url: fromEnv, attribution: clean(env.VITE_TILE_ATTRIBUTION) };
  return null;
}
