import { describe, expect, it } from 'vitest';
import { bindArguments, toPgText, translatePlaceholders } from './postgres.ts';

describe('translatePlaceholders', () => {
  it('numbers anonymous ? in order', () => {
    const t = translatePlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?');
    expect(t.text).toBe('SELECT * FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4');
    expect(t.slots).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }, { index: 3 }]);
  });

  it('gives each named parameter one number, whatever its prefix, however often it appears', () => {
    const t = translatePlaceholders('UPDATE t SET a = @a, b = :b WHERE id = $id OR parent = @id OR a = :a');
    expect(t.text).toBe('UPDATE t SET a = $1, b = $2 WHERE id = $3 OR parent = $3 OR a = $1');
    expect(t.slots).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'id' }]);
  });

  it('leaves strings, quoted identifiers, comments, dollar quotes and casts alone', () => {
    const sql = `SELECT 'it''s ? @x :y' AS "odd ?", x::int, a @@ to_tsquery('simple', ?) -- what ? @z
      , $body$ ? :q $body$, $$ @w $$ /* ? :c */ FROM t WHERE tags <@ ?`;
    const t = translatePlaceholders(sql);
    expect(t.text).toBe(`SELECT 'it''s ? @x :y' AS "odd ?", x::int, a @@ to_tsquery('simple', $1) -- what ? @z
      , $body$ ? :q $body$, $$ @w $$ /* ? :c */ FROM t WHERE tags <@ $2`);
    expect(t.slots).toEqual([{ index: 0 }, { index: 1 }]);
  });

  it('takes ?NNN and native $N as numbered positional arguments', () => {
    const t = translatePlaceholders('SELECT ?2, ?1, ?2, $3');
    expect(t.text).toBe('SELECT $1, $2, $1, $3');
    expect(t.slots).toEqual([{ index: 1 }, { index: 0 }, { index: 2 }]);
  });
});

describe('bindArguments', () => {
  it('spreads arrays and takes named values from one object, like better-sqlite3', () => {
    const t = translatePlaceholders('SELECT ?, @name, ?');
    expect(bindArguments(t.slots, [[1, 2n], { name: 'x' }])).toEqual(['1', 'x', '2']);
  });

  it('refuses a missing named value and too few positional ones', () => {
    expect(() => bindArguments(translatePlaceholders('SELECT @a').slots, [{}])).toThrow(/named parameter "a"/);
    expect(() => bindArguments(translatePlaceholders('SELECT ?, ?').slots, [1])).toThrow(/Too few/);
  });

  it('writes values in libpq text format', () => {
    expect(toPgText(null)).toBeNull();
    expect(toPgText(undefined)).toBeNull();
    expect(toPgText(1.5)).toBe('1.5');
    expect(toPgText(true)).toBe('1');
    expect(toPgText(Buffer.from([0, 255]))).toBe('\\x00ff');
    expect(() => toPgText({})).toThrow(TypeError);
  });
});
