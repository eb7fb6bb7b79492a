// Pure geometry of the map page: which libraries have a place, which are in the current view.
import type { LibraryPublic } from '../../lib/shared';

/** A view's bounds in degrees; west may exceed east across the antimeridian, or span > 360 when zoomed out. */
export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

export type Located<T> = T & { latitude: number; longitude: number };

export function hasCoordinates<T extends Pick<LibraryPublic, 'latitude' | 'longitude'>>(lib: T): lib is Located<T> {
  const { latitude: lat, longitude: lng } = lib;
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180
  );
}

/** Is a point inside the box? Longitudes are compared modulo 360, so wrapped views work too. */
export function pointInBox(lat: number, lng: number, box: Box): boolean {
  if (lat < box.south || lat > box.north) return false;
  const span = box.east - box.west;
  if (span >= 360) return true;
  if (span < 0) return lng >= box.west || lng <= box.east; // antimeridian given as west > east
  // Bring lng into [west, west + 360).
  const shifted = ((((lng - box.west) % 360) + 360) % 360) + box.west;
  return shifted <= box.east;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * The libraries shown in the list under the map: those with coordinates inside the view, by name.
 * Without a known view (the map has not reported one yet) every located library counts.
 */
export function librariesInView<T extends Pick<LibraryPublic, 'latitude' | 'longitude' | 'name'>>(
  libraries: readonly T[],
  box: Box | null,
): Located<T>[] {
  return libraries
    .filter(hasCoordinates)
    .filter((l) => box === null || pointInBox(l.latitude, l.longitude, box))
    .sort(byName);
}

/** The box around some points (for fitting the first view), or null for none. */
export function boxAround(points: readonly { latitude: number; longitude: number }[]): Box | null {
  if (points.length === 0) return null;
  let south = 90, north = -90, west = 180, east = -180;
  for (const p of points) {
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
  }
  return { south, west, north, east };
}
