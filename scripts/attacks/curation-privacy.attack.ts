// Issue 27 item 7, curation: a curator outside the demo's private library (Archivio Operaio del Porto,
// library 8) saw its private-only entries in /listing/translations ("Raskolnikow", a translation held
// only there), could merge them or make them translations, and /changes then named them. Now the
// outsider lists none of them, gets the unknown-id refusal for each, and the change log neither names
// nor undoes the library's own curation; the library's admin and a superuser curate them as before.
import type { Attack } from './types.ts';
import type { Client } from '../../bench/lib/child-server.ts';

const PRIVATE_LIBRARY = 8;
/** Held only by library 8: a translation (of "Crime and Punishment") and a book with no public copy. */
const PRIVATE_TRANSLATION = 'Raskolnikow';
const PRIVATE_BOOK = 'Dei delitti e delle pene';
const BUNDLE = 'Attack scenario bundle';
const UNKNOWN = 999_999_999;
const API = '/collector/api';

interface Listing { records: { id: number; title?: string; original_id?: number; aggregation_id?: number }[] }
interface Changes { total: number; users: string[]; changes: { id: number; operation: string }[] }

export const attack: Attack = {
  name: 'curation-privacy',
  async run(ctx) {
    const outsider = await ctx.login(await ctx.account({ canMerge: true }));
    const insider = await ctx.login(await ctx.account({ libraryAdmin: PRIVATE_LIBRARY }));
    const root = await ctx.login(await ctx.account({ superuser: true }));
    const translations = async (c: Client) => (await c.ok('GET', `${API}/listing/translations`)) as Listing;
    const said = (body: unknown, ...names: string[]) => names.filter((n) => JSON.stringify(body).includes(n));

    // Where the private entries are: the superuser's and the library admin's dashboards list them.
    const rootRow = (await translations(root)).records.find((r) => r.title?.startsWith(PRIVATE_TRANSLATION));
    ctx.check(!!rootRow, `a superuser lists "${PRIVATE_TRANSLATION}" in /listing/translations`);
    ctx.check((await translations(insider)).records.some((r) => r.title?.startsWith(PRIVATE_TRANSLATION)), `library ${PRIVATE_LIBRARY}'s admin lists "${PRIVATE_TRANSLATION}"`);
    if (!rootRow) return;
    const hidden = rootRow.id;
    const original = rootRow.original_id!;
    const search = (await insider.ok('GET', `${API}/search?page_size=10&query=${encodeURIComponent(`title:"${PRIVATE_BOOK}"`)}`)) as { matches: { entry_id: number; title: { value: string }[] }[] };
    const book = search.matches.find((m) => m.title[0]?.value === PRIVATE_BOOK)?.entry_id;
    ctx.check(book !== undefined, `library ${PRIVATE_LIBRARY}'s admin finds "${PRIVATE_BOOK}"`);
    if (book === undefined) return;

    // The library's own curation of its private book, for the change log.
    const made = (await insider.ok('POST', `${API}/create/aggregation`, { value: BUNDLE })) as { created: { id: number }; change_id: number };
    const bundle = made.created.id;
    const set = await insider.call('POST', `${API}/set-aggregated`, [{ id: bundle }, { id: book }]);
    ctx.check(set.json?.success === 'Aggregation set!', `library ${PRIVATE_LIBRARY}'s admin puts "${PRIVATE_BOOK}" in an aggregation (${set.json?.error ?? set.status})`);

    // The outsider's dashboards and suggestions.
    const outRows = await translations(outsider);
    ctx.check(!outRows.records.some((r) => r.id === hidden) && said(outRows, PRIVATE_TRANSLATION).length === 0, `an outside curator does not see "${PRIVATE_TRANSLATION}" in /listing/translations`);
    for (const type of ['aggregations', 'merged-entries', 'merged-agents', 'changes']) {
      const l = await outsider.ok('GET', `${API}/listing/${type}`);
      ctx.check(said(l, PRIVATE_TRANSLATION, PRIVATE_BOOK, BUNDLE).length === 0, `nor anything private in /listing/${type}`);
    }
    for (const kind of ['entry', 'author']) {
      const d = await outsider.ok('GET', `${API}/curation/duplicates?kind=${kind}`);
      ctx.check(said(d, PRIVATE_TRANSLATION, PRIVATE_BOOK).length === 0 && !JSON.stringify(d).includes(`"id":${hidden},`), `nor in the ${kind} duplicate suggestions`);
    }

    // Changes naming them: the unknown-id refusal, and nothing is logged.
    const refusals: [string, (x: number) => unknown, number][] = [
      ['/merge/entry', (x) => [{ id: original }, { id: x }], hidden],
      ['/merge/entry', (x) => [{ id: x }, { id: original }], book],
      ['/set-translations', (x) => [{ id: original }, { id: x }], book],
      ['/set-translations', (x) => [{ id: x }, { id: original }], hidden],
      ['/set-aggregated', (x) => [{ id: x }, { id: original }], bundle],
      ['/revert/translations', (x) => ({ id: x }), hidden],
    ];
    const before = ((await root.ok('GET', `${API}/changes`)) as Changes).total;
    for (const [url, body, id] of refusals) {
      const unknown = await outsider.call('POST', API + url, body(UNKNOWN));
      const res = await outsider.call('POST', API + url, body(id));
      ctx.check(res.status === unknown.status && res.json?.error === `Entry ${id} does not exist` && unknown.json?.error === `Entry ${UNKNOWN} does not exist`,
        `POST ${url} naming a private entry is refused as an unknown id (got ${res.status} ${JSON.stringify(res.json?.error)})`);
    }
    ctx.check(((await root.ok('GET', `${API}/changes`)) as Changes).total === before, 'and nothing is changed or logged');

    // The change log: no row, no name, no undo.
    const outLog = (await outsider.ok('GET', `${API}/changes`)) as Changes;
    ctx.check(said(outLog, PRIVATE_BOOK, BUNDLE).length === 0, `an outside curator's /changes names neither "${PRIVATE_BOOK}" nor the aggregation holding it`);
    const byObject = (await outsider.ok('GET', `${API}/changes?object_type=entry&object_id=${book}`)) as Changes;
    ctx.check(byObject.total === 0, `nor lists a change of entry ${book} (got ${byObject.total})`);
    for (const who of [insider, root]) {
      const log = (await who.ok('GET', `${API}/changes?object_type=entry&object_id=${book}`)) as Changes;
      ctx.check(log.total === 1 && said(log, PRIVATE_BOOK).length === 1, `${who === root ? 'a superuser' : `library ${PRIVATE_LIBRARY}'s admin`} reads that change`);
    }
    const change = set.json?.change_id as number;
    const unknownUndo = await outsider.call('POST', `${API}/changes/${UNKNOWN}/undo`);
    const undo = await outsider.call('POST', `${API}/changes/${change}/undo`);
    ctx.check(undo.status === unknownUndo.status && undo.json?.error === unknownUndo.json?.error, `an outside curator's undo of it is refused as an unknown change (got ${undo.status})`);

    // Tidy up: the library's admin undoes its own two changes.
    const undone = await insider.call('POST', `${API}/changes/${change}/undo`);
    const undone2 = await insider.call('POST', `${API}/changes/${made.change_id}/undo`);
    ctx.check(undone.json?.success === 'Undone' && undone2.json?.success === 'Undone', `library ${PRIVATE_LIBRARY}'s admin undoes its own changes`);
  },
};
