// The JSON rows PostgreSQL writes set-wise (jsonbRows) hold the same text as the same strings bound one
// by one: a record with a NUL character or a broken surrogate pair is stored, not a failed batch.
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './index.ts';
import { BACKENDS, dropTestDatabases, testDatabaseTarget } from '../test/backends.ts';
import { jsonbRows } from './dialect.ts';

afterAll(() => dropTestDatabases());

describe.skipIf(!BACKENDS.includes('postgres'))('jsonbRows on postgres', () => {
  it('gives each string as it arrives bound: without NUL, a lone surrogate as U+FFFD, the rest as written', async () => {
    const db = openDatabase(testDatabaseTarget('postgres'));
    try {
      const values = ['plain', 'a\0b', 'x\uD800y', 'z\uDC00', 'pair \uD83D\uDE00', 'quote " \\ back\\u0000slash', '\u00e9\n\t'];
      const viaJson = db.sqlite.prepare('SELECT r->>0 FROM jsonb_array_elements(?::jsonb) r').pluck().all(jsonbRows(values.map((v) => [v])));
      const bound = values.map((v) => db.sqlite.prepare('SELECT ?::text').pluck().get(v));
      expect(viaJson).toEqual(bound);
      expect(viaJson.slice(1, 4)).toEqual(['ab', 'x\uFFFDy', 'z\uFFFD']);
    } finally {
      await db.close();
    }
  });
});
