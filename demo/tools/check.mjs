#!/usr/bin/env node
// Validates demo/catalogue.jsonl against docs/import-format.md and the demo's own requirements.
//   node demo/tools/check.mjs [path/to/catalogue.jsonl]
// Plain Node, no dependencies. Exits with status 1 and a list of problems if anything is wrong,
// otherwise prints a summary of the catalogue.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const demoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const file = resolve(args.find((a) => !a.startsWith('--')) ?? join(demoDir, 'catalogue.jsonl'));
const baseDir = dirname(file);
const errors = [];
const fail = (where, msg) => errors.push(`${where}: ${msg}`);

const REGIONS = {
  'Africa': 'Africa', 'Asia': 'Asia', 'Europe': 'Europe', 'Oceania': 'Oceania',
  'North America East': 'North America', 'North America West': 'North America',
  'Center America East': 'North America', 'Center America West': 'North America',
  'South America': 'South America',
};
const LIBRARY_TYPES = ['physical', 'digital', 'closed'];
const SITE_TYPES = ['amusewiki', 'generic', 'koha', 'calibretree', 'csv'];
const DOWNLOAD_FORMATS = ['muse', 'zip', 'pdf', 'epub', 'txt', 'tex', 'html'];
// ISO 639-1 codes used (or usable) in the demo; anything else is reported.
const ISO639_1 = new Set(('af ar bn ca cs da de el en eo es fa fi fr gu he hi hr hu id it ja ko mi nl no pl pt ro ru sl sq sr st sv sw tr uk xh zh').split(' '));
const PAGE_LOCATIONS = ['footer', 'user_menu', 'draft'];

