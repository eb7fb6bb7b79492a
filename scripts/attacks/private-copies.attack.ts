// Issue 27 item 7: words and years found only in a private library's copy of an entry (the demo's
// Archivio Operaio del Porto, library 8) leaked to anonymous searches: "Linda Brent", cholera epidemic
// and apprezzato found their entries, and the match's date list, the date facet and filter_date held the
// private copies' years. Anonymous searches must find nothing of them; the library's own admin and a
// superuser must still find them (the same search works); malformed filter values match nothing.
// The other surfaces: "Did you mean" offered a word only the library's own entries hold next to a corrected
// public word ("Raskolnikov OR Twistt" -> "raskolnikow OR twist"), and translations=1 widened from a
// private-only entry (a search for its title listed its public original "as the original of Raskolnikow");
// suggestions, author lookups, entry pages, citations, feeds, OPDS, sitemaps and OAI-PMH name none of them.
import type { Attack } from './types.ts';

const PRIVATE_LIBRARY = 8;
const HIDDEN_WORDS = ['"Linda Brent"', 'cholera epidemic', 'apprezzato', 'apprez*', '"Marx stesso"'];
/** Entries held by public libraries too, and the year only the private copy has. */
const HIDDEN_YEARS: [title: string, year: number][] = [
  ['Incidents in the Life of a Slave Girl', 1968],
  ['Il ventre di Napoli', 2022],
  ['Il Capitale di Carlo Marx brevemente compendiato', 1962],
];

/** Entries only library 8 holds, authors only on them, and names of the library itself. */
const RASKOLNIKOW = 532;
const DEI_DELITTI = 164;
const HIDDEN_NAMES = ['Raskolnikow', 'Dei delitti e delle pene', 'Il Corsaro Nero', 'Woyzeck', 'Die Waffen nieder', 'Antonio Labriola',
  'Friedrich Ludwig Weidig', 'Bertha von Suttner', 'Linda Brent', 'cholera epidemic', 'apprezzato', 'Archivio Operaio', 'porto-archivio'];
/** Public entries and private-only ones (library 8) the relation checks link (and unlink again). */
const OLIVER_TWIST = 12;
const CORSARO_NERO = 189;
const SENSE_AND_SENSIBILITY = 1;
const PRIDE_AND_PREJUDICE = 2;
const WOYZECK = 297;
const WAFFEN_NIEDER = 316;
const ANARCHIA = 194;
/** A misspelt hidden word next to a misspelt public one, and the hidden word a correction would name. */
const CORRECTIONS: [typed: string, hidden: string][] = [['Raskolnikov OR Twistt', 'raskolnikow'], ['Labriolla OR Twistt', 'labriola'], ['Sutner OR Twistt', 'suttner']];

interface Answer {
  total_entries: number;
  did_you_mean?: string | null;
  matches: {
    entry_id: number; title: { value: string }[]; date: { id: number }[]; data_sources: { library_id: number }[];
    related?: { entry_id: number; title: string }; translate?: { id: string }[];
  }[];
  facets: { date: { values: { id: string; count: number }[] } };
}

