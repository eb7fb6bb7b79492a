// Round trip: one instance harvests another's /oai (over real HTTP, both on 127.0.0.1) and ends with the
// same visible entries: titles, authors, languages, "is part of" and "is a translation of" links; with
// PostgreSQL, a SQLite instance harvests a PostgreSQL one and the other way round.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/fixture.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { APP_BACKENDS } from '../test/backends.ts';

interface Shape { title: string; authors: string[]; languages: string[]; parts: string[]; translationOf: string | null }

/** What an anonymous visitor sees of every entry: the comparable part of its page. */
function visibleEntries(t: TestApp): Shape[] {
  const ids = t.services.db.sqlite.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL').pluck().all() as number[];
  const out: Shape[] = [];
  for (const id of t.services.catalogue.visibleEntries(ids, ANONYMOUS)) {
    const e = t.services.catalogue.getEntry(id, ANONYMOUS);
    if (!e) continue;
    out.push({
      title: e.title,
      authors: e.authors.map((a) => a.value).sort(),
      languages: e.languages.map((l) => l.id).sort(),
      parts: e.aggregated.map((a) => a.title[0].value).sort(),
      translationOf: e.original_entry ? t.services.catalogue.getEntry(e.original_entry.id, ANONYMOUS)?.title ?? null : null,
    });
  }
  return out.sort((a, b) => a.title.localeCompare(b.title));
}

describe.each(APP_BACKENDS)('one instance harvesting another, the harvester on %s', (dialect) => {
  // The source on the other back end when there are two: each one's OAI-PMH answers, the other's harvest.
  const sourceDialect = APP_BACKENDS.find((d) => d !== dialect) ?? dialect;
  let source: TestApp;
  let target: TestApp;
  let oaiUrl: string;

  beforeAll(async () => {
    source = await testApp(undefined, {}, sourceDialect);
    await source.app.listen({ host: '127.0.0.1', port: 0 });
    oaiUrl = `http://127.0.0.1:${(source.app.server.address() as AddressInfo).port}/oai`;
    target = await testApp([{ type: 'settings', site_name: 'Second instance' }, { type: 'library', id: 1, name: 'Aggregator', public: true }], { harvestAllowPrivate: true }, dialect);
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  for (const format of ['marc21', 'oai_dc'] as const) {
    it(`ends with the same visible entries (${format})`, async () => {
      const site = target.services.sites.create(1, { title: `Source (${format})`, site_type: 'generic', url: oaiUrl, oai_metadata_format: format, active: true }, true);
      const run = await target.services.harvest.runNow(site.id, false);
      expect(run.message).toBeNull();
      expect(run).toMatchObject({ status: 'finished', failed: 0 });
      const want = visibleEntries(source);
      const got = visibleEntries(target);
      expect(want.length).toBeGreaterThan(5);
      expect(want.find((e) => e.title === 'Anthology of Essays')?.parts).toEqual(['First Essay', 'Second Essay']);
      expect(want.find((e) => e.title === "L'Entraide")?.translationOf).toBe('Mutual Aid');
      if (format === 'marc21') expect(got).toEqual(want);
      // oai_dc says neither "is part of" nor "is a translation of".
      else expect(got.map(({ parts: _p, translationOf: _o, ...rest }) => rest)).toEqual(want.map(({ parts: _p, translationOf: _o, ...rest }) => rest));
      // A second harvest changes nothing.
      expect(await target.services.harvest.runNow(site.id, false)).toMatchObject({ status: 'finished', new: 0, updated: 0 });
      // Clean up for the other format: the site's records go with a forced harvest of an empty set.
      target.services.ingest.reindex(target.services.ingest.removeDataSources(
        target.services.db.sqlite.prepare('SELECT id FROM data_sources WHERE site_id = ?').pluck().all(site.id) as number[]));
    });
  }
});
