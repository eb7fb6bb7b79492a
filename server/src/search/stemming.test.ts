// Search that understands word forms (issue 30): each record is stemmed in its own languages, a query
// word finds its other forms in the records of every language, a quoted word only itself, and no stem
// reaches a record of another language by accident. Both back ends, the same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { stemLanguage, stemText, withoutElision } from './analysis.ts';

afterAll(() => dropTestDatabases());

function writeCatalogue(db: Db): number[] {
  const rows = new CatalogueRows(db);
  const lib = rows.library('Biblioteca Uno');
  const ids: number[] = [];
  const add = (title: string, languages: string[], o: { authors?: string[]; subtitle?: string; description?: string; fullText?: string } = {}) => {
    const authors = o.authors ?? ['Nomen Nescio'];
    const id = rows.entry(title, { authors, languages, subtitle: o.subtitle });
    const ds = rows.record(lib.site, id, { authors, languages, description: o.description });
    if (o.fullText) db.sqlite.prepare('UPDATE data_sources SET full_text = ? WHERE id = ?').run(o.fullText, ds);
    ids.push(id);
  };
  add('The Library Question', ['en']);
  add('Public Libraries of the North', ['en']);
  add('Harbour Notes', ['en'], { fullText: 'In the winter the workers organised a reading room beside the docks.' });
  add('Art and Craft', ['en']);
  add('Die Bibliotheken der Stadt', ['de']);
  add('Kleine Bücher', ['de'], { description: 'Ein Buch für jeden Tag' });
  add('Le biblioteche popolari', ['it']);
  add('I librari di Venezia', ['it']);
  add("Storia dell'arte operaia", ['it']);
  add("Viaggio d'Italia", ['it'], { subtitle: 'Lettere di un operaio' });
  add("Pour l'école nouvelle", ['fr']);
  add('Les écoles libres', ['fr']);
  add('Los trabajadores del puerto', ['es']);
  add('Рабочие и книги', ['ru']);
  add('Οι βιβλιοθήκες της πόλης', ['el']);
  add('Η βιβλιοθήκη', ['el']);
  // Author names stay as written: "Workers" is a name here.
  add('Sea Charts', ['en'], { authors: ['Anna Workers'] });
  add('Zeitschrift ohne Sprache', []);
  return ids;
}

const params = (query: string, more: Partial<SearchParams> = {}): SearchParams => ({ query, page: 1, pageSize: 100, filters: {}, exact: true, ...more });
const titles = (r: SearchResponse) => r.matches.map((m) => m.title[0].value);
const sorted = (r: SearchResponse) => titles(r).sort();

/** Queries and the entries each finds (as titles, any order). */
const QUERIES: [string, string[]][] = [
  // English: plural and singular, verb forms, a full text.
  ['libraries', ['Public Libraries of the North', 'The Library Question']],
  ['library', ['Public Libraries of the North', 'The Library Question']],
  ['organise worker', ['Harbour Notes']],
  ['organising', ['Harbour Notes']],
  // German: plural; umlauts folded before stemming.
  ['Bibliothek', ['Die Bibliotheken der Stadt']],
  ['buch', ['Kleine Bücher']],
  ['Bücher', ['Kleine Bücher']],
  // Italian: plural; elision in the record and in the query.
  ['biblioteca', ['Le biblioteche popolari']],
  ['arte', ['Art and Craft', "Storia dell'arte operaia"]],
  ["dell'arte", ['Art and Craft', "Storia dell'arte operaia"]],
  ['Italia', ["Viaggio d'Italia"]],
  ["d'Italia", ["Viaggio d'Italia"]],
  ['operaie', ["Storia dell'arte operaia", "Viaggio d'Italia"]],
  // French: elision and plural.
  ['école', ["Pour l'école nouvelle", 'Les écoles libres']],
  ["l'écoles", ["Pour l'école nouvelle", 'Les écoles libres']],
  ['ecole', ["Pour l'école nouvelle", 'Les écoles libres']],
  // Spanish: plural.
  ['trabajador', ['Los trabajadores del puerto']],
  // Russian: case and number.
  ['рабочий', ['Рабочие и книги']],
  ['книга', ['Рабочие и книги']],
  // Greek: number and case, with or without accents.
  ['βιβλιοθήκη', ['Η βιβλιοθήκη', 'Οι βιβλιοθήκες της πόλης']],
  ['βιβλιοθηκων', ['Η βιβλιοθήκη', 'Οι βιβλιοθήκες της πόλης']],
  ['πόλη', ['Οι βιβλιοθήκες της πόλης']],
  // Quotes: as written (folded only).
  ['"libraries"', ['Public Libraries of the North']],
  ['"library question"', ['The Library Question']],
  ['"βιβλιοθήκη"', ['Η βιβλιοθήκη']],
  ['"ecoles"', ['Les écoles libres']],
  // Precision: an English word does not reach the Italian "librari" (booksellers), nor "arts" the Italian "arte".
  ['arts', ['Art and Craft']],
  // Authors are not stemmed; title:, wildcards, NOT, OR and filters keep working.
  ['author:worker', []],
  ['author:workers', ['Sea Charts']],
  ['title:libraries', ['Public Libraries of the North', 'The Library Question']],
  ['librar*', ['I librari di Venezia', 'Public Libraries of the North', 'The Library Question']],
  ['library NOT question', ['Public Libraries of the North']],
  ['library OR trabajador', ['Los trabajadores del puerto', 'Public Libraries of the North', 'The Library Question']],
  ['library language:en', ['Public Libraries of the North', 'The Library Question']],
  ['biblioteca language:en', []],
  // A record without a language keeps its exact words.
  ['zeitschrift', ['Zeitschrift ohne Sprache']],
  ['zeitschriften', []],
];