export const attack: Attack = {
  name: 'private-copies',
  async run(ctx) {
    const anonymous = ctx.client();
    const search = async (client: ReturnType<typeof ctx.client>, params: string): Promise<Answer> =>
      (await client.ok('GET', `/collector/api/search?exact=1&page_size=100&${params}`)) as Answer;

    for (const q of HIDDEN_WORDS) {
      const a = await search(anonymous, `query=${encodeURIComponent(q)}`);
      ctx.check(a.total_entries === 0, `anonymous search for ${q} finds nothing (got ${a.total_entries})`);
    }
    for (const [title, year] of HIDDEN_YEARS) {
      const a = await search(anonymous, `query=${encodeURIComponent(`"${title}"`)}`);
      const m = a.matches.find((x) => x.title[0]?.value === title);
      ctx.check(!!m, `anonymous search finds the public entry "${title}"`);
      ctx.check(!!m && !m.date.some((d) => d.id === year), `its date list has no ${year} (the private copy's year)`);
      ctx.check(!!m && !m.data_sources.some((d) => d.library_id === PRIVATE_LIBRARY), 'its copies list has no private copy');
      ctx.check(!a.facets.date.values.some((v) => v.id === String(year)), `its date facet has no ${year}`);
      const byYear = await search(anonymous, `filter_date=${year}`);
      ctx.check(!byYear.matches.some((x) => x.title[0]?.value === title), `filter_date=${year} does not find "${title}"`);
    }
    for (const bad of ['filter_date=abc', 'filter_library=x', 'filter_download=all']) {
      const a = await search(anonymous, bad);
      ctx.check(a.total_entries === 0, `malformed ${bad} matches nothing (got ${a.total_entries})`);
    }

    const hiddenIn = (text: string) => HIDDEN_NAMES.filter((h) => text.toLowerCase().includes(h.toLowerCase()));
    const corrected = async (client: ReturnType<typeof ctx.client>, typed: string) =>
      ((await client.ok('GET', `/collector/api/search?query=${encodeURIComponent(typed)}`)) as Answer).did_you_mean ?? '';
    for (const [typed, hidden] of CORRECTIONS) {
      const fix = await corrected(anonymous, typed);
      ctx.check(!fix.includes(hidden), `anonymous "${typed}": did you mean "${fix}" names no word of a hidden entry`);
    }
    const widened = await search(anonymous, 'translations=1&query=Raskolnikow');
    ctx.check(widened.total_entries === 0, `anonymous translations=1 search for a private-only title finds nothing (got ${widened.total_entries})`);
    for (const q of ['délits', 'Dostoevsky', 'Beccaria']) {
      const a = await search(anonymous, `translations=1&query=${encodeURIComponent(q)}`);
      const named = a.matches.filter((m) => m.related && [RASKOLNIKOW, DEI_DELITTI].includes(m.related.entry_id));
      ctx.check(named.length === 0, `anonymous translations=1 "${q}" lists nothing as related to a hidden entry (got ${named.map((m) => m.related!.title).join(', ')})`);
    }
    for (const typed of ['Rask', 'Dei deli', 'Corsaro', 'Woyz', 'Labri', 'Weidi', 'Suttn', 'apprez', 'Linda Bre']) {
      const body = JSON.stringify(await anonymous.ok('GET', `/collector/api/suggest?q=${encodeURIComponent(typed)}`));
      ctx.check(hiddenIn(body).length === 0, `anonymous suggestions for "${typed}" name no hidden entry or author (got ${hiddenIn(body).join(', ')})`);
    }
    for (const name of ['Antonio Labriola', 'Bertha von Suttner']) {
      const found = (await anonymous.ok('GET', `/collector/api/agents?search=${encodeURIComponent(name)}`)) as { agents: unknown[] };
      ctx.check(found.agents.length === 0, `anonymous author lookup for ${name} (only on hidden entries) finds nobody`);
    }
    for (const id of [RASKOLNIKOW, DEI_DELITTI]) {
      for (const url of [`/collector/api/entry/${id}`, `/collector/api/entry/${id}/cite?format=bibtex`, `/entry/${id}`]) {
        const r = await anonymous.call('GET', url);
        ctx.check(r.status === 404 && hiddenIn(r.bytes.toString('utf8')).length === 0, `anonymous ${url} answers 404 without its title (got ${r.status})`);
      }
    }
    for (const url of ['/collector/api/entry/350', '/collector/api/entry/548', '/entry/350', '/entry/548', '/feed.atom', '/opds/latest', '/opds/language/de',
      '/opds/language/it', '/sitemap-1.xml', '/oai?verb=ListRecords&metadataPrefix=oai_dc', '/oai?verb=ListSets', '/collector/api/libraries']) {
      const r = await anonymous.call('GET', url);
      const text = r.bytes.toString('utf8');
      ctx.check(hiddenIn(text).length === 0, `anonymous ${url} names nothing of library ${PRIVATE_LIBRARY} (got ${hiddenIn(text).join(', ')})`);
    }

    // The same searches by the library's own admin and by a superuser find the private copies.
    for (const account of [await ctx.account({ libraryAdmin: PRIVATE_LIBRARY }), await ctx.account({ superuser: true })]) {
      const client = await ctx.login(account);
      const a = await search(client, `query=${encodeURIComponent('"Linda Brent"')}`);
      ctx.check(a.total_entries === 1 && a.matches[0].date.some((d) => d.id === 1968), `${account.username} (may see library ${PRIVATE_LIBRARY}) finds "Linda Brent" with 1968`);
      ctx.check((await corrected(client, CORRECTIONS[0][0])).includes(CORRECTIONS[0][1]), `${account.username} is offered "${CORRECTIONS[0][1]}" as a correction`);
      const own = await search(client, 'translations=1&query=Raskolnikow');
      ctx.check(own.matches.some((m) => m.entry_id === RASKOLNIKOW), `${account.username} finds Raskolnikow with translations=1`);
    }

    await relationFlags(ctx, search);
  },
};

/**
 * The translation and aggregation flags: a public entry was "translated" (match, filter_translate) when
 * only a private copy translates it, a public translation of a private-only original a "translation",
 * a public entry "an aggregation" of private parts only, and a public part of a private aggregation
 * lacked no_aggregations. Library 8's admin (a curator) sets such relations, anonymous searches and
 * entry pages must not show them, the admin's must; the changes are undone at the end.
 */
