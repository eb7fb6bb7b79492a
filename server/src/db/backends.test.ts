import { describe, expect, it } from 'vitest';
import { POSTGRES_READY, SQL_MODULES, backendNotReady, modulesMissingOn } from './backends.ts';

describe('back-end readiness', () => {
  it('SQLite runs every module', () => {
    expect(modulesMissingOn('sqlite')).toEqual([]);
    expect(backendNotReady('sqlite')).toBeNull();
  });

  it('on PostgreSQL names each module not ported yet, so serve stops before a SQLite-only statement fails', () => {
    const missing = SQL_MODULES.filter((m) => !POSTGRES_READY.has(m));
    expect(modulesMissingOn('postgres')).toEqual(missing);
    if (missing.length) expect(backendNotReady('postgres')).toContain(missing.join(', '));
    else expect(backendNotReady('postgres')).toBeNull();
  });
});
