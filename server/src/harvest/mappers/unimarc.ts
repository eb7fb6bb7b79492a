// UNIMARC records (Koha UNIMARC catalogues serve them in the MARCXML envelope, under the `marc21`
// prefix) into catalogue fields (spec §5.4), fixed: authors from the 7XX access points (the 200 $f
// statement of responsibility only when there are none), years from 210/214 $d.
import type { XmlElement } from '../xml.ts';
import type { AggregationRef, MappedRecord } from '../record.ts';
import {
  authorList, clean, cleanTitle, dedupe, httpUrl, isbnOf, isPlaceholder, joinLines, joinList, mergeAggregations, titleOf, trimIsbd,
  wholeNumber, yearsOf,
} from './fields.ts';
import { all, fieldsOf, first, linksOf, marcLanguages, publicationStatements, readMarc, sub, uriFields, type MapOptions, type MarcField } from './marc21.ts';

/** A personal name access point: "$a, $b" (surname, forenames). */
const personalName = (f: MarcField) => {
  const a = trimIsbd(first(f, 'a'));
  const b = trimIsbd(first(f, 'b'));
  return a && b ? `${a}, ${b}` : a;
};

/** 215 in ISBD order: extent : other details ; dimensions + accompanying material. */
function physicalDescription(f: MarcField): string {
  const part = (code: string) => sub(f, code).map(trimIsbd).filter(Boolean);
  let s = part('a').join(', ');
  for (const [code, sep] of [['c', ' : '], ['d', ' ; '], ['e', ' + ']] as const) {
    const v = part(code).join(sep);
    if (v) s = s ? s + sep + v : v;
  }
  return s;
}

export function mapUnimarc(record: XmlElement, opts: MapOptions = {}): MappedRecord {
  const m = readMarc(record);

  // Access points by level of responsibility: primary (700/710), alternative (701/711), secondary (702/712).
  const names: string[] = [];
  for (const [personal, corporate] of [['700', '710'], ['701', '711'], ['702', '712']]) {
    for (const f of fieldsOf(m, personal, corporate)) names.push(f.tag === personal ? personalName(f) : first(f, 'a'));
  }
  let authors = authorList(names);
  if (!authors.length) authors = authorList(all(m, ['200'], 'f').flatMap((v) => v.split(/\s*;\s*/)));

  const f200 = fieldsOf(m, '200')[0];
  const mainTitle = f200 ? sub(f200, 'a').map(cleanTitle).filter(Boolean).join(' ; ') : '';
  const title = titleOf([mainTitle, ...(f200 ? sub(f200, 'hi') : [])]);
  let subtitle = f200 ? titleOf(sub(f200, 'e'), ' : ') : '';
  if (subtitle === title) subtitle = '';

  // Years from the publication statements; the coded dates of 100 $a (positions 9-12) when they say nothing.
  let years = yearsOf(all(m, ['210', '214'], 'd'));
  if (years.year_edition === null) {
    const coded = all(m, ['100'], 'a')[0] ?? '';
    const dates = [coded.slice(9, 13)];
    if (coded[8] === 'e') dates.push(coded.slice(13, 17)); // reproduction: the original's date follows
    years = yearsOf(dates);
  }

  const items = fieldsOf(m, '995');
  const persistent = m.control.get('003') ?? '';
  const out: MappedRecord = {
    title,
    subtitle: subtitle || null,
    authors,
    languages: marcLanguages(all(m, ['101'], 'a')),
    ...years,
    description: joinLines([...all(m, ['330'], 'a'), ...all(m, ['300'], 'a')]),
    publisher: joinList(all(m, ['210', '214'], 'c').map(trimIsbd).filter((v) => !isPlaceholder(v))),
    isbn: joinList(all(m, ['010'], 'a').map((v) => isbnOf(v) ?? trimIsbd(v))),
    shelf_location_code: joinLines([...items.flatMap((f) => sub(f, 'k')), ...all(m, ['950'], 'a'), ...all(m, ['676'], 'a')]),
    material_description: joinLines(fieldsOf(m, '215').map(physicalDescription)),
    edition_statement: joinLines(all(m, ['205'], 'a').map(trimIsbd)),
    place_date_of_publication_distribution: publicationStatements(fieldsOf(m, '210', '214'), 'a', 'c', 'd'),
    // 003 is the record's persistent identifier, often a URL (BnF's ARKs).
    ...uriFields(linksOf(fieldsOf(m, '856'), 'y', 'q'), [httpUrl(persistent) ? [{ uri: persistent, label: 'URL' }] : []], opts.host),
    aggregations: unimarcAggregations(m),
  };
  const branches = dedupe(items.flatMap((f) => sub(f, 'bc')));
  if (branches.length) out.internal_library_codes = branches;
  return out;
}

/** "Is part of": the set (461) and the series (225, and 410 when linked to a series record). */
function unimarcAggregations(m: ReturnType<typeof readMarc>): AggregationRef[] {
  const list: AggregationRef[] = [];
  for (const f of fieldsOf(m, '461')) {
    const name = cleanTitle(first(f, 't') || first(f, 'a'));
    if (!name) continue;
    const place = [trimIsbd(first(f, 'c')), trimIsbd(first(f, 'd'))].filter(Boolean).join(', ');
    list.push({
      name,
      issue: trimIsbd(first(f, 'e')) || null,
      order: wholeNumber(first(f, 'v')),
      placeDatePublisher: place || null,
      itemIdentifier: clean(first(f, '0')) || clean(first(f, '9')) || null,
    });
  }
  for (const f of fieldsOf(m, '225', '410')) {
    const name = cleanTitle(first(f, f.tag === '410' ? 't' : 'a') || first(f, 'a'));
    if (name) list.push({ name, order: wholeNumber(first(f, 'v')) });
  }
  return mergeAggregations(list);
}