async function relationFlags(ctx: Parameters<Attack['run']>[0], search: (client: ReturnType<Parameters<Attack['run']>[0]['client']>, params: string) => Promise<Answer>) {
  const anonymous = ctx.client();
  const flagsOf = async (client: ReturnType<typeof ctx.client>, title: string, id: number) =>
    (await search(client, `query=${encodeURIComponent(`"${title}"`)}`)).matches.find((m) => m.entry_id === id)?.translate?.map((t) => t.id) ?? null;
  const finds = async (client: ReturnType<typeof ctx.client>, title: string, filter: string, id: number) =>
    (await search(client, `query=${encodeURIComponent(`"${title}"`)}&${filter}`)).matches.some((m) => m.entry_id === id);
  // In the demo as it is: two public translations of the private-only "Dei delitti e delle pene".
  for (const [title, id] of [['Traité des délits et des peines', 548], ['An Essay on Crimes and Punishments', 549]] as const) {
    const flags = await flagsOf(anonymous, title, id);
    ctx.check(flags !== null && !flags.includes('translation'), `anonymous "${title}" is no translation (its original is private-only; got ${JSON.stringify(flags)})`);
    ctx.check(!(await finds(anonymous, title, 'filter_translate=translation', id)), `anonymous filter_translate=translation does not find "${title}"`);
  }

  const curator = await ctx.login(await ctx.account({ libraryAdmin: PRIVATE_LIBRARY, canMerge: true }));
  const changes: number[] = [];
  const curate = async (url: string, body: unknown) => {
    const r = (await curator.ok('POST', url, body)) as { change_id?: number | null };
    if (r.change_id) changes.push(r.change_id);
  };
  try {
    await curate('/collector/api/set-translations', [{ id: OLIVER_TWIST }, { id: CORSARO_NERO }]);
    await curate('/collector/api/set-aggregated', [{ id: SENSE_AND_SENSIBILITY }, { id: WOYZECK }, { id: WAFFEN_NIEDER }]);
    await curate('/collector/api/set-aggregated', [{ id: ANARCHIA }, { id: PRIDE_AND_PREJUDICE }]);
    for (const [who, client, sees] of [['anonymous', anonymous, false], ['library 8\'s admin', curator, true]] as const) {
      const twist = await flagsOf(client, 'Oliver Twist', OLIVER_TWIST);
      ctx.check(!!twist && twist.includes('translated') === sees, `${who}: "Oliver Twist" ${sees ? 'is' : 'is not'} translated (a private-only translation; got ${JSON.stringify(twist)})`);
      ctx.check(await finds(client, 'Oliver Twist', 'filter_translate=translated', OLIVER_TWIST) === sees, `${who}: filter_translate=translated ${sees ? 'finds' : 'does not find'} "Oliver Twist"`);
      ctx.check(await finds(client, 'Sense and Sensibility', 'filter_aggregate=aggregation', SENSE_AND_SENSIBILITY) === sees,
        `${who}: filter_aggregate=aggregation ${sees ? 'finds' : 'does not find'} "Sense and Sensibility" (its parts are private-only)`);
      ctx.check(await finds(client, 'Pride and Prejudice', 'filter_aggregate=no_aggregations', PRIDE_AND_PREJUDICE) === !sees,
        `${who}: filter_aggregate=no_aggregations ${sees ? 'does not find' : 'finds'} "Pride and Prejudice" (its aggregation is private-only)`);
      ctx.check(await finds(client, 'Pride and Prejudice', `filter_aggregate=${ANARCHIA}`, PRIDE_AND_PREJUDICE) === sees,
        `${who}: filter_aggregate=${ANARCHIA} ${sees ? 'finds' : 'does not find'} "Pride and Prejudice"`);
    }
    for (const id of [OLIVER_TWIST, SENSE_AND_SENSIBILITY, PRIDE_AND_PREJUDICE]) {
      const r = await anonymous.call('GET', `/collector/api/entry/${id}`);
      const text = r.bytes.toString('utf8');
      const page = r.json as { translations: unknown[]; aggregated: unknown[]; aggregations: unknown[]; data_sources: { aggregated: boolean }[] };
      ctx.check(r.status === 200 && !page.translations.length && !page.aggregated.length && !page.aggregations.length && !page.data_sources.some((d) => d.aggregated),
        `anonymous entry page ${id} lists no hidden translation, part or aggregation`);
      ctx.check(!/Corsaro|Woyzeck|Waffen|anarchia/i.test(text), `anonymous entry page ${id} names no hidden related entry`);
    }
  } finally {
    // Back as the demo was (the last change first).
    for (const id of changes.reverse()) {
      const r = await curator.call('POST', `/collector/api/changes/${id}/undo`);
      ctx.check(r.status === 200, `change ${id} undone (got ${r.status})`);
    }
  }
}
