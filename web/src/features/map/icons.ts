// Marker and cluster icons drawn as inline SVG (divIcon): no image URLs, no Leaflet default PNGs.
// Each icon carries its accessible name as visually hidden text (Leaflet makes markers role=button).
import L from 'leaflet';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fill colours by library type; the shape differs too (physical: pin with a house, digital: pin with a screen). */
const COLOURS: Record<string, string> = { physical: '#065f46', digital: '#075985', closed: '#57534e' };

function glyph(type: string): string {
  if (type === 'digital') return '<rect x="8" y="8" width="12" height="8" rx="1" fill="#fff"/><rect x="12" y="17" width="4" height="2" fill="#fff"/>';
  if (type === 'physical') return '<path d="M14 6l7 6h-2v6h-3.5v-4h-3v4H9v-6H7z" fill="#fff"/>';
  return '<circle cx="14" cy="13" r="4" fill="#fff"/>';
}

/** A pin for one library; `label` is its accessible name; `count` (results held) shows as a badge. */
export function libraryIcon(type: string, label: string, count?: number): L.DivIcon {
  const colour = COLOURS[type] ?? COLOURS.closed;
  const badge =
    count !== undefined
      ? `<span class="uc-marker-count" aria-hidden="true">${count > 999 ? '999+' : count}</span>`
      : '';
  return L.divIcon({
    className: 'uc-marker',
    html:
      `<svg aria-hidden="true" focusable="false" width="28" height="38" viewBox="0 0 28 38">` +
      `<path d="M14 1C6.8 1 1 6.7 1 13.8 1 23.5 14 37 14 37s13-13.5 13-23.2C27 6.7 21.2 1 14 1z" fill="${colour}" stroke="#fff" stroke-width="2"/>` +
      glyph(type) +
      `</svg>${badge}<span class="uc-sr-only">${esc(label)}</span>`,
    iconSize: [28, 38],
    iconAnchor: [14, 37],
    popupAnchor: [0, -34],
  });
}

/** A cluster bubble: the number of libraries it holds, named for screen readers. */
export function clusterIcon(count: number, label: string): L.DivIcon {
  const size = count < 10 ? 36 : count < 100 ? 42 : 50;
  return L.divIcon({
    className: 'uc-cluster',
    html: `<span aria-hidden="true">${count}</span><span class="uc-sr-only">${esc(label)}</span>`,
    iconSize: [size, size],
  });
}
