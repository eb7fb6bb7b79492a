// Marker and cluster icons drawn as inline SVG (divIcon): no image URLs, no Leaflet default PNGs.
// Each icon carries its accessible name as visually hidden text (Leaflet makes markers role=button).
import L from 'leaflet';
import { pinSvg } from './markerStyle';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A pin for one library; `label` is its accessible name; `count` (results held) shows as a badge. */
export function libraryIcon(type: string, label: string, count?: number): L.DivIcon {
  const badge =
    count !== undefined
      ? `<span class="uc-marker-count" aria-hidden="true">${count > 999 ? '999+' : count}</span>`
      : '';
  return L.divIcon({
    className: 'uc-marker',
    html:
      `<svg aria-hidden="true" focusable="false" width="28" height="38" viewBox="0 0 28 38">` +
      pinSvg(type) +
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
