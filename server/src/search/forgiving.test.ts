// Search that forgives: other scripts (transliteration both ways), typos, translations of a work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, suggestResponseSchema, type SearchResponse } from '@uc/shared';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { APP_BACKENDS } from '../test/backends.ts';

describe.each(APP_BACKENDS)('forgiving search on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    const entry = (id: number, title: string, authors: string[], languages: string[], extra: object = {}) => ({
      type: 'entry', id, title, subtitle: null, authors, languages, year: 1900, data_sources: [{ library_id: 1, identifier: `x-${id}` }], ...extra,
    });
    t = await testApp([
      ...fixtureLines(),
      entry(30, 'Взаимопомощь как фактор эволюции', ['Пётр Кропоткин'], ['ru'], { translation_of: 2 }),
      entry(31, 'Бесы', ['Фёдор Достоевский'], ['ru']),
      entry(32, 'Война и мир', ['Лев Толстой'], ['ru']),
      entry(33, 'Θεός και κράτος', ['Μιχαήλ Μπακούνιν'], ['el']),
      entry(34, 'Η φαντασιακή θέσμιση της κοινωνίας', ['Κορνήλιος Καστοριάδης'], ['el']),
      entry(35, 'Il mutuo appoggio', ['Pietro Kropotkin'], ['it'], { translation_of: 2 }),
      entry(36, 'God and the State', ['Michael Bakunin'], ['en']),
      // The misspelling only inside a text.
      entry(37, 'Notes from Lyon', ['Anonymous'], ['fr'], { fulltext: 'Une lettre de Pierre Kropotkine, écrite à Clairvaux.' }),
    ], {}, dialect);
  });
  afterAll(async () => t?.close());

  async function search(qs: string): Promise<SearchResponse> {
    const res = await t.app.inject(`/collector/api/search?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return searchResponseSchema.parse(res.json());
  }
  const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
  const q = (query: string, more = '') => search(`query=${encodeURIComponent(query)}${more}`);

  describe('other scripts', () => {
    it('finds Cyrillic titles and authors from Latin letters', async () => {
      expect(titles(await q('kropotkin'))).toContain('Взаимопомощь как фактор эволюции');
      expect(titles(await q('vzaimopomoshch'))).toEqual(['Взаимопомощь как фактор эволюции']);
      expect(titles(await q('dostoevsky'))).toEqual(['Бесы']);
      expect(titles(await q('author:tolstoy'))).toEqual(['Война и мир']);
      expect(titles(await q('"voyna i mir"'))).toEqual(['Война и мир']);
    });

    it('finds Latin titles and authors from Cyrillic and Greek letters', async () => {
      const r = titles(await q('Кропоткин'));
      expect(r).toEqual(expect.arrayContaining(['Mutual Aid', "L'Entraide", 'Fields, Factories and Workshops', 'Взаимопомощь как фактор эволюции']));
      // The entry written in the reader's script ranks first.
      expect(r[0]).toBe('Взаимопомощь как фактор эволюции');
      expect(titles(await q('author:Κροπότκιν'))).toContain('Mutual Aid');
    });

    it('finds Greek titles and authors from Latin letters, and ranks the exact script first', async () => {
      expect(titles(await q('kastoriadis'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
      expect(titles(await q('Καστοριάδης'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
      expect(titles(await q('kratos'))).toEqual(['Θεός και κράτος']);
      expect(titles(await q('koinonias'))).toEqual(['Η φαντασιακή θέσμιση της κοινωνίας']);
      const bakunin = titles(await q('bakounin'));
      expect(bakunin).toEqual(['Θεός και κράτος']);
    });

    it('keeps accents and case folded as before, in every script', async () => {
      expect(titles(await q('КРОПОТКИН'))).toContain('Взаимопомощь как фактор эволюции');
      expect(titles(await q('Кропоткін'))).toContain('Mutual Aid'); // the Ukrainian spelling
      expect(titles(await q('θεος'))).toEqual(['Θεός και κράτος']);
      expect(titles(await q('liberta'))).toEqual(['La libertà e il lavoro']);
    });

    it('ranks the title in the query\'s own script before a transliterated one', async () => {
      const r = titles(await q('mir'));
      expect(r).toEqual(['Война и мир']);
      // bm25 weighs a match down by its column's length, and the Cyrillic entry's authors hold their Latin
      // form too (on both back ends: PostgreSQL's nodes rank in their FTS5 text mirror). Compared with an
      // entry of as many title words: the stems of a subtitle and description lengthen Mutual Aid's row,
      // and bm25 counts a row's length over all its columns (search/analysis.ts).
      const both = titles(await q('kropotkin', '&page_size=20'));
      expect(both.indexOf('Взаимопомощь как фактор эволюции')).toBeGreaterThan(both.indexOf('Fields, Factories and Workshops'));
    });
  });

  describe('typos', () => {
    it('answers a misspelt author with the author, says so, and can be refused', async () => {
      const r = await q('kropotkine');
      expect(r.corrected).toBe(true);
      expect(r.did_you_mean).toBe('kropotkin');
      expect(r.querystring).toBe('kropotkine');
      // The spec's client heads the results with pretty_query beside its box: the query as typed.
      expect(r.pretty_query).toBe('kropotkine');
      // What the words as typed found comes first (inside a text), then the author's works.
      expect(titles(r)[0]).toBe('Notes from Lyon');
      expect(titles(r)).toContain('Mutual Aid');
      expect(titles(r)).toContain('Взаимопомощь как фактор эволюции');
      expect(titles(await q('dostoevski'))).toEqual(['Бесы']);
      expect(titles(await q('tolstoi'))).toEqual(['Война и мир']);
      expect((await q('Кропоткине')).did_you_mean).toBe('кропоткин');
      const refused = await q('kropotkine', '&exact=1');
      expect(titles(refused)).toEqual(['Notes from Lyon']);
      expect(refused.did_you_mean).toBeNull();
      const bad = await t.app.inject('/collector/api/search?query=kropotkine&exact=yes');
      expect(bad.statusCode).toBe(400);
    });

    it('corrects only the misspelt words of a query, keeping operators, fields and filters', async () => {
      const r = await q('author:kropotkine mutual language:en');
      expect(r.did_you_mean).toBe('author:kropotkin mutual language:en');
      expect(titles(r)).toEqual(['Mutual Aid']);
      expect((await q('mutal aid')).did_you_mean).toBe('mutual aid');
      expect((await q('"feilds factories"')).did_you_mean).toBe('"fields factories"');
    });

    it('offers a suggestion without replacing matches when the query finds a few and the correction not many more', async () => {
      const few = await q('cleyre OR kropotkine', '&sort_by=title_asc');
      expect(few.corrected).toBe(false);
      expect(few.did_you_mean).toBe('cleyre OR kropotkin');
      expect(titles(few)).toEqual(['Notes from Lyon', 'Second Essay']);
      // (Five times more is answered as the correction: "kropotkine" above.)
    });

    it('suggests nothing for exact matches, unknown words far from any, or words known from descriptions', async () => {
      for (const query of ['kropotkin', 'xqzwv', 'evolution', 'footnote']) {
        const r = await q(query);
        expect(r.did_you_mean, query).toBeNull();
        expect(r.corrected, query).toBeUndefined();
      }
    });

    it('never proposes a word only hidden entries hold', async () => {
      // "Secret Private Work" is held only by a private library.
      const r = await q('secrett');
      expect(r.did_you_mean).toBeNull();
      expect(r.total_entries).toBe(0);
    });
  });

  describe('translations of a work', () => {
    it('widens a search to the original and every translation, saying why each was added', async () => {
      const plain = titles(await q('"mutual aid"'));
      expect(plain).toEqual(['Mutual Aid']);
      const r = await q('"mutual aid"', '&translations=1');
      expect(titles(r)[0]).toBe('Mutual Aid');
      expect(titles(r).slice(1).sort()).toEqual(["L'Entraide", 'Il mutuo appoggio', 'Взаимопомощь как фактор эволюции'].sort());
      expect(r.matches[0].related).toBeUndefined();
      const entraide = r.matches.find((m) => m.title[0].value === "L'Entraide")!;
      expect(entraide.related).toEqual({ relation: 'translation_of', entry_id: r.matches[0].entry_id, title: 'Mutual Aid' });
    });

    it('from a translation, finds the original and the other translations', async () => {
      const r = await q('appoggio', '&translations=1');
      expect(titles(r)[0]).toBe('Il mutuo appoggio');
      const original = r.matches.find((m) => m.title[0].value === 'Mutual Aid')!;
      expect(original.related).toEqual({ relation: 'original_of', entry_id: r.matches[0].entry_id, title: 'Il mutuo appoggio' });
      expect(titles(r)).toEqual(expect.arrayContaining(["L'Entraide", 'Взаимопомощь как фактор эволюции']));
      expect(r.total_entries).toBe(4);
    });

    it('keeps filters on the widened set and leaves works without translations alone', async () => {
      expect(titles(await q('"mutual aid"', '&translations=1&filter_language=fr'))).toEqual(["L'Entraide"]);
      expect(titles(await q('zapata', '&translations=1'))).toEqual(['Zapata and the Land']);
      expect((await q('"mutual aid"', '&translations=0')).total_entries).toBe(1);
    });

    it('refuses a bad flag value', async () => {
      const res = await t.app.inject('/collector/api/search?query=aid&translations=yes');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('error');
    });
  });

  describe('GET /suggest', () => {
    const suggest = async (typed: string) => {
      const res = await t.app.inject(`/collector/api/suggest?q=${encodeURIComponent(typed)}`);
      expect(res.statusCode, res.body).toBe(200);
      return suggestResponseSchema.parse(res.json()).suggestions;
    };

    it('suggests authors and titles with a word starting with what was typed, in any script', async () => {
      const krop = await suggest('krop');
      expect(krop.filter((s) => s.type === 'author').map((s) => s.value)).toEqual(expect.arrayContaining(['Peter Kropotkin', 'Пётр Кропоткин']));
      const mutu = await suggest('mutu');
      expect(mutu.filter((s) => s.type === 'title').map((s) => s.value)).toEqual(['Mutual Aid', 'Il mutuo appoggio']);
      expect(mutu[0]).toMatchObject({ type: 'title', value: 'Mutual Aid', detail: 'Peter Kropotkin' });
      expect((await suggest('vzaimo')).map((s) => s.value)).toEqual(['Взаимопомощь как фактор эволюции']);
      expect((await suggest('Взаимо')).map((s) => s.value)).toEqual(['Взаимопомощь как фактор эволюции']);
      expect((await suggest('war and p')).map((s) => s.value)).toEqual([]);
      expect((await suggest('voyna i')).map((s) => s.value)).toEqual(['Война и мир']);
    });

    it('puts titles starting with the words first, then the shorter', async () => {
      const s = await suggest('essay');
      expect(s.map((x) => x.value)).toEqual(['First Essay', 'Second Essay', 'Anthology of Essays']);
      expect((await suggest('anthology o')).map((x) => x.value)).toEqual(['Anthology of Essays']);
    });

    it('suggests nothing the viewer may not see, and nothing for fewer than two letters', async () => {
      expect(await suggest('secret')).toEqual([]);
      expect(await suggest('hidden')).toEqual([]);
      expect(await suggest('m')).toEqual([]);
      expect(await suggest('')).toEqual([]);
    });

    it('refuses a typed text over 200 characters', async () => {
      const res = await t.app.inject(`/collector/api/suggest?q=${'a'.repeat(201)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('error');
    });
  });

  describe('an index built before the Latin forms', () => {
    it('is rebuilt once at start, after which Latin letters find the Cyrillic entry', async () => {
      const s = t.services.db.sqlite;
      const id = s.prepare("SELECT id FROM entries WHERE title = 'Бесы'").pluck().get() as number;
      // The row as an older format stored it: the text as written only (on PostgreSQL in the node's text mirror).
      const fts = dialect === 'postgres' ? t.services.search.mirror!.conn : s;
      fts.prepare('DELETE FROM entry_fts WHERE rowid = ?').run(id);
      const older = ['бесы', 'фёдор достоевский', '', ''];
      fts.prepare('INSERT INTO entry_fts (rowid, title, authors, body, fulltext) VALUES (?, ?, ?, ?, ?)').run(id, ...older);
      s.prepare("INSERT INTO settings (name, value) VALUES ('index_format', '1') ON CONFLICT (name) DO UPDATE SET value = excluded.value").run();
      expect(titles(await q('besy'))).toEqual([]);

      const logged: string[] = [];
      const rebuilt = t.services.indexer.ensureFormat((m) => logged.push(m));
      expect(rebuilt).toBeGreaterThan(10);
      expect(logged[0]).toMatch(/^Rebuilding the search index for \d+ entries/);
      expect(titles(await q('besy'))).toEqual(['Бесы']);
      // Recorded: the next start does nothing.
      expect(t.services.indexer.ensureFormat()).toBe(0);
    });
  });
});
