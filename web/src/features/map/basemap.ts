// The built-in basemap: Natural Earth 1:110m countries (world-atlas, public domain), bundled into the
// map chunk, so the map needs no tile server and makes no third-party request.
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import countries110m from 'world-atlas/countries-110m.json';

/**
 * Makes a ring continuous in longitude: a ring crossing the antimeridian (Fiji, Russia) jumps from
 * 180 to -180 and would be drawn as a stripe across the world; here it continues past ±180 instead.
 * A ring around a pole (Antarctica) is closed along the pole.
 */
export function unwrapRing(ring: readonly Position[]): Position[] {
  if (ring.length === 0) return [];
  const out: Position[] = [[ring[0][0], ring[0][1]]];
  let offset = 0;
  for (let i = 1; i < ring.length; i++) {
    const d = ring[i][0] - ring[i - 1][0];
    if (d > 180) offset -= 360;
    else if (d < -180) offset += 360;
    out.push([ring[i][0] + offset, ring[i][1]]);
  }
  if (offset !== 0) {
    const first = out[0];
    const last = out[out.length - 1];
    const pole = ring.reduce((s, p) => s + p[1], 0) < 0 ? -90 : 90;
    out.push([last[0], pole], [first[0], pole], [first[0], first[1]]);
  }
  return out;
}

function unwrapFeature(f: Feature): Feature {
  const g = f.geometry;
  if (g.type === 'Polygon') return { ...f, geometry: { ...g, coordinates: g.coordinates.map(unwrapRing) } as Polygon };
  if (g.type === 'MultiPolygon') {
    return { ...f, geometry: { ...g, coordinates: g.coordinates.map((p) => p.map(unwrapRing)) } as MultiPolygon };
  }
  return f;
}

let cached: FeatureCollection | undefined;

export function countriesGeoJson(): FeatureCollection {
  if (!cached) {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    const fc = feature(topology, topology.objects.countries) as FeatureCollection;
    cached = { ...fc, features: fc.features.map(unwrapFeature) };
  }
  return cached;
}

export const BASEMAP_ATTRIBUTION = 'Natural Earth';
