// Distances on the map (pure: used by the web app's "Near me"; no zod, so the web imports it directly).

/** Mean Earth radius in kilometres (IUGG), the usual figure for great-circle distances. */
export const EARTH_RADIUS_KM = 6371.0088;

export interface LatLng {
  latitude: number;
  longitude: number;
}

/**
 * The great-circle distance between two points in kilometres (haversine formula): accurate to about
 * 0.5 % on the real (slightly flattened) Earth, which is plenty for "which library is nearest".
 */
export function distanceKm(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  // min(): rounding can push h a hair above 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The points nearest to `from` first (ties keep their order), each with its distance in kilometres. */
export function byDistance<T extends LatLng>(from: LatLng, points: readonly T[]): { point: T; km: number }[] {
  return points
    .map((point, i) => ({ point, km: distanceKm(from, point), i }))
    .sort((x, y) => x.km - y.km || x.i - y.i)
    .map(({ point, km }) => ({ point, km }));
}
