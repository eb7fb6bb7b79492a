// The search on each back end (FTS5 in the catalogue on SQLite, in the node's text mirror on PostgreSQL:
// search/text-mirror.ts): the same catalogue, the same queries of every kind, the same entries. The full app's search tests (search.test.ts
// and others) run on SQLite through test/fixture.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '@uc/shared';
import { openDatabase, type Db } from '../db/index.ts';
import { BACKENDS, dropTestDatabases, migratedTestDatabase } from '../test/backends.ts';
import { CatalogueRows } from '../test/catalogue-rows.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { LibraryService } from '../libraries/service.ts';
import { AgentService } from '../agents/service.ts';
import { AuthorResolver } from '../agents/resolve.ts';
import { ExclusionStore } from '../curation/exclusions.ts';
import { Indexer } from './indexer.ts';
import { SearchService, type SearchParams } from './service.ts';

afterAll(() => dropTestDatabases());

function searchOn(db: Db): SearchService {
  return new SearchService(db, new LibraryService(db), new AgentService(db), new ExclusionStore(db), new AuthorResolver(db));
}

/** A small catalogue: folding, other scripts, punctuation inside words, descriptions and full texts, a private library. */
function writeCatalogue(db: Db): { open: number; closed: number; ids: number[] } {
  const rows = new CatalogueRows(db);
  const open = rows.library('Biblioteca Uno');
  const two = rows.library('Archive Two');
  const closed = rows.library('Private Three', { public: 0 });
  const ids: number[] = [];
  const add = (title: string, authors: string[], languages: string[], site: number, o: { subtitle?: string; description?: string; fullText?: string; original?: number } = {}) => {
    const id = rows.entry(title, { authors, languages, subtitle: o.subtitle, original: o.original });
    const ds = rows.record(site, id, { authors, languages, description: o.description });
    if (o.fullText) db.sqlite.prepare('UPDATE data_sources SET full_text = ? WHERE id = ?').run(o.fullText, ds);
    ids.push(id);
    return id;
  };
  add('La libertà e il lavoro', ['Errico Malatesta'], ['it'], open.site);
  const aid = add('Mutual Aid', ['Peter Kropotkin'], ['en'], open.site, { subtitle: 'A Factor of Evolution', description: 'Essays on cooperation among animals' });
  add("L'Entraide", ['Peter Kropotkin'], ['fr'], two.site, { original: aid });
  add('Fields, Factories and Workshops', ['Peter Kropotkin'], ['en'], two.site);
  add('Взаимопомощь как фактор эволюции', ['Пётр Кропоткин'], ['ru'], open.site, { original: aid });
  add('Θεός και κράτος', ['Μιχαήλ Μπακούνιν'], ['el'], open.site);
  add('God and the State', ['Michael Bakunin'], ['en'], two.site);
  add('Straße der Freiheit', ['Erich Mühsam'], ['de'], open.site);
  add('Œuvres complètes', ['Élisée Reclus'], ['fr'], open.site);
  add('E-mail and the Anarchist', ['Jane Doe'], ['en'], open.site, { description: 'Version 3.14 of the essay, see x.org/a' });
  add('Notes from Lyon', ['Anonymous'], ['fr'], open.site, { fullText: 'Une lettre de Pierre Kropotkine, écrite à Clairvaux. Mutual help in prison.' });
  add('Secret Private Work', ['Peter Kropotkin'], ['en'], closed.site);
  return { open: open.id, closed: closed.id, ids };
}

const params = (query: string, more: Partial<SearchParams> = {}): SearchParams => ({ query, page: 1, pageSize: 100, filters: {}, exact: true, ...more });
const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
const sorted = (r: SearchResponse) => titles(r).sort();

