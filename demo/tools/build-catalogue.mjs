#!/usr/bin/env node
// Builds demo/catalogue.jsonl from the data tables in demo/tools/data/ (no dependencies).
//   node demo/tools/build-catalogue.mjs
// Deterministic: every random choice comes from a PRNG seeded with the key of the record, so the same
// tables always give a byte-identical file, and editing one work does not reshuffle the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIBRARIES } from './data/libraries.mjs';
import { LOCAL_DESCRIPTIONS, WORKS } from './data/works.mjs';
import { MUSE_TEXTS, PDF_TEXTS } from './data/own-texts.mjs';
import { FOR_CURATORS } from './data/for-curators.mjs';
import { OTHER_SCRIPTS } from './data/other-scripts.mjs';
import { PAGES, SETTINGS } from './data/pages.mjs';
import { PDFS } from './make-pdfs.mjs';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- helpers
function hash(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) { h ^= str.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}
function prng(key) {
  let a = hash(key) || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (rnd, lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (rnd, arr) => arr[Math.floor(rnd() * arr.length)];
const fold = (s) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
// Transliteration for the slugs of amusewiki identifiers (Cyrillic and Greek; other scripts fall back to ids).
const TRANSLIT = Object.fromEntries([
  ...'а:a б:b в:v г:g д:d е:e ё:e ж:zh з:z и:i й:i к:k л:l м:m н:n о:o п:p р:r с:s т:t у:u ф:f х:kh ц:ts ч:ch ш:sh щ:shch ъ: ы:y ь: э:e ю:iu я:ia'.split(' '),
  ...'α:a β:v γ:g δ:d ε:e ζ:z η:i θ:th ι:i κ:k λ:l μ:m ν:n ξ:x ο:o π:p ρ:r σ:s ς:s τ:t υ:y φ:f χ:ch ψ:ps ω:o'.split(' '),
].map((p) => p.split(':')));
const slugify = (s) => [...fold(s).replace(/['’]/g, '')].map((ch) => TRANSLIT[ch] ?? ch).join('').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const lastName = (name) => {
  if (name.includes(',')) return name.split(',')[0].trim(); // "Surname, Forename", as library catalogues write it
  const parts = name.replace(/[«»"]/g, '').split(/\s+/);
  return parts[parts.length - 1];
};

function isbn13(rnd, group) {
  let digits = '978' + group;
  while (digits.length < 12) digits += String(int(rnd, 0, 9));
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 ? 3 : 1);
  return digits + String((10 - (sum % 10)) % 10);
}
const ISBN_GROUP = {
  en: ['0', '1'], fr: ['2'], de: ['3'], ja: ['4'], ru: ['5'], zh: ['7'], es: ['84', '950', '968'], ca: ['84'],
  it: ['88'], pt: ['85', '972'], nl: ['90'], sv: ['91'], pl: ['83'], cs: ['80'], el: ['960'], hr: ['953'],
  hu: ['963'], da: ['87'], no: ['82'], eo: ['92'], ar: ['9953'], bn: ['81'], gu: ['81'], st: ['99911'],
};

// Fictional publishers of later editions, by the language of the edition: [name, place].
const PUBLISHERS = {
  en: {
    old: [['Cooperative Printing Society', 'Manchester'], ['Free Reading Tract Society', 'London'], ['Workmen\'s Library Association', 'New York']],
    new: [['Harbour & Fenn', 'London'], ['Lantern Street Press', 'Philadelphia'], ['Tidewater Editions', 'Boston'], ['Old Mill Classics', 'Leeds'],
      ['Bramble Books', 'Melbourne'], ['Northgate Reprints', 'Toronto'], ['Quarry Hill Press', 'Chicago'], ['Saltmarsh Publishing', 'Cape Town']],
  },
  it: {
    old: [['Tipografia Cooperativa Sociale', 'Milano'], ['Libreria Editrice dei Lavoratori', 'Bologna']],
    new: [['Edizioni Ginestra', 'Firenze'], ['Officina del Libro Libero', 'Bologna'], ['Edizioni del Porto Franco', 'Trieste'],
      ['Casa editrice Corbezzolo', 'Roma'], ['Edizioni Tramontana', 'Napoli']],
  },
  fr: {
    old: [['Imprimerie ouvrière', 'Paris'], ['Bibliothèque des Temps Futurs', 'Lyon']],
    new: [['Éditions du Ruisseau', 'Lyon'], ['Éditions L\'Églantine', 'Paris'], ['Les Presses de la Croix-Rousse', 'Lyon'],
      ['Librairie du Canal', 'Paris'], ['Éditions de la Lune Rousse', 'Marseille'], ['Éditions Érable', 'Montréal']],
  },
  de: {
    old: [['Verlag des Arbeiter-Bildungsvereins', 'Zürich'], ['Genossenschafts-Buchdruckerei', 'Berlin']],
    new: [['Edition Brennnessel', 'Berlin'], ['Weidenbaum Verlag', 'Leipzig'], ['Verlag Am Hafen', 'Hamburg'], ['Edition Kiesel', 'Wien'],
      ['Kranich Verlag', 'Frankfurt am Main']],
  },
  ru: {
    old: [['Типография «Общая польза»', 'Санкт-Петербург']],
    new: [['Издательство «Северный ветер»', 'Москва'], ['Издательство «Грамота и труд»', 'Санкт-Петербург'], ['Издательство «Левый берег»', 'Москва']],
  },
  es: {
    old: [['Imprenta Obrera', 'Barcelona'], ['Biblioteca del Centro Obrero', 'Buenos Aires']],
    new: [['Ediciones La Alborada', 'Madrid'], ['Editorial Tierra y Pan', 'Buenos Aires'], ['Ediciones del Sur Común', 'Montevideo'],
      ['Editorial Jacarandá', 'Ciudad de México'], ['Ediciones Candil', 'Barcelona']],
  },
  ca: { new: [['Edicions La Flama', 'Barcelona'], ['Llibres del Teixidor', 'Barcelona']] },
  pt: {
    old: [['Typographia Operaria', 'São Paulo']],
    new: [['Edições Semente', 'São Paulo'], ['Editora Ipê Amarelo', 'Rio de Janeiro'], ['Edições Maré Cheia', 'Lisboa']],
  },
  el: { new: [['Εκδόσεις Ανεμώνη', 'Θεσσαλονίκη'], ['Εκδόσεις Λιμάνι', 'Αθήνα']] },
  hr: { new: [['Naklada Jadran', 'Rijeka'], ['Naklada Lipa', 'Zagreb'], ['Biblioteka Tiskara', 'Split']] },
  sv: { new: [['Bokförlaget Lärkan', 'Stockholm'], ['Förlaget Havtorn', 'Göteborg']] },
  no: { new: [['Forlaget Fjellvind', 'Oslo']] },
  da: { new: [['Forlaget Strandeng', 'København']] },
  nl: { new: [['Uitgeverij De Kaap', 'Amsterdam'], ['Uitgeverij Waterstaat', 'Utrecht']] },
  pl: { new: [['Wydawnictwo Jaskółka', 'Kraków']] },
  cs: { new: [['Nakladatelství Vlaštovka', 'Praha']] },
  hu: { new: [['Pipacs Kiadó', 'Budapest']] },
  eo: { new: [['Eldonejo Verda Stelo', 'Rotterdam']] },
  ja: { new: [['青葉書房', '東京'], ['風見社', '京都']] },
  zh: { new: [['晨光書局', '上海']] },
  bn: { new: [['আলো প্রকাশনী', 'কলকাতা']] },
  gu: { new: [['Sabarmati Reprints', 'Ahmedabad']] },
  ar: { new: [['دار النخلة', 'بيروت']] },
  st: { new: [['Lesotho Reading Press', 'Maseru']] },
};
const TRANSLATED_BY = {
  en: 'Translated by', fr: 'Traduit par', de: 'Übersetzt von', it: 'Traduzione di', es: 'Traducción de', ru: 'Перевод:',
  eo: 'Tradukis', pt: 'Tradução de',
};
const EDITION_STATEMENTS = {
  en: ['New edition', 'Second edition', 'Reprint', 'Facsimile of the first edition', 'Unabridged edition'],
  it: ['Nuova edizione', 'Seconda edizione', 'Ristampa anastatica', 'Edizione integrale'],
  fr: ['Nouvelle édition', 'Deuxième édition', 'Réimpression', 'Édition intégrale'],
  de: ['Neuausgabe', '2. Auflage', 'Nachdruck', 'Vollständige Ausgabe'],
  es: ['Nueva edición', 'Segunda edición', 'Reimpresión', 'Edición facsimilar'],
};
const COPY_NOTES = [
  'Library copy with the stamp of a former workers\' club on the title page.',
  'Pencil annotations in the margins by a previous reader.',
  'Donated from the collection of a retired schoolteacher.',
  'Spine repaired with linen tape; text complete.',
  'Bound together with two other pamphlets of the same years.',
  'Second copy available for exchange with other libraries.',
  'Dust jacket missing; ex-libris of a private collection inside the front cover.',
  'Read-only copy: fragile paper, ask at the desk.',
];

// Dewey-like class numbers for the shelf codes.
const LIT = { en: ['823', '821'], fr: ['843', '841'], de: ['833', '831'], it: ['853', '851'], es: ['863', '861'], ca: ['849.93', '849.91'],
  pt: ['869.3', '869.1'], ru: ['891.73', '891.71'], el: ['889.3', '889.1'], hr: ['891.83', '891.81'], sv: ['839.73', '839.71'],
  no: ['839.823', '839.821'], da: ['839.813', '839.811'], nl: ['839.313', '839.311'], pl: ['891.853', '891.851'], cs: ['891.863', '891.861'],
  hu: ['894.511', '894.511'], eo: ['899.992', '899.992'], ja: ['895.63', '895.61'], zh: ['895.13', '895.11'], bn: ['891.443', '891.441'],
  gu: ['891.473', '891.471'], ar: ['892.73', '892.71'], st: ['896.3977', '896.3977'] };
const PHIL = { en: '191', fr: '194', de: '193', it: '195', es: '196', ru: '197', da: '198.9', sv: '198.5' };
function classNumber(work, lang) {
  switch (work.topic) {
    case 'lit': return (LIT[lang] ?? ['800'])[0];
    case 'poe': return (LIT[lang] ?? ['800', '808.81'])[1];
    case 'pol': return /anarch|kropotkin|malatesta|bakunin|proudhon|reclus|goldman|berkman|landauer|mühsam|grave|faure|tucker|cleyre|stirner/i.test(work.authors.join(' ')) ? '335.83' : '320.5';
    case 'phil': return PHIL[lang] ?? '100';
    case 'sci': return /darwin|wallace|huxley|lamarck|mendel|haeckel|kropotkin/i.test(work.authors.join(' ')) ? '576.8' : /reclus|humboldt/i.test(work.authors.join(' ')) ? '910' : '500';
    case 'hist': return /memoir|mémoires|narrative|memorias|записки|autobiograph|life|vida|gedenkschriften/i.test(work.title + ' ' + (work.subtitle ?? '')) ? '920' : '909';
    default: return '000';
  }
}
function cutter(name) {
  const s = fold(lastName(name)).replace(/[^\p{L}]/gu, '').toUpperCase();
  return s.slice(0, 3) || 'ANO';
}

// ---------------------------------------------------------------- libraries
const LIB = new Map(LIBRARIES.map((l) => [l.id, l]));
const libCounters = new Map(LIBRARIES.map((l) => [l.id, { n: 1000 + (hash(l.name) % 4000), used: new Set() }]));

function identifierFor(lib, entry, rnd) {
  const c = libCounters.get(lib.id);
  let id;
  if (lib.ident === 'slug') {
    const author = slugify(entry.authors.map(lastName).join(' '));
    const title = slugify(entry.title);
    const base = entry.slug ?? (title ? `${author}-${title}`.replace(/^-/, '') : `${author || 'text'}-${entry.id}`).slice(0, 70).replace(/-$/, '');
    id = base;
    for (let k = 2; c.used.has(id); k++) id = `${base}-${k}`;
  } else {
    c.n += int(rnd, 1, 37);
    id = lib.ident === 'koha' ? String(c.n) : `${lib.ident}-${String(c.n).padStart(6, '0')}`;
  }
  c.used.add(id);
  return id;
}
function uriFor(lib, identifier) {
  switch (lib.site_type) {
    case 'amusewiki': return [`${lib.site_url}/library/${identifier}`, 'Read online'];
    case 'koha': return [`${lib.site_url.replace(/\/opac$/, '')}/cgi-bin/koha/opac-detail.pl?biblionumber=${identifier}`, 'OPAC record'];
    case 'calibretree': return [`${lib.site_url}/book/${identifier}`, 'Book page'];
    case 'generic': return lib.site_url ? [`${lib.site_url}/record/${identifier}`, 'Catalogue record'] : [null, null];
    default: return [null, null];
  }
}
function shelfCode(lib, work, lang, rnd) {
  if (lib.id === 11) return null; // purely digital collection
  const cls = classNumber(work, lang);
  const cut = cutter(work.authors[0]);
  if (lib.id === 4 || lib.id === 15) return `${lib.shelf} Mag. ${int(rnd, 1, 9)}/${String(int(rnd, 1, 480)).padStart(3, '0')}`;
  if (lib.id === 8) return `${lib.shelf} b. ${int(rnd, 1, 60)}, fasc. ${int(rnd, 1, 24)}`;
  return `${lib.shelf} ${cls} ${cut}`;
}

// ---------------------------------------------------------------- editions
const TOPIC_PAGES = { lit: [180, 520], poe: [80, 260], pol: [120, 420], phil: [140, 480], sci: [180, 560], hist: [160, 480] };
// Works whose length is far from the average of their topic (translations use the class of their original).
const LENGTH_CLASSES = {
  pamphlet: [[16, 64], 'wilde-soul morris-useful thoreau-resistance thoreau-slavery thoreau-principle paine-common wells-ida-southern ' +
    'spooner-treason malatesta-contadini malatesta-anarchia marx-manifest marx-lohnarbeit lafargue-paresse reclus-paysan buchner-landbote ' +
    'kant-frieden marti-america luxemburg-sozialreform muhsam-befreiung kropotkin-anarchie mendel-versuche emerson-nature pshelley-anarchy ' +
    'foscolo-sepolcri gilman-wallpaper melville-bartleby tristan-union'],
  short: [[48, 160], 'laboetie-servitude bakunin-dieu luxemburg-revolution tolstoy-ilyich gogol-shinel chekhov-palata chekhov-dama ' +
    'kafka-verwandlung schnitzler-gustl schnitzler-traumnovelle hoffmann-sandmann droste-judenbuche akutagawa-rashomon akutagawa-kumo ' +
    'akutagawa-yabu higuchi-takekurabe andreyev-povesheny blok-dvenadtsat dickens-carol stevenson-jekyll wells-time conrad-darkness ' +
    'assis-alienista wilde-ballad rimbaud-saison blake-songs mazuranic-smrt petofi-janos ismaelillo marti-ismaelillo marti-sencillos ' +
    'dario-azul agustini-libro tsvetaeva-albom muhsam-wuste muhsam-krater trakl-gedichte engels-ursprung marx-brumaire gandhi-hind ' +
    'reclus-ruisseau reclus-montagne carpenter-civilisation wilde-happy lawson-billy rodo-ariel pelloutier-bourses'],
  play: [[80, 200], 'shakespeare-hamlet ibsen-dukkehjem ibsen-gengangere ibsen-folkefiende strindberg-julie jarry-ubu pirandello-personaggi ' +
    'capek-rur chekhov-chayka chekhov-sad gorky-dno gogol-revizor schiller-rauber schiller-tell buchner-danton buchner-woyzeck'],
  long: [[760, 1500], 'tolstoy-voina hugo-miserables marx-kapital cervantes-quijote dumas-montecristo eliot-middlemarch dickens-bleak ' +
    'dickens-copperfield melville-moby tolstoy-anna dostoevsky-karamazovy humboldt-kosmos reclus-homme proust-swann hasek-svejk ' +
    'thackeray-vanity mill-principles schopenhauer-welt kant-kritik hegel-phanomenologie byron-juan nievo-confessioni'],
};
const LENGTH_OF = new Map(Object.values(LENGTH_CLASSES).flatMap(([range, keys]) => keys.split(' ').map((k) => [k, range])));
function workLength(work) {
  const key = work.kind === 'translation' ? work.of : work.key;
  const rnd = prng('length:' + key);
  const [lo, hi] = LENGTH_OF.get(key) ?? LENGTH_CLASSES[work.length]?.[0] ?? TOPIC_PAGES[work.topic] ?? [100, 400];
  return int(rnd, lo, hi);
}
function materialDescription(lib, baseLen, yearEdition, topic, rnd) {
  const pages = Math.max(24, Math.round(baseLen * (0.8 + rnd() * 0.45)));
  if (lib.library_type === 'digital' && lib.id === 11) return `1 online resource (${pages} p.)`;
  const cm = pick(rnd, yearEdition < 1900 ? [16, 17, 18, 19, 20, 22, 24] : [17, 18, 19, 20, 21, 21, 22, 23, 24]);
  const front = rnd() < 0.5 ? `${pick(rnd, ['vi', 'viii', 'x', 'xii', 'xiv', 'xvi', 'xx', 'xxiv', 'xxxii'])}, ` : '';
  const ill = topic === 'sci' && rnd() < 0.6 ? ' : ill.' : rnd() < 0.08 ? ' : portr.' : '';
  if (pages > 760 && rnd() < 0.6) return `${Math.ceil(pages / 400)} v.${ill} ; ${cm} cm`;
  return `${front}${pages} p.${ill} ; ${cm} cm`;
}
function pickPublisher(lang, yearEdition, rnd) {
  const p = PUBLISHERS[lang] ?? PUBLISHERS.en;
  const list = yearEdition < 1945 && p.old ? p.old : p.new;
  return pick(rnd, list);
}
function editionYear(work, lib, rnd) {
  const y = work.year;
  if (lib.library_type === 'digital' && lib.id === 11) return int(rnd, Math.max(y, 2012), 2025);
  const r = rnd();
  if (y < 1935 && r < 0.2) return int(rnd, y + 1, 1939);
  if (r < 0.55 && y < 1975) return int(rnd, Math.max(y + 1, 1946), 1979);
  return int(rnd, Math.max(y + 1, 1980), 2025);
}

// Which libraries hold a work: weighted by language and topic, without replacement.
function chooseLibraries(work, rnd, lang) {
  const weights = LIBRARIES.map((l) => [l, (l.holds[lang] ?? 0) * (l.topics[work.topic] ?? 1)]).filter(([, w]) => w > 0);
  const popular = Boolean(work.d);
  const r = rnd();
  let n = r < (popular ? 0.35 : 0.58) ? 1 : r < (popular ? 0.75 : 0.88) ? 2 : 3;
  n = Math.min(n, weights.length);
  const chosen = [];
  while (chosen.length < n) {
    const total = weights.reduce((s, [, w]) => s + w, 0);
    let x = rnd() * total;
    const i = weights.findIndex(([, w]) => (x -= w) < 0);
    chosen.push(weights[i === -1 ? weights.length - 1 : i][0]);
    weights.splice(i === -1 ? weights.length - 1 : i, 1);
  }
  return chosen.sort((a, b) => a.id - b.id);
}

// ---------------------------------------------------------------- entries
const byKey = new Map(WORKS.map((w) => [w.key, w]));
for (const w of WORKS) {
  if (w.kind === 'translation') {
    const orig = byKey.get(w.of);
    if (!orig) throw new Error(`translation ${w.key}: unknown original ${w.of}`);
    w.authors = orig.authors;
    w.topic = orig.topic;
  }
  if (w.kind === 'part') {
    const agg = byKey.get(w.agg);
    if (!agg) throw new Error(`part ${w.key}: unknown aggregation ${w.agg}`);
    w.lang = agg.lang;
    w.year = agg.year;
  }
}

// Libraries that receive the works described in their language (see LOCAL_DESCRIPTIONS).
const LOCAL_LIBRARY = { it: [1], fr: [3, 9], es: [6, 12, 14], de: [4] };

// Explicit holdings for the aggregations (the parts are held wherever their aggregation is).
const AGG_LIBRARIES = { 'lyrical-ballads': [10, 21], 'soirees-medan': [3, 9], 'dial-1840': [10, 20] };

const entries = [];
let nextId = 1;
const idOf = new Map();
const ordered = [
  ...WORKS.filter((w) => w.kind === 'work' || w.kind === 'aggregation'),
  ...WORKS.filter((w) => w.kind === 'part'),
  ...WORKS.filter((w) => w.kind === 'translation'),
];
for (const w of ordered) idOf.set(w.key, nextId++);

const aggHoldings = new Map(); // agg key -> [{lib, year_edition, publisher, place, shelf}]

function buildDataSource(work, lib, rnd, index, entryId) {
  const lang = work.lang;
  const ds = { library_id: lib.id };
  const firstEdition = work.pub && lib.library_type !== 'digital' && work.year >= 1750 && rnd() < (lib.library_type === 'closed' ? 0.35 : 0.06);
  let year, publisher, place, edition = null;
  if (firstEdition) {
    year = work.year; publisher = work.pub; place = work.place ?? null;
    edition = 'First edition';
  } else if (lib.id === 11) {
    year = editionYear(work, lib, rnd); publisher = lib.name; place = lib.city;
    edition = 'Digital edition';
  } else {
    year = editionYear(work, lib, rnd);
    [publisher, place] = pickPublisher(lang, year, rnd);
    if (EDITION_STATEMENTS[lang] && rnd() < 0.25) edition = pick(rnd, EDITION_STATEMENTS[lang]);
  }
  if (work.kind === 'translation' && work.translator) {
    const t = `${TRANSLATED_BY[lang] ?? 'Translated by'} ${work.translator}`;
    edition = edition && edition !== 'First edition' ? `${edition}. ${t}` : t;
  }
  ds.identifier = identifierFor(lib, { ...work, id: entryId }, rnd);
  ds.year_edition = year;
  ds.publisher = publisher;
  ds.isbn = year >= 1975 && lib.id !== 11 && rnd() < 0.55 ? isbn13(rnd, pick(rnd, ISBN_GROUP[lang] ?? ['0'])) : null;
  let description = null;
  const local = LOCAL_DESCRIPTIONS[work.key]?.[lib.languages[0]];
  if (local) description = local;
  else if (work.d && (index === 0 || rnd() < 0.5)) description = work.d;
  else if (lib.library_type !== 'digital' && rnd() < 0.18) description = pick(rnd, COPY_NOTES);
  ds.description = description;
  ds.shelf_location_code = shelfCode(lib, work, lang, rnd);
  ds.downloads = [];
  ds.material_description = materialDescription(lib, workLength(work), year, work.topic, rnd);
  if (edition) ds.edition_statement = edition;
  ds.place_date_of_publication_distribution = place ? `${place} : ${publisher}, ${year}` : `${publisher}, ${year}`;
  const [uri, label] = uriFor(lib, ds.identifier);
  if (uri) { ds.uri = uri; ds.uri_label = label; }
  return ds;
}

function entryLine(work, dataSources, extra = {}) {
  return {
    type: 'entry',
    id: idOf.get(work.key),
    title: work.title,
    subtitle: work.subtitle ?? null,
    authors: work.authors,
    languages: [work.lang],
    year: work.year,
    aggregation_id: work.kind === 'part' ? idOf.get(work.agg) : null,
    ...(work.kind === 'part' ? { aggregation_position: work.position } : {}),
    translation_of: work.kind === 'translation' ? idOf.get(work.of) : null,
    data_sources: dataSources,
    fulltext: null,
    ...extra,
  };
}

for (const w of ordered) {
  const rnd = prng('holdings:' + w.key);
  const entryId = idOf.get(w.key);
  let dss;
  if (w.kind === 'aggregation') {
    const libs = AGG_LIBRARIES[w.key].map((id) => LIB.get(id));
    dss = libs.map((lib, i) => buildDataSource(w, lib, rnd, i, entryId));
    aggHoldings.set(w.key, dss);
  } else if (w.kind === 'part') {
    dss = aggHoldings.get(w.agg).map((agg) => {
      const lib = LIB.get(agg.library_id);
      const ds = {
        library_id: lib.id,
        identifier: identifierFor(lib, { ...w, id: entryId }, rnd),
        year_edition: agg.year_edition,
        publisher: agg.publisher,
        isbn: null,
        description: null,
        shelf_location_code: agg.shelf_location_code,
        downloads: [],
        ...(agg.edition_statement ? { edition_statement: agg.edition_statement } : {}),
        place_date_of_publication_distribution: agg.place_date_of_publication_distribution,
      };
      const [uri, label] = uriFor(lib, ds.identifier);
      if (uri) { ds.uri = uri; ds.uri_label = label; }
      return ds;
    });
  } else {
    const libs = chooseLibraries(w, rnd, w.lang);
    // A work with a description in a library language is held by at least one library of that language.
    for (const lang of Object.keys(LOCAL_DESCRIPTIONS[w.key] ?? {})) {
      if (libs.some((l) => l.languages[0] === lang)) continue;
      const options = LOCAL_LIBRARY[lang];
      const lib = LIB.get(options[hash(w.key) % options.length]);
      if (libs.length >= 3) libs.pop();
      libs.push(lib);
    }
    libs.sort((a, b) => a.id - b.id);
    dss = libs.map((lib, i) => buildDataSource(w, lib, rnd, i, entryId));
  }
  entries.push(entryLine(w, dss));
}

// ---------------------------------------------------------------- texts written for the demo
function museToPlain(src) {
  const body = src.split('\n').filter((l) => !/^#\w+/.test(l)).join('\n');
  return body
    .replace(/<\/?(quote|verse|center|right|example)>/g, '')
    .replace(/\[\[[^\]]+\]\[([^\]]+)\]\]/g, '$1')
    .replace(/\[\[[^\]]+\]\]/g, '')
    .replace(/\[\d+\]/g, '')
    .replace(/^\*+ /gm, '')
    .replace(/\|\+\s*|\s*\+\|/g, '')
    .replace(/\s*\|\|?\s*/g, ' — ')
    .replace(/^\s+(-|\d+\.)\s+/gm, '')
    .replace(/\*+([^*\n]+)\*+/g, '$1')
    .replace(/(^|[^\p{L}\p{N}])=([^=\n]+)=(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
let ownId = nextId;
const ownEntries = [];
for (const t of PDF_TEXTS) {
  const lib = LIB.get(t.library);
  const work = { ...t, kind: 'own', topic: 'hist' };
  const pdf = PDFS.find((p) => p.file === t.file);
  const text = pdf.blocks.map((b) => b.h ?? b.p ?? b.li ?? b.small).join('\n');
  const identifier = identifierFor(lib, { ...work, id: ownId, slug: t.file.replace(/^.*\/|\.\w+$/g, '') }, prng('own:' + t.key));
  const ds = {
    library_id: lib.id, identifier, year_edition: t.year, publisher: lib.name, isbn: null, description: t.d,
    shelf_location_code: `${lib.shelf} 025.5 ${cutter(t.authors[0])}`, downloads: [], material_description: '1 leaflet (1 p.) ; 30 cm',
    place_date_of_publication_distribution: `${lib.city} : ${lib.name}, ${t.year}`, pdf_file: t.file,
  };
  const [uri, label] = uriFor(lib, identifier);
  if (uri) { ds.uri = uri; ds.uri_label = label; }
  ownEntries.push({ type: 'entry', id: ownId++, title: t.title, subtitle: t.subtitle, authors: t.authors, languages: [t.lang], year: t.year,
    aggregation_id: null, translation_of: null, data_sources: [ds], fulltext: text });
}
const pdfOf = (museFile) => museFile.replace(/^texts\//, 'pdf/').replace(/\.muse$/, '.pdf');
// The user guide comes last, so that it is the newest acquisition when the catalogue is sorted by date.
for (const t of [...MUSE_TEXTS].reverse()) {
  const src = readFileSync(join(demoDir, t.file), 'utf8');
  const dss = t.libraries.map((libId) => {
    const lib = LIB.get(libId);
    if (lib.site_type !== 'amusewiki') throw new Error(`${t.key}: library ${libId} is not an amusewiki site`);
    const identifier = identifierFor(lib, { ...t, id: ownId, slug: t.file.replace(/^.*\/|\.\w+$/g, '') }, prng('own:' + t.key));
    const [uri, label] = uriFor(lib, identifier);
    return {
      library_id: lib.id, identifier, year_edition: t.year, publisher: lib.name, isbn: null, description: t.d,
      shelf_location_code: null, downloads: [], material_description: '1 online text (Muse markup)',
      place_date_of_publication_distribution: `${lib.city} : ${lib.name}, ${t.year}`,
      uri, uri_label: label, muse_file: t.file,
      // A PDF typeset from the text itself (npm run muse -- pdf), when one was made.
      ...(existsSync(join(demoDir, pdfOf(t.file))) ? { pdf_file: pdfOf(t.file) } : {}),
    };
  });
  ownEntries.push({ type: 'entry', id: ownId++, title: t.title, subtitle: t.subtitle, authors: t.authors, languages: [t.lang], year: t.year,
    aggregation_id: null, translation_of: null, data_sources: dss, fulltext: museToPlain(src) });
}

// ---------------------------------------------------------------- records for curators
// After the texts written for the demo, so that no other id moves; their data sources carry an older
// acquisition date (`datestamp`), so that the user guide stays the newest acquisition.
const curatorEntries = [];
for (const c of FOR_CURATORS) {
  const entryId = ownId++;
  if (c.translationOf && !byKey.has(c.translationOf)) throw new Error(`${c.key}: unknown original ${c.translationOf}`);
  const work = { ...c, kind: c.translationOf ? 'translation' : 'work', of: c.translationOf };
  const rnd = prng('curation:' + c.key);
  const datestamp = `${c.acquired}T10:00:00Z`;
  const dss = c.libraries.map((libId, i) => {
    const lib = LIB.get(libId);
    if (!c.issue) return { ...buildDataSource(work, lib, rnd, i, entryId), datestamp };
    // An article described in the bound volume of its periodical.
    const is = c.issue;
    const ds = {
      library_id: lib.id, identifier: identifierFor(lib, { ...work, id: entryId }, rnd), year_edition: is.year, publisher: is.publisher,
      isbn: null, description: `${is.name}, ${is.volume} (${is.date}), p. ${is.pages}. ${c.d}`, shelf_location_code: is.shelf, downloads: [],
      material_description: `p. ${is.pages} ; ${is.height} cm`, place_date_of_publication_distribution: `${is.place} : ${is.publisher}, ${is.year}`,
    };
    const [uri, label] = uriFor(lib, ds.identifier);
    if (uri) { ds.uri = uri; ds.uri_label = label; }
    return { ...ds, datestamp };
  });
  curatorEntries.push({ type: 'entry', id: entryId, title: c.title, subtitle: c.subtitle, authors: c.authors, languages: [c.lang], year: c.year,
    aggregation_id: null, translation_of: null, data_sources: dss, fulltext: null });
}

// ---------------------------------------------------------------- works in Cyrillic and Greek letters
// After the records for curators, so that no other id moves; translations linked to their originals.
const scriptEntries = [];
for (const c of OTHER_SCRIPTS) {
  const entryId = ownId++;
  if (c.translationOf && !byKey.has(c.translationOf)) throw new Error(`${c.key}: unknown original ${c.translationOf}`);
  const authors = c.authors ?? byKey.get(c.translationOf).authors;
  const work = { ...c, authors, kind: c.translationOf ? 'translation' : 'work', of: c.translationOf };
  const rnd = prng('scripts:' + c.key);
  const datestamp = `${c.acquired}T10:00:00Z`;
  const dss = c.libraries.map((libId, i) => ({ ...buildDataSource(work, LIB.get(libId), rnd, i, entryId), datestamp }));
  scriptEntries.push({ type: 'entry', id: entryId, title: c.title, subtitle: c.subtitle, authors, languages: [c.lang], year: c.year,
    aggregation_id: null, translation_of: c.translationOf ? idOf.get(c.translationOf) : null, data_sources: dss, fulltext: null });
}

// ---------------------------------------------------------------- output
const GENERATOR_ONLY = ['holds', 'topics', 'shelf', 'ident'];
const lines = [];
lines.push({ type: 'settings', ...SETTINGS });
for (const l of LIBRARIES) {
  const out = { type: 'library' };
  for (const [k, v] of Object.entries(l)) if (!GENERATOR_ONLY.includes(k)) out[k] = v;
  lines.push(out);
}
for (const e of entries) lines.push(e);
for (const e of ownEntries) lines.push(e);
for (const e of curatorEntries) lines.push(e);
for (const e of scriptEntries) lines.push(e);
for (const p of PAGES) lines.push({ type: 'page', ...p });

writeFileSync(join(demoDir, 'catalogue.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
console.log(`wrote demo/catalogue.jsonl: ${LIBRARIES.length} libraries, ${entries.length + ownEntries.length + curatorEntries.length + scriptEntries.length} entries, ${PAGES.length} pages`);