describe('the analysis (analysis.ts)', () => {
  it('knows the languages of records by two- and three-letter codes', () => {
    expect(['en', 'eng', 'de', 'ger', 'deu', 'ell', 'gre', 'el', 'it', 'fr', 'fra', 'es', 'ru', 'pt', 'nl', 'sv'].map(stemLanguage)).toEqual(
      ['en', 'en', 'de', 'de', 'de', 'el', 'el', 'el', 'it', 'fr', 'fr', 'es', 'ru', 'pt', 'nl', 'sv']);
    expect(stemLanguage('hr')).toBeNull();
  });
  it('tags each stem with its language', () => {
    expect(stemText('the libraries', ['en'])).toBe('00enthe 00enlibrari');
    expect(stemText('libri', ['it', 'en'])).toBe('00itlibr 00enlibri');
  });
  it('drops an elided article from a query word, not an English clitic', () => {
    expect(withoutElision("dell'arte", ['dell', 'arte'])).toBe('arte');
    expect(withoutElision('l’école', ['l', 'ecole'])).toBe('ecole');
    expect(withoutElision("all's", ['all', 's'])).toBeNull();
    expect(withoutElision('e-mail', ['e', 'mail'])).toBeNull();
  });
});

describe.each(BACKENDS)('word forms on %s', (dialect) => {
  let db: Db;
  let search: SearchService;
  beforeAll(async () => {
    db = openDatabase(await migratedTestDatabase(dialect));
    const ids = writeCatalogue(db);
    new Indexer(db).reindex(ids);
    search = new SearchService(db, new LibraryService(db), new AgentService(db), new ExclusionStore(db), new AuthorResolver(db));
  });
  afterAll(() => db?.close());

  it.each(QUERIES)('%s', (query, expected) => {
    expect(sorted(search.search(params(query), ANONYMOUS))).toEqual([...expected].sort());
  });

  it('ranks the form as typed above another form of the word', () => {
    expect(titles(search.search(params('library'), ANONYMOUS))).toEqual(['The Library Question', 'Public Libraries of the North']);
    expect(titles(search.search(params('libraries'), ANONYMOUS))).toEqual(['Public Libraries of the North', 'The Library Question']);
    expect(titles(search.search(params('βιβλιοθήκες'), ANONYMOUS))[0]).toBe('Οι βιβλιοθήκες της πόλης');
    expect(titles(search.search(params('βιβλιοθήκη'), ANONYMOUS))[0]).toBe('Η βιβλιοθήκη');
  });

  it('marks the form found in a full text', () => {
    const notes = search.search(params('organise worker'), ANONYMOUS).matches.find((m) => m.title[0].value === 'Harbour Notes');
    expect(notes?.snippet?.parts.filter((p) => p.match).map((p) => p.text)).toEqual(['workers', 'organised']);
  });

  it('offers no correction for another form of a word that matches', () => {
    // "questions" is no title word, "question" is; the stem of "questions" finds the English title.
    expect(search.correctQuery('questions', new Set(), () => true)).toBeNull();
    expect(search.correctQuery('questions', new Set(), () => false)).toBe('question');
    const r = search.search(params('libraries', { exact: false }), ANONYMOUS);
    expect(r.did_you_mean).toBeNull();
    expect(r.total_entries).toBe(2);
    // Plural and case forms: the stems find the records, nothing to correct.
    for (const query of ['biblioteca', 'bibliothek', 'trabajador', 'рабочий', 'βιβλιοθηκων']) {
      expect(search.search(params(query, { exact: false }), ANONYMOUS).did_you_mean, query).toBeNull();
    }
  });

  it('corrects a misspelt word, not an elided article nor another form', () => {
    // "nell" is no title word ("dell" is), but the query drops it as an elided article: nothing to correct.
    expect(search.correctQuery("nell'arte", new Set(), () => false)).toBeNull();
    expect(search.correctQuery("quell'operaia", new Set(), () => false)).toBeNull();
    // A misspelt word beside an elision is still corrected, the article kept as typed.
    expect(search.correctQuery("nell'ecolle", new Set(), () => false)).toBe("nell'ecole");
    const r = search.search(params('libraries questionn', { exact: false }), ANONYMOUS);
    expect(r.did_you_mean).toBe('libraries question');
    expect(titles(r)).toEqual(['The Library Question']);
  });

  it('suggests as a query finds: folded, and past an elided article', () => {
    const suggested = (typed: string) => search.suggest(typed, ANONYMOUS).map((s) => s.value).sort();
    expect(suggested("l'écol")).toEqual(["Pour l'école nouvelle", 'Les écoles libres'].sort());
    expect(suggested('L’ECOL')).toEqual(["Pour l'école nouvelle", 'Les écoles libres'].sort());
    expect(suggested("dell'arte op")).toEqual(["Storia dell'arte operaia"]);
    // An English clitic is no elision.
    expect(suggested("all's")).toEqual([]);
    expect(suggested('βιβλιοθη')).toEqual(['Η βιβλιοθήκη', 'Οι βιβλιοθήκες της πόλης'].sort());
  });
});