const isStr = (v) => typeof v === 'string';
const isStrOrNull = (v) => v === null || typeof v === 'string';
const isInt = (v) => Number.isInteger(v);
const isBool = (v) => typeof v === 'boolean';
const decimals = (n) => (String(n).split('.')[1] ?? '').length;
const fold = (s) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const validDate = (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s + 'T00:00:00Z')) && new Date(s + 'T00:00:00Z').toISOString().slice(0, 10) === s;
const exampleHost = (u) => { try { return /(^|\.)example\.(org|net)$/.test(new URL(u).hostname); } catch { return false; } };
const exampleMail = (m) => /^[^@\s]+@([a-z0-9-]+\.)*example\.org$/.test(m);
function isbnOk(s) {
  if (!/^97[89]\d{10}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(s[i]) * (i % 2 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(s[12]);
}

// ---------------------------------------------------------------- read
const lines = readFileSync(file, 'utf8').split('\n');
const settings = [];
const libraries = new Map();
const entries = new Map();
const pages = new Map();
const entryOrder = [];
const identifiers = new Set();
const museFiles = new Map(); // path -> [entry ids]
const pdfFiles = new Map();
lines.forEach((text, i) => {
  if (!text.trim()) return;
  const where = `line ${i + 1}`;
  let obj;
  try { obj = JSON.parse(text); } catch (e) { fail(where, `invalid JSON (${e.message})`); return; }
  switch (obj.type) {
    case 'settings': settings.push([where, obj]); break;
    case 'library': checkLibrary(where, obj); break;
    case 'entry': checkEntry(where, obj); break;
    case 'page': checkPage(where, obj); break;
    default: fail(where, `unknown type ${JSON.stringify(obj.type)}`);
  }
});

// ---------------------------------------------------------------- settings
if (settings.length !== 1) fail('settings', `expected exactly one settings line, found ${settings.length}`);
for (const [where, s] of settings) {
  for (const k of ['site_name', 'site_logo', 'description', 'contact_email']) if (!isStr(s[k])) fail(where, `settings.${k} must be a string`);
  if (isStr(s.contact_email) && !exampleMail(s.contact_email)) fail(where, 'contact_email must be an example.org address');
  if (s.site_logo && !existsSync(join(baseDir, s.site_logo))) fail(where, `site_logo ${s.site_logo} does not exist`);
}

// ---------------------------------------------------------------- libraries
function checkLibrary(where, l) {
  where = `${where} (library ${l.id})`;
  if (!isInt(l.id) || l.id < 1) fail(where, 'id must be a positive integer');
  if (libraries.has(l.id)) fail(where, 'duplicate library id');
  if (entryOrder.length) fail(where, 'libraries must come before the entries');
  for (const k of ['name', 'country', 'city']) if (!isStr(l[k]) || !l[k].trim()) fail(where, `${k} must be a non-empty string`);
  if (typeof l.latitude !== 'number' || l.latitude < -90 || l.latitude > 90) fail(where, 'latitude out of range');
  if (typeof l.longitude !== 'number' || l.longitude < -180 || l.longitude > 180) fail(where, 'longitude out of range');
  if (decimals(l.latitude) > 6 || decimals(l.longitude) > 6) fail(where, 'coordinates have more than 6 decimals');
  if (!LIBRARY_TYPES.includes(l.library_type)) fail(where, `library_type ${l.library_type}`);
  if (!isBool(l.public)) fail(where, 'public must be a boolean');
  if ('active' in l && !isBool(l.active)) fail(where, 'active must be a boolean');
  if (!Array.isArray(l.languages) || !l.languages.length || !l.languages.every((c) => ISO639_1.has(c))) fail(where, `languages ${JSON.stringify(l.languages)}`);
  if (!(l.region in REGIONS)) fail(where, `region ${JSON.stringify(l.region)} is not one of the spec's regions`);
  if ('site_type' in l && !SITE_TYPES.includes(l.site_type)) fail(where, `site_type ${l.site_type}`);
  if ('year_established' in l && !validDate(l.year_established)) fail(where, 'year_established must be YYYY-MM-DD');
  for (const k of ['url', 'site_url', 'logo_url']) if (l[k] && !exampleHost(l[k])) fail(where, `${k} must be under example.org or example.net`);
  for (const k of ['email_public', 'email_internal']) if (l[k] !== undefined && !exampleMail(l[k])) fail(where, `${k} must be an @example.org address`);
  for (const k of ['url', 'email_public', 'email_internal', 'opening_hours', 'description', 'short_desc', 'address_line_1', 'address_line_2', 'address_zip', 'address_state', 'year_established', 'region', 'site_type']) {
    if (!isStr(l[k]) || !l[k].trim()) fail(where, `${k} is empty (the demo fills every library field)`);
  }
  libraries.set(l.id, l);
}

// ---------------------------------------------------------------- entries
function checkEntry(where, e) {
  where = `${where} (entry ${e.id})`;
  entryOrder.push(e.id);
  if (!isInt(e.id)) fail(where, 'id must be an integer');
  if (entries.has(e.id)) fail(where, 'duplicate entry id');
  if (!isStr(e.title) || !e.title.trim()) fail(where, 'title must be a non-empty string');
  if (!isStrOrNull(e.subtitle)) fail(where, 'subtitle must be a string or null');
  if (!Array.isArray(e.authors) || !e.authors.length || !e.authors.every((a) => isStr(a) && a.trim())) fail(where, 'authors must be a non-empty list of names');
  if (!Array.isArray(e.languages) || !e.languages.length || !e.languages.every((c) => ISO639_1.has(c))) fail(where, `languages ${JSON.stringify(e.languages)}`);
  if (!isInt(e.year) || e.year < 1400 || e.year > 2026) fail(where, `year ${e.year}`);
  if (!(e.aggregation_id === null || isInt(e.aggregation_id))) fail(where, 'aggregation_id must be null or an integer');
  if (!(e.translation_of === null || isInt(e.translation_of))) fail(where, 'translation_of must be null or an integer');
  if (e.aggregation_id !== null && !isInt(e.aggregation_position)) fail(where, 'a part needs an integer aggregation_position');
  if (!(e.fulltext === null || isStr(e.fulltext))) fail(where, 'fulltext must be null or a string');
  if (!Array.isArray(e.data_sources) || !e.data_sources.length) fail(where, 'data_sources must be a non-empty list');
  for (const [i, ds] of (e.data_sources ?? []).entries()) {
    const w = `${where} data source ${i}`;
    const lib = libraries.get(ds.library_id);
    if (!lib) { fail(w, `library_id ${ds.library_id} is not a library defined before this entry`); continue; }
    if (!isStr(ds.identifier) || !ds.identifier) fail(w, 'identifier must be a non-empty string');
    const key = `${ds.library_id}\u0000${ds.identifier}`;
    if (identifiers.has(key)) fail(w, `identifier ${ds.identifier} is not unique in library ${ds.library_id}`);
    identifiers.add(key);
    if (!isInt(ds.year_edition) || ds.year_edition < e.year) fail(w, `year_edition ${ds.year_edition} before the first edition ${e.year}`);
    if (ds.year_edition > 2026) fail(w, `year_edition ${ds.year_edition} in the future`);
    for (const k of ['publisher', 'isbn', 'description', 'shelf_location_code']) if (!(k in ds) || !isStrOrNull(ds[k])) fail(w, `${k} must be present (string or null)`);
    if (ds.isbn !== null && ds.isbn !== undefined) {
      if (!isbnOk(ds.isbn)) fail(w, `invalid ISBN-13 ${ds.isbn}`);
      if (ds.year_edition < 1970) fail(w, 'ISBN on an edition older than 1970');
    }
    if (!Array.isArray(ds.downloads) || !ds.downloads.every((d) => DOWNLOAD_FORMATS.includes(d))) fail(w, `downloads ${JSON.stringify(ds.downloads)}`);
    for (const fmt of ['pdf', 'epub', 'muse', 'zip']) {
      if (ds.downloads?.includes(fmt)) fail(w, `download ${fmt} listed but the demo supplies files only through muse_file/pdf_file`);
    }
    for (const k of ['material_description', 'edition_statement', 'place_date_of_publication_distribution', 'uri', 'uri_label', 'content_type']) {
      if (k in ds && !isStrOrNull(ds[k])) fail(w, `${k} must be a string or null`);
    }
    if (ds.uri && !exampleHost(ds.uri)) fail(w, 'uri must be under example.org or example.net');
    if ('datestamp' in ds && !(isStr(ds.datestamp) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(ds.datestamp) && validDate(ds.datestamp.slice(0, 10)))) {
      fail(w, `datestamp ${JSON.stringify(ds.datestamp)} must be an ISO date-time in UTC (YYYY-MM-DDThh:mm:ssZ)`);
    }
    if (isStr(ds.datestamp) && Date.parse(ds.datestamp) > Date.now()) fail(w, `datestamp ${ds.datestamp} in the future`);
    if (ds.muse_file !== undefined) {
      const path = join(baseDir, ds.muse_file);
      if (!/\.muse$/.test(ds.muse_file) || !existsSync(path)) fail(w, `muse_file ${ds.muse_file} does not exist`);
      else checkMuseImages(w, path);
      if (lib.site_type !== 'amusewiki') fail(w, `muse_file in library ${lib.id}, which is not an amusewiki site`);
      museFiles.set(ds.muse_file, [...(museFiles.get(ds.muse_file) ?? []), e.id]);
    }
    if (ds.pdf_file !== undefined) {
      const path = join(baseDir, ds.pdf_file);
      if (!/\.pdf$/.test(ds.pdf_file) || !existsSync(path)) fail(w, `pdf_file ${ds.pdf_file} does not exist`);
      else checkPdf(w, path);
      pdfFiles.set(ds.pdf_file, [...(pdfFiles.get(ds.pdf_file) ?? []), e.id]);
    }
  }
  entries.set(e.id, e);
}

function checkMuseImages(where, path) {
  const src = readFileSync(path, 'utf8');
  for (const m of src.matchAll(/\[\[([0-9A-Za-z][0-9A-Za-z/-]+\.(?:png|jpe?g))(?: [^\]]*)?\]/g)) {
    if (!existsSync(join(dirname(path), m[1]))) fail(where, `image ${m[1]} referenced by ${path} does not exist`);
  }
}

function checkPdf(where, path) {
  const buf = readFileSync(path);
  const text = buf.toString('latin1');
  if (!text.startsWith('%PDF-1.')) { fail(where, 'PDF header missing'); return; }
  if (!/%%EOF\s*$/.test(text)) fail(where, 'PDF does not end with %%EOF');
  const sx = text.lastIndexOf('startxref');
  const xrefAt = Number(text.slice(sx + 9).trim().split(/\s+/)[0]);
  if (text.slice(xrefAt, xrefAt + 4) !== 'xref') { fail(where, 'startxref does not point to the xref table'); return; }
  const [, first, count] = text.slice(xrefAt).match(/^xref\s+(\d+)\s+(\d+)\s*\n/) ?? [];
  const rows = text.slice(xrefAt).split('\n').slice(2, 2 + Number(count));
  rows.forEach((row, k) => {
    const num = Number(first) + k;
    if (row.length !== 19 && row.length !== 20) fail(where, `xref row ${num} is not 20 bytes`);
    const [off, , kind] = row.trim().split(' ');
    if (kind === 'n' && !text.startsWith(`${num} 0 obj`, Number(off))) fail(where, `xref offset of object ${num} is wrong`);
  });
  for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = m.index + m[0].length;
    if (text.slice(start + Number(m[1]), start + Number(m[1]) + 9) !== 'endstream') fail(where, 'stream /Length is wrong');
  }
  if (!/\/Type \/Catalog/.test(text) || !/\/Type \/Page\b/.test(text)) fail(where, 'PDF without catalog or page');
}

// ---------------------------------------------------------------- pages
function checkPage(where, p) {
  where = `${where} (page ${p.id})`;
  if (!isInt(p.id)) fail(where, 'id must be an integer');
  if (pages.has(p.id)) fail(where, 'duplicate page id');
  for (const k of ['title', 'summary', 'content']) if (!isStr(p[k]) || !p[k].trim()) fail(where, `${k} must be a non-empty string`);
  if (!(p.language === 'ALL' || ISO639_1.has(p.language))) fail(where, `language ${p.language}`);
  if (!PAGE_LOCATIONS.includes(p.location)) fail(where, `location ${p.location}`);
  if (!isInt(p.sorting)) fail(where, 'sorting must be an integer');
  if (!isBool(p.published)) fail(where, 'published must be a boolean');
  pages.set(p.id, p);
}

// ---------------------------------------------------------------- links between entries
const parts = new Map(); // aggregation id -> [entry ids]
const translations = new Map(); // original id -> [entry ids]
for (const e of entries.values()) {
  if (e.aggregation_id !== null) {
    const agg = entries.get(e.aggregation_id);
    if (!agg) fail(`entry ${e.id}`, `aggregation_id ${e.aggregation_id} does not resolve`);
    else if (agg.aggregation_id !== null) fail(`entry ${e.id}`, 'its aggregation is itself a part');
    parts.set(e.aggregation_id, [...(parts.get(e.aggregation_id) ?? []), e.id]);
  }
  if (e.translation_of !== null) {
    const orig = entries.get(e.translation_of);
    if (!orig) fail(`entry ${e.id}`, `translation_of ${e.translation_of} does not resolve`);
    else {
      if (orig.translation_of !== null) fail(`entry ${e.id}`, 'translation_of points to another translation');
      if (orig.languages.join() === e.languages.join()) fail(`entry ${e.id}`, 'a translation in the language of its original');
      if (orig.authors.join() !== e.authors.join()) fail(`entry ${e.id}`, 'a translation with different authors from its original');
      if (e.year < orig.year) fail(`entry ${e.id}`, 'a translation older than its original');
    }
    translations.set(e.translation_of, [...(translations.get(e.translation_of) ?? []), e.id]);
  }
}
for (const [agg, ids] of parts) {
  const positions = ids.map((id) => entries.get(id).aggregation_position);
  if (new Set(positions).size !== positions.length) fail(`aggregation ${agg}`, 'duplicate aggregation_position');
}

// The importer groups records by normalised title + authors + languages: two entries of the file must never collide.
const groups = new Map();
for (const e of entries.values()) {
  const key = [fold(e.title), e.authors.map(fold).sort().join('|'), [...e.languages].sort().join('|')].join(' # ');
  if (groups.has(key)) fail(`entry ${e.id}`, `would be grouped with entry ${groups.get(key)} (same folded title, authors and languages)`);
  else groups.set(key, e.id);
}

// ---------------------------------------------------------------- Muse texts
const MUSE_HEADERS = ['title', 'author', 'lang', 'date', 'source', 'notes'];
const museFeatures = {
  'chapter (**)': /^\*\* \S/m, 'section (***)': /^\*\*\* \S/m, 'footnote': /^\[1\] \S/m, 'bullet list': /^ +- \S/m,
  'numbered list': /^ +1\. \S/m, 'table': /^ .*\|\|/m, 'table caption': /^ *\|\+ .+ \+\|/m, 'quote': /^<quote>$/m,
  'verse': /^<verse>$/m, 'image': /\[\[[0-9A-Za-z][0-9A-Za-z/-]+\.png[^\]]*\]/, 'emphasis': /(^|[^*\p{L}\p{N}])\*[^*\s][^*\n]*\*(?!\*)/mu,
  'strong': /(^|[^*\p{L}\p{N}])\*\*[^*\s][^*\n]*\*\*/mu, 'code': /(^|[^\p{L}\p{N}=])=[^=\s][^=\n]*=/mu, 'example': /^<example>$/m, 'center': /^<center>$/m,
};
const featuresFound = new Set();
for (const path of museFiles.keys()) {
  const src = readFileSync(join(baseDir, path), 'utf8');
  const header = src.split(/\n(?!#)/)[0];
  for (const h of MUSE_HEADERS) if (!new RegExp(`^#${h} \\S`, 'm').test(header)) fail(path, `missing #${h} header`);
  const refs = new Set([...src.replace(/^\[\d+\] .*$/gm, '').matchAll(/\[(\d+)\]/g)].map((m) => m[1]));
  const defs = new Set([...src.matchAll(/^\[(\d+)\] /gm)].map((m) => m[1]));
  for (const r of refs) if (!defs.has(r)) fail(path, `footnote [${r}] has no definition`);
  for (const d of defs) if (!refs.has(d)) fail(path, `footnote [${d}] is never referenced`);
  for (const [name, re] of Object.entries(museFeatures)) if (re.test(src)) featuresFound.add(name);
  for (const line of src.split('\n')) if (/\t/.test(line)) fail(path, 'contains a TAB');
}
for (const name of Object.keys(museFeatures)) if (!featuresFound.has(name)) fail('muse texts', `no text uses ${name}`);

// ---------------------------------------------------------------- requirements of the demo
const libList = [...libraries.values()];
const continents = new Set(libList.map((l) => REGIONS[l.region]));
const need = (cond, msg) => { if (!cond) fail('requirements', msg); };
need(libList.length >= 14, `at least 14 libraries (found ${libList.length})`);
need(continents.size >= 5, `libraries on at least 5 continents (found ${continents.size})`);
need(entries.size >= 320, `at least 320 entries (found ${entries.size})`);
need(museFiles.size >= 6, `at least 6 Muse texts (found ${museFiles.size})`);
need(pdfFiles.size >= 1, 'at least one PDF');
need(libList.some((l) => l.public === false), 'one private library');
need(libList.some((l) => l.active === false), 'one inactive library');
need(libList.some((l) => l.site_type === 'amusewiki'), 'amusewiki libraries');
need(new Set(libList.map((l) => l.library_type)).size === 3, 'physical, digital and closed libraries');
const multiTranslated = [...translations.values()].filter((ids) => ids.length >= 2).length;
need(multiTranslated >= 8, `at least 8 works with 2+ translations (found ${multiTranslated})`);
need([...parts.values()].filter((ids) => ids.length >= 2).length >= 2, 'at least two aggregations with parts');
const guide = [...entries.values()].find((e) => e.title === 'How to Use the Union Catalogue');
need(guide && new Set(guide.data_sources.map((d) => d.library_id)).size === 2, 'the user guide is held by 2 libraries');
const authorCounts = new Map();
for (const e of entries.values()) for (const a of e.authors) authorCounts.set(a, (authorCounts.get(a) ?? 0) + 1);
need([...authorCounts.values()].filter((n) => n > 1).length >= 20, 'many authors with several entries');
for (const lang of ['en', 'de', 'el', 'fr', 'hr', 'it']) {
  const shown = (loc) => [...pages.values()].filter((p) => p.location === loc && p.published && (p.language === lang || p.language === 'ALL'));
  need(shown('footer').length >= 3, `three published footer pages in language ${lang}`);
  need(shown('user_menu').length >= 1, `a published user_menu page in language ${lang}`);
}

// ---------------------------------------------------------------- report
if (errors.length) {
  console.error(`${errors.length} problem(s) in ${file}:`);
  for (const e of errors.slice(0, 200)) console.error('  - ' + e);
  process.exit(1);
}

const dsAll = [...entries.values()].flatMap((e) => e.data_sources.map((d) => ({ ...d, entry: e })));
const perLibrary = libList.map((l) => {
  const held = new Set(dsAll.filter((d) => d.library_id === l.id).map((d) => d.entry.id));
  return { l, entries: held.size };
});
const visible = new Set(libList.filter((l) => l.public && l.active !== false).map((l) => l.id));
const hiddenEntries = [...entries.values()].filter((e) => !e.data_sources.some((d) => visible.has(d.library_id)));
const dsCounts = [1, 2, 3].map((n) => [...entries.values()].filter((e) => e.data_sources.length === n).length);
const langCounts = new Map();
for (const e of entries.values()) for (const c of e.languages) langCounts.set(c, (langCounts.get(c) ?? 0) + 1);

const byContinent = new Map();
for (const { l, entries: n } of perLibrary) byContinent.set(REGIONS[l.region], (byContinent.get(REGIONS[l.region]) ?? 0) + n);
if (markdown) {
  printMarkdown();
  process.exit(0);
}
console.log(`OK ${file}`);
console.log(`libraries: ${libList.length} on ${continents.size} continents (${[...continents].join(', ')})`);
for (const { l, entries: n } of perLibrary) {
  const flags = [l.public ? '' : 'PRIVATE', l.active === false ? 'INACTIVE' : '', l.site_type].filter(Boolean).join(', ');
  console.log(`  ${String(l.id).padStart(2)} ${l.name} — ${l.city} (${l.region}) — ${n} entries [${flags}]`);
}
console.log(`holdings per continent: ${[...byContinent].map(([c, n]) => `${c} ${n}`).join(', ')}`);
console.log(`entries: ${entries.size} (data sources: ${dsAll.length}; entries with 1/2/3 sources: ${dsCounts.join('/')})`);
console.log(`languages: ${[...langCounts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ')}`);
console.log(`authors: ${authorCounts.size}, of which ${[...authorCounts.values()].filter((n) => n > 1).length} with more than one entry`);
console.log(`translations: ${[...translations.values()].flat().length} entries of ${translations.size} originals, ${multiTranslated} with 2+ translations`);
console.log(`aggregations: ${[...parts].map(([id, ids]) => `${id} "${entries.get(id).title}" (${ids.length} parts)`).join('; ')}`);
console.log(`muse texts: ${[...museFiles].map(([p, ids]) => `${p} -> entry ${ids.join(',')}`).join('; ')}`);
console.log(`pdfs: ${[...pdfFiles].map(([p, ids]) => `${p} -> entry ${ids.join(',')}`).join('; ')}`);
console.log(`ISBNs: ${dsAll.filter((d) => d.isbn).length}, first editions: ${dsAll.filter((d) => d.year_edition === d.entry.year && !d.muse_file && !d.pdf_file).length}, descriptions: ${dsAll.filter((d) => d.description).length}`);
console.log(`entries hidden from anonymous visitors (only in private/inactive libraries): ${hiddenEntries.length} (${hiddenEntries.map((e) => e.id).join(', ')})`);
console.log(`pages: ${[...pages.values()].map((p) => `${p.id} ${p.title} (${p.location})`).join('; ')}`);

// Markdown lists for demo/README.md (node demo/tools/check.mjs --markdown).
function printMarkdown() {
  const out = [];
  const t = (e) => `${e.id} *${e.title}* (${e.languages.join(', ')}, ${e.year})`;
  out.push('| id | library | city | region | type | site | entries |', '|---|---|---|---|---|---|---|');
  for (const { l, entries: n } of perLibrary) {
    const flags = [l.public ? '' : '**private**', l.active === false ? '**inactive**' : ''].filter(Boolean).join(' ');
    out.push(`| ${l.id} | ${l.name} ${flags} | ${l.city} | ${l.region} | ${l.library_type} | ${l.site_type} | ${n} |`);
  }
  out.push('', '| continent | holdings (entries per library, summed) |', '|---|---|');
  for (const [c, n] of byContinent) out.push(`| ${c} | ${n} |`);
  out.push('', '**Translations** (original → translations):', '');
  for (const [orig, ids] of [...translations].sort((a, b) => b[1].length - a[1].length || a[0] - b[0])) {
    out.push(`- ${t(entries.get(orig))} → ${ids.map((id) => t(entries.get(id))).join('; ')}`);
  }
  out.push('', '**Aggregations** (aggregation → parts with their positions):', '');
  for (const [agg, ids] of parts) {
    out.push(`- ${t(entries.get(agg))} → ${ids.map((id) => `${id} (#${entries.get(id).aggregation_position})`).join(', ')}`);
  }
  out.push('', '**Full texts and PDFs:**', '');
  for (const e of entries.values()) {
    for (const d of e.data_sources) {
      if (d.muse_file) out.push(`- ${t(e)}: Muse \`${d.muse_file}\` in library ${d.library_id}`);
      if (d.pdf_file) out.push(`- ${t(e)}: PDF \`${d.pdf_file}\` in library ${d.library_id}`);
    }
  }
  out.push('', `**Entries held only by the private or the inactive library** (${hiddenEntries.length}): ${hiddenEntries.map((e) => e.id).join(', ')}`);
  console.log(out.join('\n'));
}