/** Queries of every kind and the entries each finds (as titles, any order). */
const QUERIES: [string, string[]][] = [
  // "Kropotkine" in a French full text is the same word to the French stemmer (search/analysis.ts).
  ['kropotkin', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Notes from Lyon', 'Взаимопомощь как фактор эволюции']],
  ['liberta', ['La libertà e il lavoro']],
  ['LIBERTÀ', ['La libertà e il lavoro']],
  ['mutual aid', ['Mutual Aid']],
  ['"mutual aid"', ['Mutual Aid']],
  ['"aid mutual"', []],
  // A phrase does not run from a title into its authors.
  ['"evolution peter"', []],
  ['"factor of evolution"', ['Mutual Aid']],
  ['kropotkin NOT aid', ['Fields, Factories and Workshops', "L'Entraide", 'Notes from Lyon', 'Взаимопомощь как фактор эволюции']],
  ['kropotkin -aid -entraide', ['Fields, Factories and Workshops', 'Notes from Lyon', 'Взаимопомощь как фактор эволюции']],
  ['"kropotkin"', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Взаимопомощь как фактор эволюции']],
  // Μπακούνιν is "bakounin" in Latin letters.
  ['malatesta OR bakunin', ['God and the State', 'La libertà e il lavoro']],
  ['(kropotkin OR bakunin) state', ['God and the State']],
  ['kropotkin AND fields', ['Fields, Factories and Workshops']],
  ['title:kropotkin', []],
  ['author:kropotkin', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Взаимопомощь как фактор эволюции']],
  ['title:aid', ['Mutual Aid']],
  ['author:"peter kropotkin"', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid']],
  ['title:"god and"', ['God and the State']],
  ['fact*', ['Fields, Factories and Workshops', 'Mutual Aid']],
  ['title:fact*', ['Fields, Factories and Workshops', 'Mutual Aid']],
  ['author:mal*', ['La libertà e il lavoro']],
  ['kropotk*', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Notes from Lyon', 'Взаимопомощь как фактор эволюции']],
  // Punctuation inside words splits them the same way on both (PostgreSQL's own parser would keep "e-mail", "3.14", "x.org").
  ['e-mail', ['E-mail and the Anarchist']],
  ['mail', ['E-mail and the Anarchist']],
  ['"e mail anarchist"', []],
  ['e-mai*', ['E-mail and the Anarchist']],
  ['3.14', ['E-mail and the Anarchist']],
  ['14', ['E-mail and the Anarchist']],
  ['org', ['E-mail and the Anarchist']],
  // Folding: ß, ligatures, diacritics; apostrophes split words.
  ['strasse', ['Straße der Freiheit']],
  ['Straße', ['Straße der Freiheit']],
  ['oeuvres completes', ['Œuvres complètes']],
  ['muhsam', ['Straße der Freiheit']],
  ['elisee', ['Œuvres complètes']],
  ["l'entraide", ["L'Entraide"]],
  ['entraide', ["L'Entraide"]],
  // Cyrillic and Greek: as written and in Latin letters, both ways.
  ['Кропоткин', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Взаимопомощь как фактор эволюции']],
  ['vzaimopomoshch', ['Взаимопомощь как фактор эволюции']],
  ['"kak faktor"', ['Взаимопомощь как фактор эволюции']],
  ['bakounin', ['Θεός και κράτος']],
  ['Μπακούνιν', ['Θεός και κράτος']],
  ['theos', ['Θεός και κράτος']],
  ['author:Κροπότκιν', ['Fields, Factories and Workshops', "L'Entraide", 'Mutual Aid', 'Взаимопомощь как фактор эволюции']],
  // Descriptions and full texts.
  ['cooperation', ['Mutual Aid']],
  ['clairvaux', ['Notes from Lyon']],
  ['ecrite', ['Notes from Lyon']],
  ['"mutual help"', ['Notes from Lyon']],
  // Filters inside the query and beside it.
  ['language:fr kropotk*', ["L'Entraide", 'Notes from Lyon']],
  ['kropotkin translate:translation', ["L'Entraide", 'Взаимопомощь как фактор эволюции']],
  ['xyzzy', []],
  ['!!!', []],
];

describe.each(BACKENDS)('search on %s', (dialect) => {
  let db: Db;
  let search: SearchService;
  let indexer: Indexer;
  let cat: ReturnType<typeof writeCatalogue>;
  let target: string;
  beforeAll(async () => {
    target = await migratedTestDatabase(dialect);
    db = openDatabase(target);
    cat = writeCatalogue(db);
    indexer = new Indexer(db);
    indexer.reindex(cat.ids);
    search = searchOn(db);
  });
  afterAll(async () => db.close());

  it.each(QUERIES)('%s', (query, expected) => {
    expect(sorted(search.search(params(query), ANONYMOUS))).toEqual([...expected].sort());
  });

  it('applies filter parameters and the library filter prefix', () => {
    expect(sorted(search.search(params('kropotkin', { filters: { language: ['en'] } }), ANONYMOUS))).toEqual(['Fields, Factories and Workshops', 'Mutual Aid']);
    expect(sorted(search.search(params(`library:${cat.open} kropotkin`), ANONYMOUS))).toEqual(['Mutual Aid', 'Notes from Lyon', 'Взаимопомощь как фактор эволюции']);
  });

  it('ranks title and author matches above a full-text one, also in two tiers past the exact-ranking limit', () => {
    // 4: more matches than the limit, the title-and-author tier (four) within it and ranked; 1: both past it.
    for (const limit of [20_000, 4, 1]) {
      search.exactRankLimit = limit;
      const r = titles(search.search(params('kropotk*'), ANONYMOUS));
      expect(r.at(-1)).toBe('Notes from Lyon');
      expect(r).toHaveLength(5);
    }
    search.exactRankLimit = 20_000;
    // A title word outweighs a description word.
    expect(titles(search.search(params('factor'), ANONYMOUS))[0]).toBe('Mutual Aid');
  });

  it('marks the matched words of a full text in a snippet', () => {
    const notes = search.search(params('clairvaux OR kropotk*'), ANONYMOUS).matches.find((m) => m.title[0].value === 'Notes from Lyon');
    expect(notes?.snippet?.parts.filter((p) => p.match).map((p) => p.text)).toEqual(['Kropotkine', 'Clairvaux']);
    const title = search.search(params('title:clairvaux OR workshops'), ANONYMOUS).matches;
    expect(title.every((m) => !m.snippet)).toBe(true);
  });

  it('indexes inside the caller’s transaction as an import does, with the same answers', () => {
    const restore = indexer.bulkSettings();
    db.sqlite.transaction(() => {
      indexer.reindex(cat.ids, { inTransaction: true });
      restore();
    }).immediate();
    for (const [query, expected] of QUERIES.slice(0, 12)) expect(sorted(search.search(params(query), ANONYMOUS)), query).toEqual([...expected].sort());
  });

  it('indexes a long full text whole: its last words and a phrase deep inside it are found', () => {
    const id = cat.ids[cat.ids.length - 2];
    const text = Array.from({ length: 150_000 }, (_, i) => `w${i}`).join(' ');
    db.sqlite.prepare('UPDATE data_sources SET full_text = ? WHERE entry_id = ?').run(text, id);
    indexer.reindex([id]);
    expect(titles(search.search(params('w1 w2'), ANONYMOUS))).toEqual(['Notes from Lyon']);
    expect(titles(search.search(params('"w10 w11"'), ANONYMOUS))).toEqual(['Notes from Lyon']);
    expect(titles(search.search(params('w149999'), ANONYMOUS))).toEqual(['Notes from Lyon']);
    expect(titles(search.search(params('"w120000 w120001"'), ANONYMOUS))).toEqual(['Notes from Lyon']);
  });

  it('finds a reindexed entry by its new words only, also when another connection wrote it (sync by seq)', async () => {
    const other = openDatabase(target);
    try {
      const id = cat.ids[0];
      other.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?').run('Il lavoro e la solidarietà', id);
      other.sqlite.prepare('UPDATE data_sources SET title = ? WHERE entry_id = ?').run('Il lavoro e la solidarietà', id);
      new Indexer(other).reindex([id]);
    } finally {
      await other.close();
    }
    expect(titles(search.search(params('solidarieta'), ANONYMOUS))).toEqual(['Il lavoro e la solidarietà']);
    expect(titles(search.search(params('liberta'), ANONYMOUS))).toEqual([]);
    expect(titles(search.search(params('"il lavoro"'), ANONYMOUS))).toEqual(['Il lavoro e la solidarietà']);
  });

  it('catches up with another connection’s writes between requests (followChanges)', async () => {
    const stop = search.followChanges();
    const other = openDatabase(target);
    try {
      const id = cat.ids[1];
      other.sqlite.prepare('UPDATE entries SET title = ? WHERE id = ?').run('The Conquest of Bread', id);
      new Indexer(other).reindex([id]);
      const seq = other.sqlite.prepare('SELECT max(seq) FROM search_docs').pluck().get() as number;
      await vi.waitFor(() => expect(search.indexedSeq).toBe(seq), { timeout: 5000 });
      expect(titles(search.search(params('conquest'), ANONYMOUS))).toEqual(['The Conquest of Bread']);
    } finally {
      stop();
      await other.close();
    }
  });
});

describe.skipIf(BACKENDS.length < 2)('ranking on both back ends', () => {
  it('gives the same order for ranked queries (bm25 on both: PostgreSQL ranks in its text mirror)', async () => {
    const searches: SearchService[] = [];
    const dbs: Db[] = [];
    try {
      for (const dialect of BACKENDS) {
        const db = openDatabase(await migratedTestDatabase(dialect));
        dbs.push(db);
        const cat = writeCatalogue(db);
        new Indexer(db).reindex(cat.ids);
        searches.push(searchOn(db));
      }
      for (const query of ['kropotkin', 'fact*', 'mutual OR state', 'author:kropotkin', 'kropotk* -aid', 'Кропоткин']) {
        const [lite, pg] = searches.map((s) => titles(s.search(params(query, { sortBy: 'relevance' }), ANONYMOUS)));
        expect(pg, query).toEqual(lite);
        expect(lite!.length, query).toBeGreaterThan(0);
      }
    } finally {
      for (const db of dbs) await db.close();
    }
  });
});
