import { describe, expect, it } from 'vitest';
import { boxAround, hasCoordinates, librariesInView, pointInBox, type Box } from './bounds';
import { countriesGeoJson, unwrapRing } from './basemap';
import { isTileTemplate, tileSetting } from './settings';
import { heldCounts, isSearchMode } from './MapPage';
import { parseSearch } from '../search/searchState';
import { CANUTS, CLOUD, KOENJI, LANTERNA, LIBRARIES, PROSTOR, lib } from '../libraries/testData';

const EUROPE: Box = { south: 35, west: -10, north: 60, east: 30 };

describe('libraries in the current view', () => {
  it('keeps the located libraries inside the bounds, by name', () => {
    expect(librariesInView(LIBRARIES, EUROPE).map((l) => l.id)).toEqual([LANTERNA.id, CANUTS.id, PROSTOR.id]);
    expect(librariesInView(LIBRARIES, { south: 30, west: 130, north: 40, east: 145 })).toEqual([KOENJI]);
    expect(librariesInView(LIBRARIES, { south: -10, west: -40, north: 0, east: -30 })).toEqual([]);
  });

  it('without a known view, lists every located library (never those without coordinates)', () => {
    expect(librariesInView(LIBRARIES, null).map((l) => l.id).sort()).toEqual([1, 2, 3, 5]);
    expect(librariesInView([CLOUD], null)).toEqual([]);
  });

  it('handles the bounds edges, wrapped worlds and the antimeridian', () => {
    expect(pointInBox(35, -10, EUROPE)).toBe(true);
    expect(pointInBox(60.0001, 0, EUROPE)).toBe(false);
    // Leaflet reports longitudes beyond ±180 once the view is panned over the antimeridian.
    expect(pointInBox(35.7, 139.7, { south: 0, west: -250, north: 60, east: -200 })).toBe(true);
    expect(pointInBox(35.7, 139.7, { south: 0, west: 170, north: 60, east: 230 })).toBe(false);
    expect(pointInBox(-17, 179, { south: -20, west: 170, north: -10, east: 190 })).toBe(true);
    expect(pointInBox(-17, -179, { south: -20, west: 170, north: -10, east: 190 })).toBe(true);
    expect(pointInBox(-17, -179, { south: -20, west: 170, north: -10, east: -170 })).toBe(true);
    // Zoomed out beyond one world: every longitude.
    expect(pointInBox(10, 100, { south: -85, west: -300, north: 85, east: 300 })).toBe(true);
  });

  it('recognises coordinates', () => {
    expect(hasCoordinates(LANTERNA)).toBe(true);
    expect(hasCoordinates(CLOUD)).toBe(false);
    expect(hasCoordinates(lib({ latitude: 0, longitude: 0 }))).toBe(true);
    expect(hasCoordinates(lib({ latitude: 91, longitude: 0 }))).toBe(false);
    expect(hasCoordinates(lib({ latitude: 10, longitude: null }))).toBe(false);
    expect(boxAround([LANTERNA, KOENJI].filter(hasCoordinates))).toEqual({ south: 35.689487, west: 11.342616, north: 44.494887, east: 139.691711 });
    expect(boxAround([])).toBeNull();
  });
});

describe('the built-in basemap', () => {
  it('is the Natural Earth countries, continuous across the antimeridian', () => {
    const fc = countriesGeoJson();
    expect(fc.features.length).toBeGreaterThan(150);
    for (const f of fc.features) {
      const g = f.geometry;
      const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
      for (const ring of polys.flat()) {
        for (let i = 1; i < ring.length; i++) {
          // (A ring around the pole is closed along the pole itself.)
          if (Math.abs(ring[i][1]) === 90 && Math.abs(ring[i - 1][1]) === 90) continue;
          expect(Math.abs(ring[i][0] - ring[i - 1][0])).toBeLessThanOrEqual(180);
        }
      }
    }
  });

  it('unwraps a ring over the antimeridian and closes a polar ring along the pole', () => {
    expect(unwrapRing([[179, 0], [-179, 1], [-179, -1], [179, 0]])).toEqual([[179, 0], [181, 1], [181, -1], [179, 0]]);
    const polar = unwrapRing([[0, -70], [170, -80], [180, -80], [-180, -80], [-170, -80], [0, -70]]);
    expect(polar).toEqual([[0, -70], [170, -80], [180, -80], [180, -80], [190, -80], [360, -70], [360, -90], [0, -90], [0, -70]]);
  });
});

describe('map settings and search mode', () => {
  it('uses a tile server only when configured (site settings first, then VITE_TILE_URL)', () => {
    expect(tileSetting({ site_name: 'x' }, {})).toBeNull();
    expect(tileSetting({}, { VITE_TILE_URL: 'https://t.example.org/{z}/{x}/{y}.png', VITE_TILE_ATTRIBUTION: '© OSM' })).toEqual({
      url: 'https://t.example.org/{z}/{x}/{y}.png',
      attribution: '© OSM',
    });
    expect(tileSetting({ tile_url: '/tiles/{z}/{x}/{y}.png' }, { VITE_TILE_URL: 'https://t.example.org/{z}/{x}/{y}.png' })?.url).toBe(
      '/tiles/{z}/{x}/{y}.png',
    );
    expect(isTileTemplate('javascript:{z}{x}{y}')).toBe(false);
    expect(isTileTemplate('//evil.example.org/{z}/{x}/{y}')).toBe(false);
    expect(isTileTemplate('https://t.example.org/tiles')).toBe(false);
  });

  it('counts the entries each library holds, keeping only the chosen libraries under a library filter', () => {
    const values = [
      { id: '1', count: 4 },
      { id: '2', count: 0 },
      { id: '3', count: 2 },
    ];
    expect([...heldCounts(values, undefined)]).toEqual([[1, 4], [3, 2]]);
    expect([...heldCounts(values, ['3'])]).toEqual([[3, 2]]);
    expect([...heldCounts(undefined, undefined)]).toEqual([]);
    expect(isSearchMode(parseSearch(''))).toBe(false);
    expect(isSearchMode(parseSearch('?query=anarchy'))).toBe(true);
    expect(isSearchMode(parseSearch('?filter_language=it'))).toBe(true);
  });
});
