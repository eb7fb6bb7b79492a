import { describe, expect, it } from 'vitest';
import { byDistance, distanceKm } from './geo.ts';

const BOLOGNA = { latitude: 44.494887, longitude: 11.342616 };
const ZAGREB = { latitude: 45.815011, longitude: 15.981919 };
const LYON = { latitude: 45.764043, longitude: 4.835659 };
const TOKYO = { latitude: 35.705, longitude: 139.649 };

describe('distanceKm (haversine)', () => {
  it('gives the known great-circle distances between cities', () => {
    // Bologna–Zagreb is about 390 km as the crow flies, Bologna–Lyon about 530 km, London–New York about 5,570 km.
    expect(distanceKm(BOLOGNA, ZAGREB)).toBeGreaterThan(385);
    expect(distanceKm(BOLOGNA, ZAGREB)).toBeLessThan(395);
    expect(distanceKm(BOLOGNA, LYON)).toBeGreaterThan(520);
    expect(distanceKm(BOLOGNA, LYON)).toBeLessThan(540);
    const london = { latitude: 51.5074, longitude: -0.1278 };
    const newYork = { latitude: 40.7128, longitude: -74.006 };
    expect(distanceKm(london, newYork)).toBeGreaterThan(5550);
    expect(distanceKm(london, newYork)).toBeLessThan(5590);
  });

  it('is zero for one point, symmetric, and half the circumference for antipodes', () => {
    expect(distanceKm(ZAGREB, ZAGREB)).toBe(0);
    expect(distanceKm(ZAGREB, TOKYO)).toBeCloseTo(distanceKm(TOKYO, ZAGREB), 9);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * 6371.0088, 6);
    expect(distanceKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(Math.PI * 6371.0088, 6);
  });

  it('measures across the antimeridian the short way', () => {
    // Two points 2° of longitude apart on the equator, one each side of 180°: about 222 km, not 39,800.
    expect(distanceKm({ latitude: 0, longitude: 179 }, { latitude: 0, longitude: -179 })).toBeCloseTo(222.4, 0);
  });
});

describe('byDistance', () => {
  it('orders the points nearest first, with their distances', () => {
    const here = { latitude: 45.5, longitude: 15.5 }; // near Zagreb
    const sorted = byDistance(here, [TOKYO, LYON, BOLOGNA, ZAGREB]);
    expect(sorted.map((s) => s.point)).toEqual([ZAGREB, BOLOGNA, LYON, TOKYO]);
    expect(sorted[0].km).toBeLessThan(60);
  });
});
