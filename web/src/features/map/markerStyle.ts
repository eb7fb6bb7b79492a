// The look of the library markers, without Leaflet: shared by the map's icons (icons.ts, map chunk)
// and the legend (MapLegend.tsx, page chunk).

/** Fill colours by library type; the shape differs too (physical: pin with a house, digital: pin with a screen). */
export const MARKER_COLOURS: Record<string, string> = { physical: '#065f46', digital: '#075985', closed: '#57534e' };

/** The library types in the legend's order. */
export const MARKER_TYPES = ['physical', 'digital', 'closed'] as const;

function glyph(type: string): string {
  if (type === 'digital') return '<rect x="8" y="8" width="12" height="8" rx="1" fill="#fff"/><rect x="12" y="17" width="4" height="2" fill="#fff"/>';
  if (type === 'physical') return '<path d="M14 6l7 6h-2v6h-3.5v-4h-3v4H9v-6H7z" fill="#fff"/>';
  return '<circle cx="14" cy="13" r="4" fill="#fff"/>';
}

/** The inner SVG markup of a pin (viewBox 0 0 28 38); only constant strings, never user text. */
export function pinSvg(type: string): string {
  const colour = MARKER_COLOURS[type] ?? MARKER_COLOURS.closed;
  return (
    `<path d="M14 1C6.8 1 1 6.7 1 13.8 1 23.5 14 37 14 37s13-13.5 13-23.2C27 6.7 21.2 1 14 1z" fill="${colour}" stroke="#fff" stroke-width="2"/>` +
    glyph(type)
  );
}
