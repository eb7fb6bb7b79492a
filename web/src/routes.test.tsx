import { describe, expect, it } from 'vitest';
import { routes } from './routes';

describe('routes', () => {
  it('gives every lazily loaded page a HydrateFallback (no react-router warning on direct loads)', () => {
    const children = routes[0].children ?? [];
    const lazy = children.filter((r) => r.lazy);
    expect(lazy.length).toBeGreaterThan(5);
    for (const r of lazy) expect(r.HydrateFallback, String(r.path)).toBeTruthy();
  });
});
