// Harvesting from a local OAI-PMH provider: pages and tokens, deletions, faults, force, files, reports.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADERS, testApp, type TestApp } from '../test/fixture.ts';
import { APP_BACKENDS } from '../test/backends.ts';
import { loginCookie, TEST_PASSWORD } from '../libraryadmin/test-helpers.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { startOaiServer, marcXml, dcXml, type OaiTestServer, type ServedRecord } from './test/oai-server.ts';
import { createJobWorker } from '../app.ts';
import { runHarvestCli } from './cli.ts';
import { SiteStore } from './sites.ts';
import { HarvestService } from './service.ts';
import { isPublicAddress } from './fetch.ts';
import { messageCatalogue, translateMessage } from '../http/messages.ts';

let t: TestApp;
let oai: OaiTestServer;

/** An amusewiki-like MARC21 record: 100/700 authors, 245 with $c, 260 $c year, 856 to the text page. */
function amusewikiRecord(slug: string, title: string, author: string, datestamp = '2026-01-01T00:00:00Z', extra: Partial<ServedRecord> = {}): ServedRecord {
  return {
    identifier: `oai:lib.example:${slug}`,
    datestamp,
    sets: ['web'],
    metadata: marcXml([
      ['008', '260101s2019    xx            000 0 eng d'],
      ['041', '  ', [['a', 'eng']]],
      ['100', '1 ', [['a', author]]],
      ['245', '10', [['a', `${title} /`], ['c', author]]],
      ['260', '  ', [['a', 'Somewhere :'], ['b', 'Lantern Press,'], ['c', '2019.']]],
      ['520', '  ', [['a', `About ${title}.`]]],
      ['856', '4 ', [['u', `${oai.url.replace('/oai', '')}/library/${slug}`], ['q', 'text/html'], ['y', 'Text']]],
    ]),
    ...extra,
  };
}

function serveText(slug: string) {
  oai.files.set(`/library/${slug}.muse`, { type: 'text/plain', body: `#title ${slug}\n\nSome text of ${slug}.\n` });
  oai.files.set(`/library/${slug}.zip`, { type: 'application/zip', body: Buffer.from(zipSync({ [`${slug}/${slug}.muse`]: new TextEncoder().encode(`#title ${slug}\n`) })) });
}

function addSite(fields: Record<string, unknown> = {}): number {
  const s = t.services.sites.create(1, { title: 'Lantern', site_type: 'amusewiki', url: oai.url, active: true, harvest_interval_minutes: 30, ...fields } as never, true);
  return s.id;
}

/** Titles an anonymous visitor finds, through the search API. */
const visibleTitles = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/collector/api/search?query=${encodeURIComponent(query)}` });
  // A match's title is the list [title, subtitle] of {id, value}.
  return (res.json().matches as { title: { value: string }[] }[]).map((m) => m.title[0].value);
};

describe.each(APP_BACKENDS)('harvesting through the app on %s', (dialect) => {
  beforeAll(async () => {
    t = await testApp(undefined, { harvestBackoffMs: 10, harvestRetries: 2, harvestMaxResponseMb: 2, harvestTimeoutSeconds: 5, harvestAllowPrivate: true }, dialect);
    const a = t.services.accounts;
    await a.createUser({ username: 'lib1-admin', email: 'l1@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [1] });
    await a.createUser({ username: 'lib2-admin', email: 'l2@example.org', password: TEST_PASSWORD, library_admin: true, libraryIds: [2] });
    await a.createUser({ username: 'boss', email: 'boss@example.org', password: TEST_PASSWORD, is_superuser: true });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    oai = await startOaiServer({ pageSize: 2 });
  });
  afterEach(async () => oai.close());

  describe('an OAI-PMH harvest', () => {
    it('follows resumption tokens, stores every record with its Muse source and zip, and reports the counts', async () => {
      for (const n of ['one', 'two', 'three', 'four', 'five']) {
        oai.records.push(amusewikiRecord(`text-${n}`, `Harvested text ${n}`, `Writer ${n}`));
        serveText(`text-${n}`);
      }
      // The download formats the site offers, read before its harvest and kept with it.
      oai.files.set('/api/format-definitions', { type: 'application/json', body: JSON.stringify([{ code: 'pdf', ext: '.pdf', desc: 'PDF' }, { code: 'epub', ext: '.epub', desc: 'EPUB' }]) });
      const siteId = addSite();
      const run = await t.services.harvest.runNow(siteId, false);
      expect(run.message).toBeNull();
      expect(run).toMatchObject({ status: 'finished', pages: 3, records: 5, total: 5, new: 5, updated: 0, failed: 0 });
      expect(oai.requests.filter((r) => r.includes('resumptionToken'))).toHaveLength(2);
      // Identify comes first; amusewiki harvests set "web".
      expect(oai.requests.find((r) => r.includes('verb='))).toContain('verb=Identify');
      expect(oai.requests.find((r) => r.includes('ListRecords'))).toContain('set=web');

      const entryId = t.services.db.sqlite.prepare("SELECT entry_id FROM data_sources WHERE identifier = 'oai:lib.example:text-two'").pluck().get() as number;
      const entry = t.services.catalogue.getEntry(entryId, ANONYMOUS)!;
      expect(entry.title).toBe('Harvested text two'); // 245 $c is not glued to the title
      expect(entry.data_sources[0]).toMatchObject({ year_edition: 2019, can_add_to_bookbuilder: true, has_full_text: true });
      expect(JSON.parse(t.services.db.sqlite.prepare('SELECT amusewiki_formats FROM sites WHERE id = ?').pluck().get(siteId) as string)).toHaveLength(2);
      expect(JSON.parse(t.services.db.sqlite.prepare('SELECT downloads FROM data_sources WHERE id = ?').pluck().get(entry.data_sources[0].data_source_id) as string)).toEqual(['pdf', 'epub']);
      const html = t.services.fullText.html(entry.data_sources[0].data_source_id);
      expect(html).toContain('Some text of text-two');
      // The text itself is searched.
      expect(await visibleTitles('"some text of text-four"')).toEqual(['Harvested text four']);
    });

    it('harvests incrementally from the repository\'s own clock and does not fetch unchanged texts again', async () => {
      oai.records.push(amusewikiRecord('inc-a', 'Incremental A', 'Ada'), amusewikiRecord('inc-b', 'Incremental B', 'Bea'));
      serveText('inc-a');
      serveText('inc-b');
      oai.clock = () => '2030-05-05T10:00:00Z';
      const siteId = addSite();
      await t.services.harvest.runNow(siteId, false);
      oai.requests.length = 0;
      const again = await t.services.harvest.runNow(siteId, false);
      expect(again.status).toBe('finished');
      expect(oai.requests.find((r) => r.includes('ListRecords'))).toContain('from=2030-05-05T10%3A00%3A00Z');
      expect(oai.requests.some((r) => r.endsWith('.muse'))).toBe(false);
      // A full harvest lists both again: the unchanged one keeps its files, the changed one is fetched anew.
      oai.records[1] = amusewikiRecord('inc-b', 'Incremental B, revised', 'Bea', '2030-05-06T00:00:00Z');
      oai.requests.length = 0;
      expect(await t.services.harvest.runNow(siteId, true)).toMatchObject({ status: 'finished', updated: 1, unchanged: 1 });
      expect(oai.requests.filter((r) => /\.(muse|zip)$/.test(r)).sort()).toEqual(['/library/inc-b.muse', '/library/inc-b.zip']);
    });

    it('removes a deleted record with its files; the entry drops out where nothing else holds it', async () => {
      oai.records.push(amusewikiRecord('gone', 'A text that goes away', 'Gone Writer'), amusewikiRecord('stays', 'A text that stays', 'Stay Writer'));
      serveText('gone');
      serveText('stays');
      const siteId = addSite();
      await t.services.harvest.runNow(siteId, false);
      const dsId = t.services.db.sqlite.prepare("SELECT id FROM data_sources WHERE identifier = 'oai:lib.example:gone'").pluck().get() as number;
      expect(t.services.files.get(dsId, '.muse')).not.toBeNull();
      expect(await visibleTitles('"goes away"')).toEqual(['A text that goes away']);

      oai.records[0] = { identifier: 'oai:lib.example:gone', datestamp: '2031-01-01T00:00:00Z', deleted: true, sets: ['web'] };
      const run = await t.services.harvest.runNow(siteId, false);
      expect(run).toMatchObject({ status: 'finished', deleted: 1 });
      expect(t.services.db.sqlite.prepare("SELECT count(*) FROM data_sources WHERE identifier = 'oai:lib.example:gone'").pluck().get()).toBe(0);
      expect(t.services.files.get(dsId, '.muse')).toBeNull();
      expect(await visibleTitles('"goes away"')).toEqual([]);
      expect(await visibleTitles('"that stays"')).toEqual(['A text that stays']);
    });

    it('restarts the list when a resumption token has expired, and waits as a 503 Retry-After asks', async () => {
      for (let i = 0; i < 5; i++) oai.records.push({ identifier: `oai:x:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Token test ${i}`], creator: ['Tess Token'], language: ['en'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.faults.expireTokens = 1;
      oai.faults.unavailable = { times: 1, retryAfter: 1 };
      const started = Date.now();
      const run = await t.services.harvest.runNow(siteId, false);
      expect(run.message).toBeNull();
      expect(run).toMatchObject({ status: 'finished', failed: 0 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(siteId)).toBe(5);
    });

    it('takes noRecordsMatch as an empty harvest; reports HTTP errors, rejected tokens and silent servers once their retries are spent', async () => {
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.clock = () => '2025-01-01T00:00:00Z'; // the next runs ask from then
      expect(await t.services.harvest.runNow(siteId, false)).toMatchObject({ status: 'finished', records: 0, message: null });

      for (let i = 0; i < 5; i++) oai.records.push({ identifier: `oai:r:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Retry test ${i}`], creator: ['Rita Retry'] }) });
      oai.faults.unavailable = { times: 100, retryAfter: 0 };
      oai.requests.length = 0;
      const busy = await t.services.harvest.runNow(siteId, false);
      expect(busy).toMatchObject({ status: 'failed', message: expect.stringMatching(/is busy or has a fault of its own \(HTTP 503\); the next harvest tries again \(tried 3 times\)/) });
      expect(oai.requests).toHaveLength(3); // the first attempt and harvestRetries (2) more
      oai.faults.unavailable = undefined;

      oai.faults.expireTokens = 100;
      const expired = await t.services.harvest.runNow(siteId, false);
      expect(expired).toMatchObject({ status: 'failed', message: expect.stringMatching(/badResumptionToken.*restarted 2 times/) });
      expect(expired.records).toBeGreaterThan(0); // the first pages were read every time
      oai.faults.expireTokens = 0;

      oai.faults.delayMs = 3000;
      const impatient = new HarvestService(t.services.db, t.services.sites, t.services.ingest, t.services.files, t.services.jobs, t.services.mail,
        { fetch: { retries: 0, timeoutMs: 1000, allowPrivate: true } });
      const started = Date.now();
      expect(await impatient.runNow(siteId, false)).toMatchObject({ status: 'failed', message: expect.stringMatching(/No answer from 127\.0\.0\.1:\d+ within 1 s/) });
      expect(Date.now() - started).toBeLessThan(2500);
      oai.faults.delayMs = 0;
      expect(await t.services.harvest.runNow(siteId, false)).toMatchObject({ status: 'finished', records: 5 });
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(siteId)).toBe(5);
    });

    it('reports a malformed page, keeps what came before, and starts from the same point next time', async () => {
      for (let i = 0; i < 6; i++) oai.records.push({ identifier: `oai:m:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Malformed test ${i}`], creator: ['Mal Formed'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.faults.malformedPages = [2];
      const run = await t.services.harvest.runNow(siteId, false);
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(/not well-formed XML/);
      expect(run.records).toBe(2);
      expect(t.services.sites.get(siteId)).toMatchObject({ last_harvested: null, consecutive_failures: 1 });
      oai.faults.malformedPages = [];
      const next = await t.services.harvest.runNow(siteId, false);
      expect(next).toMatchObject({ status: 'finished', new: 4, unchanged: 2 });
    });

    it('gives a clear message for an HTML page, an endless answer, an XML bomb and a non-http URL, and keeps serving', async () => {
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.faults.html = true;
      expect((await t.services.harvest.runNow(siteId, false)).message).toMatch(/HTML page.*OAI-PMH base URL/);
      oai.faults.html = false;
      oai.faults.endless = true;
      expect((await t.services.harvest.runNow(siteId, false)).message).toMatch(/larger than the 2 MB/);
      oai.faults.endless = false;
      oai.faults.bomb = true;
      expect((await t.services.harvest.runNow(siteId, false)).message).toMatch(/DOCTYPE/);
      t.services.db.sqlite.prepare("UPDATE sites SET url = 'ftp://files.example.org/oai' WHERE id = ?").run(siteId);
      expect((await t.services.harvest.runNow(siteId, false)).message).toMatch(/Only http and https/);
      const res = await t.app.inject({ method: 'GET', url: '/collector/api/search?query=mutual' });
      expect(res.statusCode).toBe(200);
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(siteId)).toBe(0);
    });

    it('refuses private-network addresses unless they are allowed (a site URL must not reach the server\'s own services)', async () => {
      oai.records.push({ identifier: 'oai:p:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Private'], creator: ['P'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      const logged: string[] = [];
      const guarded = new HarvestService(t.services.db, t.services.sites, t.services.ingest, t.services.files, t.services.jobs, t.services.mail, {
        fetch: { retries: 0 }, log: (msg, extra) => logged.push(`${msg} ${JSON.stringify(extra)}`),
      });
      expect((await guarded.runNow(siteId, false)).message).toMatch(/^The address 127\.0\.0\.1:\d+ is not allowed: it is not on the public internet$/);
      // By name too: "localhost" resolves to a loopback address. The report names the host as typed, never
      // what it resolved to (issue 27: a library admin must not map the server's network by typing names);
      // the address and the setting that allows it go to the server log.
      t.services.db.sqlite.prepare('UPDATE sites SET url = ? WHERE id = ?').run(oai.url.replace('127.0.0.1', 'localhost'), siteId);
      const byName = (await guarded.runNow(siteId, false)).message!;
      expect(byName).toMatch(/^The address localhost(:\d+)? is not allowed: it is not on the public internet$/);
      expect(byName).not.toMatch(/127\.0\.0\.1|::1|HARVEST_ALLOW_PRIVATE/);
      expect(logged.filter((l) => l.startsWith('harvest failed')).at(-1)).toMatch(/harvest failed.*localhost is (127\.0\.0\.1|::1), a private network address; HARVEST_ALLOW_PRIVATE/);
      expect(isPublicAddress('10.1.2.3')).toBe(false);
      expect(isPublicAddress('169.254.169.254')).toBe(false);
      expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
      expect(isPublicAddress('fd00::1')).toBe(false);
      expect(isPublicAddress('93.184.216.34')).toBe(true);
      expect(await t.services.harvest.runNow(siteId, false)).toMatchObject({ status: 'finished', new: 1 });
    });

    it('a failed run says what a site admin can act on; system errors, addresses and stacks go to the server log only', async () => {
      const logged: string[] = [];
      const harvest = new HarvestService(t.services.db, t.services.sites, t.services.ingest, t.services.files, t.services.jobs, t.services.mail, {
        fetch: { retries: 0, allowPrivate: true, timeoutMs: 5000 }, log: (msg, extra) => logged.push(`${msg} ${JSON.stringify(extra)}`),
      });
      // A port nothing listens on: the system's ECONNREFUSED (with the address) is not in the report.
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const closedPort = (probe.address() as net.AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const refused = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc', url: `http://127.0.0.1:${closedPort}/oai` });
      const r1 = await harvest.runNow(refused, false);
      expect(r1).toMatchObject({ status: 'failed', message: `127.0.0.1:${closedPort} refused the connection: the site is down, or the address has a wrong port` });
      expect(logged.filter((l) => l.startsWith('harvest failed')).at(-1)).toMatch(/harvest failed.*ECONNREFUSED/);
      // A name that does not resolve: no getaddrinfo text in the report.
      const unknown = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc', url: 'http://no-such-host.invalid/oai' });
      const r2 = await harvest.runNow(unknown, false);
      // Said for a librarian: no system code, and what to check (a lookup failing for a while, EAI_AGAIN, is 'cannot reach').
      expect(r2.message).toMatch(/^(There is no site at no-such-host\.invalid: check the address for a typing mistake|Cannot reach no-such-host\.invalid: the site may be down; the next harvest tries again)$/);
      expect(logged.filter((l) => l.startsWith('harvest failed')).at(-1)).toMatch(/harvest failed.*(ENOTFOUND|EAI_AGAIN|getaddrinfo)/);
      // A bug of ours (here: the database refusing a write) is "unexpected", its text in the log only.
      const broken = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.records.push({ identifier: 'oai:u:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Unlucky'], creator: ['U'] }) });
      const store = t.services.ingest.store.bind(t.services.ingest);
      t.services.ingest.store = () => {
        throw new Error('SQLITE_CONSTRAINT at /srv/secret/data/catalogue.db');
      };
      try {
        const r3 = await harvest.runNow(broken, false);
        expect(r3.message).toBe('Unexpected error (the details are in the server log)');
        expect(JSON.stringify(r3)).not.toMatch(/secret|SQLITE/);
        expect(logged.filter((l) => l.startsWith('harvest failed')).at(-1)).toMatch(/harvest failed.*SQLITE_CONSTRAINT at \/srv\/secret/);
      } finally {
        t.services.ingest.store = store;
      }
      // Over HTTP, in another language too: the stored report carries no internals.
      const cookie = await loginCookie(t, 'boss');
      const runs = await t.app.inject({ url: `/collector/api/admin/sites/${unknown}/harvests`, headers: { cookie, 'accept-language': 'de' } });
      expect(runs.statusCode).toBe(200);
      expect(runs.json().runs[0].message).toMatch(/^(Unter no-such-host\.invalid gibt es keine Website|no-such-host\.invalid ist nicht erreichbar)/);
      expect(runs.body).not.toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN/);
      // A run stored before this rule is shown in today's words, without the address it held.
      const old = t.services.db.sqlite.prepare("INSERT INTO harvest_runs (site_id, status, force, message) VALUES (?, 'failed', 0, ?) RETURNING id").pluck()
        .get(unknown, JSON.stringify({ template: '{{host}} is a private network address ({{address}}); harvesting those is switched off (HARVEST_ALLOW_PRIVATE)', values: { host: 'intranet.example', address: '10.0.0.7' } })) as number;
      expect(t.services.harvest.run(old)!.message).toBe('The address intranet.example is not allowed: it is not on the public internet');
    });

    it('a record\'s script link (javascript: 856 $u) is left out with a warning in the log, and its Muse text\'s script links come out as text', async () => {
      const logged: string[] = [];
      const harvest = new HarvestService(t.services.db, t.services.sites, t.services.ingest, t.services.files, t.services.jobs, t.services.mail, {
        fetch: { retries: 0, allowPrivate: true }, log: (msg, extra) => logged.push(`${msg} ${JSON.stringify(extra)}`),
      });
      const rec = amusewikiRecord('script-links', 'Script links', 'Mallory');
      rec.metadata = rec.metadata!.replace('<marc:datafield tag="856"', '<marc:datafield tag="856" ind1="4" ind2=" "><marc:subfield code="u">javascript:alert(document.cookie)</marc:subfield></marc:datafield><marc:datafield tag="856"');
      expect(rec.metadata).toContain('javascript:alert(document.cookie)');
      oai.records.push(rec);
      oai.files.set('/library/script-links.muse', { type: 'text/plain', body: '#title Script links\n\nClick [[javascript:alert(document.cookie)][here]], [[JaVaScRiPt:alert(1)]], [[data:text/html;base64,PHNjcmlwdD4=][there]], [[vbscript:msgbox(1)][or here]] or [[https://example.org/fine][a fine one]].\n' });
      oai.files.set('/library/script-links.zip', { type: 'application/zip', body: Buffer.from(zipSync({ 'script-links/script-links.muse': new TextEncoder().encode('#title x\n') })) });
      const siteId = addSite();
      expect(await harvest.runNow(siteId, false)).toMatchObject({ status: 'finished', new: 1, failed: 0 });
      const ds = t.services.db.sqlite.prepare("SELECT id, uri FROM data_sources WHERE identifier = 'oai:lib.example:script-links'").get() as { id: number; uri: string };
      expect(ds.uri).toBe(`${oai.url.replace('/oai', '')}/library/script-links`);
      expect(logged.find((l) => l.startsWith('harvest links left out'))).toContain('javascript:alert(document.cookie)');
      const res = await t.app.inject({ url: `/collector/api/full-text/${ds.id}` });
      expect(res.statusCode).toBe(200);
      const html = res.json().html as string;
      expect(html).toContain('here');
      expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
      expect(html).toContain('href="https://example.org/fine"');
    });

    it('reports a record with no title and stores the others', async () => {
      oai.records.push(
        { identifier: 'oai:n:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ creator: ['Nobody'] }) },
        { identifier: 'oai:n:2', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Has a title'], creator: ['Somebody'] }) },
      );
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      const run = await t.services.harvest.runNow(siteId, false);
      expect(run).toMatchObject({ status: 'finished', new: 1, failed: 1, errors: [{ identifier: 'oai:n:1', message: 'The record has no title' }] });
    });

    it('a full harvest replaces the site\'s records only once the new set is complete', async () => {
      for (let i = 0; i < 4; i++) oai.records.push({ identifier: `oai:f:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Full harvest ${i}`], creator: ['Fay Full'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      await t.services.harvest.runNow(siteId, false);
      oai.records.splice(0, 1); // the source dropped a record without telling (no deleted header)
      oai.faults.malformedPages = [2];
      const broken = await t.services.harvest.runNow(siteId, true);
      expect(broken.status).toBe('failed');
      expect(t.services.db.sqlite.prepare('SELECT count(*) FROM data_sources WHERE site_id = ?').pluck().get(siteId)).toBe(4);
      oai.faults.malformedPages = [];
      const full = await t.services.harvest.runNow(siteId, true);
      expect(full).toMatchObject({ status: 'finished', deleted: 1, unchanged: 3 });
      expect(oai.requests.filter((r) => r.includes('ListRecords')).at(-2)).not.toContain('from=');
      expect(await visibleTitles('"full harvest 0"')).toEqual([]);
    });

    it('reads UNIMARC from a Koha UNIMARC site and a marc21 generic site as MARC21, with aggregations from 773', async () => {
      oai.records.push({
        identifier: 'KOHA-OAI-TEST:11', datestamp: '2026-01-01T00:00:00Z',
        metadata: marcXml([
          ['010', '  ', [['a', '978-88-00000-00-0']]],
          ['101', '0 ', [['a', 'ita']]],
          ['200', '1 ', [['a', 'Storia della biblioteca'], ['f', 'a cura di Nessuno']]],
          ['210', '  ', [['a', 'Milano'], ['c', 'Edizioni Libere'], ['d', '1977']]],
          ['700', ' 1', [['a', 'Rossi'], ['b', 'Maria']]],
        ]),
      });
      const unimarcSite = addSite({ site_type: 'koha-unimarc' });
      expect(await t.services.harvest.runNow(unimarcSite, false)).toMatchObject({ status: 'finished', new: 1 });
      const ds = t.services.db.sqlite.prepare("SELECT title, authors, year_edition FROM data_sources WHERE identifier = 'KOHA-OAI-TEST:11'").get() as { title: string; authors: string; year_edition: number };
      expect(ds.title).toBe('Storia della biblioteca');
      expect(JSON.parse(ds.authors)).toEqual(['Rossi, Maria']);
      expect(ds.year_edition).toBe(1977);

      oai.records.length = 0;
      oai.records.push({
        identifier: 'oai:g:part', datestamp: '2026-01-01T00:00:00Z',
        metadata: marcXml([
          ['100', '1 ', [['a', 'Goldman, Emma']]],
          ['245', '10', [['a', 'An essay in a journal']]],
          ['700', '1 ', [['a', 'Berkman, Alexander']]],
          ['773', '0 ', [['t', 'Mother Earth'], ['g', 'vol. 1'], ['q', '3']]],
        ]),
      });
      const genericSite = addSite({ site_type: 'generic', oai_metadata_format: 'marc21' });
      expect(await t.services.harvest.runNow(genericSite, false)).toMatchObject({ status: 'finished', new: 1 });
      const part = t.services.db.sqlite.prepare("SELECT entry_id, authors FROM data_sources WHERE identifier = 'oai:g:part'").get() as { entry_id: number; authors: string };
      expect(JSON.parse(part.authors)).toEqual(['Goldman, Emma', 'Berkman, Alexander']);
      const entry = t.services.catalogue.getEntry(part.entry_id, ANONYMOUS)!;
      expect(entry.aggregations.map((a) => a.title[0].value)).toEqual(['Mother Earth vol. 1']);
    });

    it('harvests the fixture catalogues as their servers send them: Koha MARC21 with items, Koha UNIMARC, oai_dc', async () => {
      const fixture = (name: string) => fs.readFileSync(path.join(process.cwd(), 'server/src/harvest/test-fixtures', name), 'utf8');
      // Each <record> of a MARCXML collection, as a record's metadata (the collection's namespace declared on it).
      const marcRecords = (name: string) => [...fixture(name).matchAll(/<record>[\s\S]*?<\/record>/g)]
        .map((m) => m[0].replace('<record>', '<record xmlns="http://www.loc.gov/MARC21/slim">'));
      const serve = (prefix: string, metadata: string[]) => {
        oai.records.length = 0;
        metadata.forEach((m, i) => oai.records.push({ identifier: `${prefix}:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: m }));
      };
      const stored = (identifier: string) => t.services.db.sqlite.prepare('SELECT * FROM data_sources WHERE identifier = ?').get(identifier) as Record<string, string | number | null>;
      const partOf = (identifier: string) => t.services.catalogue.getEntry(stored(identifier).entry_id as number, ANONYMOUS)!.aggregations.map((a) => a.title[0].value);

      serve('koha21', marcRecords('marc21-koha.xml'));
      expect(await t.services.harvest.runNow(addSite({ site_type: 'koha-marc21' }), false)).toMatchObject({ status: 'finished', new: 2, failed: 0 });
      expect(stored('koha21:0')).toMatchObject({ title: 'The commons of the sea', subtitle: 'fishing cooperatives on the Adriatic, 1890-1930', year_edition: 2021,
        shelf_location_code: 'HD1541 .F47 2021\nHD1541 .F47 2021 c.2', authors: JSON.stringify(['Ferrer, Lucia', 'Vidal, Tomas', 'Adriatic Labour Archive']) });
      expect(partOf('koha21:0')).toEqual(['Maritime histories']);
      expect(partOf('koha21:1')).toEqual(['Quaderni della laguna Anno 3, n. 2 (1987) (Chioggia : Circolo dei pescatori, 1987)']);

      serve('kohauni', marcRecords('unimarc-koha.xml'));
      expect(await t.services.harvest.runNow(addSite({ site_type: 'koha-unimarc' }), false)).toMatchObject({ status: 'finished', new: 2, failed: 0 });
      expect(stored('kohauni:0')).toMatchObject({ title: "L'anarchie dans les vallées", year_edition: 1975, authors: JSON.stringify(['Morel, Jeanne', 'Ricci, Paolo']) });
      expect(partOf('kohauni:0').sort()).toEqual(['Histoires des Alpes Tome 2 (Lyon, 1975)', 'Mémoires sociales']);

      serve('dc', [fixture('oai-dc.xml').replace(/^[\s\S]*?(?=<oai_dc:dc)/, '')]);
      expect(await t.services.harvest.runNow(addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' }), false)).toMatchObject({ status: 'finished', new: 1, failed: 0 });
      expect(stored('dc:0')).toMatchObject({ title: 'Seed libraries in the Po valley', subtitle: 'A survey of twelve exchanges', authors: JSON.stringify(['Galli, Marta', 'Nowak, Piotr']) });
    });

    it('keeps curation (a merge, a translation, an exclusion) through a full re-harvest that changes every record', async () => {
      const rec = (n: number, title: string, extra: Record<string, string[]> = {}, datestamp = '2026-01-01T00:00:00Z'): ServedRecord =>
        ({ identifier: `oai:c:${n}`, datestamp, metadata: dcXml({ title: [title], creator: ['Cura Tor'], ...extra }) });
      const titles = ['Curated one', 'Curated one, again', 'Curated original', 'Curated traduzione', 'Curated outcast'];
      oai.records.push(...titles.map((title, i) => rec(i + 1, title)));
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      oai.clock = () => '2026-01-15T00:00:00Z';
      await t.services.harvest.runNow(siteId, false);
      const entryOf = (n: number) => t.services.db.sqlite.prepare('SELECT entry_id FROM data_sources WHERE identifier = ?').pluck().get(`oai:c:${n}`) as number;
      const boss = await loginCookie(t, 'boss');
      const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/collector/api${url}`, headers: { ...CSRF_HEADERS, cookie: boss }, payload });
      expect((await post('/merge/entry', [{ id: entryOf(1) }, { id: entryOf(2) }])).json().success).toBeTruthy();
      expect((await post('/set-translations', [{ id: entryOf(3) }, { id: entryOf(4) }])).json().success).toBeTruthy();
      expect((await post('/exclusions', { op: 'add', type: 'entry', id: entryOf(5), comment: 'not for me' })).json().success).toBeTruthy();
      const bossFinds = async (q: string) => (await t.app.inject({ method: 'GET', url: `/collector/api/search?query=${encodeURIComponent(q)}`, headers: { cookie: boss } })).json().total_entries as number;

      oai.records.splice(0, oai.records.length, ...titles.map((title, i) => rec(i + 1, title, { description: ['Now with a description'] }, '2026-02-01T00:00:00Z')));
      expect(await t.services.harvest.runNow(siteId, true)).toMatchObject({ status: 'finished', updated: 5, deleted: 0 });
      expect(await visibleTitles('"curated one"')).toHaveLength(1);
      expect(t.services.catalogue.getEntry(entryOf(4), ANONYMOUS)!.original_entry?.id).toBe(entryOf(3));
      expect(await bossFinds('"curated outcast"')).toBe(0);
      expect(await visibleTitles('"curated outcast"')).toEqual(['Curated outcast']);
    });
  });

  describe('harvest runs through the API, the worker and the schedule', () => {
    it('"Test connection" tells a library admin what an address offers (name, formats, sets), or why it cannot be harvested, before saving', async () => {
      oai.records.push({ identifier: 'oai:t:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Tested'], creator: ['T'] }), sets: ['zines', 'books'] });
      const url = '/collector/api/library/sites/1/test';
      const body = { site_type: 'generic', url: `${oai.url}`, oai_metadata_format: 'oai_dc' };
      expect((await t.app.inject({ method: 'POST', url, headers: CSRF_HEADERS, payload: body })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url, headers: { ...CSRF_HEADERS, cookie: await loginCookie(t, 'lib2-admin') }, payload: body })).statusCode).toBe(403);
      const admin = await loginCookie(t, 'lib1-admin');
      const test = (payload: object, lang?: string) =>
        t.app.inject({ method: 'POST', url, headers: { ...CSRF_HEADERS, cookie: admin, ...(lang ? { 'accept-language': lang } : {}) }, payload });
      const ok = await test(body);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({
        ok: true, repository_name: 'Test library', formats: ['oai_dc', 'marc21'], format: 'oai_dc', format_offered: true,
        sets: [{ spec: 'books', name: 'Set books' }, { spec: 'zines', name: 'Set zines' }], more_sets: false,
      });
      // A Koha site is harvested in marc21; nothing was stored or queued by the test.
      expect((await test({ site_type: 'koha-marc21', url: oai.url })).json()).toMatchObject({ ok: true, format: 'marc21', format_offered: true });
      expect(t.services.db.sqlite.prepare("SELECT count(*) FROM data_sources WHERE identifier = 'oai:t:1'").pluck().get()).toBe(0);
      // Not an OAI-PMH endpoint, or nothing there: said as a run's report says it, in the reader's language.
      oai.faults.html = true;
      expect((await test(body)).json()).toEqual({ ok: false, error: expect.stringMatching(/^The endpoint answered an HTML page/) });
      oai.faults.html = false;
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const closedPort = (probe.address() as net.AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const down = await test({ ...body, url: `http://127.0.0.1:${closedPort}/oai` }, 'de');
      expect(down.json()).toEqual({ ok: false, error: `127.0.0.1:${closedPort} hat die Verbindung abgelehnt: Die Website ist nicht in Betrieb, oder die Adresse hat einen falschen Port` });
      expect((await test({ ...body, url: 'ftp://example.org/oai' })).statusCode).toBe(400);
    });

    it('lets a library admin start a run (once at a time) and read the reports; others are refused', async () => {
      oai.records.push({ identifier: 'oai:api:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Through the API'], creator: ['Api Writer'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      expect((await t.app.inject({ method: 'POST', url: `/collector/api/admin/sites/${siteId}/harvest`, headers: CSRF_HEADERS, payload: {} })).statusCode).toBe(401);
      const admin = await loginCookie(t, 'lib1-admin');
      const other = await loginCookie(t, 'lib2-admin');
      const post = (cookie: string) => t.app.inject({ method: 'POST', url: `/collector/api/admin/sites/${siteId}/harvest`, headers: { ...CSRF_HEADERS, cookie }, payload: {} });
      expect((await post(other)).statusCode).toBe(403);
      const first = await post(admin);
      expect(first.statusCode).toBe(202);
      expect(first.json().run).toMatchObject({ status: 'queued', site_id: siteId });
      expect((await post(admin)).json()).toEqual({ error: 'A harvest of this site is already queued or running' });

      const jobs = createJobWorker({ jobConcurrency: 1, harvestScheduleSeconds: 0 }, t.services);
      jobs.start();
      await jobs.worker.idle(20_000);
      await jobs.stop();
      const runs = await t.app.inject({ method: 'GET', url: `/collector/api/admin/sites/${siteId}/harvests`, headers: { cookie: admin } });
      expect(runs.json().runs[0]).toMatchObject({ status: 'finished', new: 1 });
      const sites = await t.app.inject({ method: 'GET', url: '/collector/api/library/sites/1', headers: { cookie: admin } });
      expect(sites.json().sites.find((s: { id: number }) => s.id === siteId)).toMatchObject({ data_sources: 1, failing: false, last_run: { status: 'finished' } });
    });

    it('reports why a run and a record failed in the reader\'s language (Accept-Language), old English reports as they are', async () => {
      oai.records.push(
        { identifier: 'oai:l:1', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ creator: ['Nobody'] }) },
        { identifier: 'oai:l:2', datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: ['Read in German'], creator: ['Somebody'] }) },
      );
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      expect(await t.services.harvest.runNow(siteId, false)).toMatchObject({ status: 'finished', failed: 1 });
      oai.faults.malformedPages = [1];
      expect(await t.services.harvest.runNow(siteId, true)).toMatchObject({ status: 'failed' });
      oai.faults.malformedPages = [];
      const admin = await loginCookie(t, 'lib1-admin');
      const runs = async (lang?: string) => (await t.app.inject({ method: 'GET', url: `/collector/api/admin/sites/${siteId}/harvests`,
        headers: { cookie: admin, ...(lang ? { 'accept-language': lang } : {}) } })).json().runs as { message: string | null; errors: { identifier: string; message: string }[] }[];
      const de = messageCatalogue('de');
      const [failedDe, finishedDe] = await runs('de-DE,de;q=0.9');
      const [failedEn, finishedEn] = await runs();
      // The run's reason: "ListRecords: <the XML error>", both parts translated.
      expect(failedEn.message).toMatch(/^ListRecords: The document is not well-formed XML: \S/);
      expect(failedDe.message!.startsWith(`ListRecords: ${de['The document is not well-formed XML: {{detail}}'].replace('{{detail}}', '')}`)).toBe(true);
      expect(failedDe.message).not.toMatch(/document is not/);
      // A record's reason.
      expect(finishedEn.errors).toEqual([{ identifier: 'oai:l:1', message: 'The record has no title' }]);
      expect(finishedDe.errors).toEqual([{ identifier: 'oai:l:1', message: de['The record has no title'] }]);
      expect(de['The record has no title']).not.toBe('The record has no title');
      // The latest run in the library admin's list of sites and in the superuser's.
      const siteIn = (res: { json(): { sites: { id: number; last_run: { message: string } }[] } }) => res.json().sites.find((s) => s.id === siteId)!.last_run.message;
      expect(siteIn(await t.app.inject({ url: '/collector/api/library/sites/1', headers: { cookie: admin, 'accept-language': 'de' } }))).toBe(failedDe.message);
      const boss = await loginCookie(t, 'boss');
      expect(siteIn(await t.app.inject({ url: '/collector/api/admin/libraries/1/sites', headers: { cookie: boss, 'accept-language': 'de' } }))).toBe(failedDe.message);
      // A run stored before reports were templates reads as it was written.
      t.services.db.sqlite.prepare(`INSERT INTO harvest_runs (site_id, status, message, errors) VALUES (?, 'failed', 'An old English reason', ?)`)
        .run(siteId, JSON.stringify([{ identifier: '(no identifier)', message: 'An old record reason' }]));
      expect((await runs('de'))[0]).toMatchObject({ message: 'An old English reason', errors: [{ identifier: '(no identifier)', message: 'An old record reason' }] });
    });

    it('refuses a site URL that is not http(s) and a Calibre folder from a library admin', async () => {
      const admin = await loginCookie(t, 'lib1-admin');
      const headers = { ...CSRF_HEADERS, cookie: admin };
      const bad = await t.app.inject({ method: 'POST', url: '/collector/api/library/sites/1', headers, payload: { title: 'X', site_type: 'koha-marc21', url: 'file:///etc/passwd' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatch(/http:\/\/ or https:\/\//);
      const calibre = await t.app.inject({ method: 'POST', url: '/collector/api/library/sites/1', headers, payload: { title: 'C', site_type: 'calibretree', tree_path: '/etc' } });
      expect(calibre.statusCode).toBe(403);
    });

    it('queues due sites once, and mails the library once when a site keeps failing', async () => {
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      t.services.db.sqlite.prepare("UPDATE sites SET active = 0 WHERE id <> ?").run(siteId);
      t.services.db.sqlite.prepare("UPDATE libraries SET email_internal = 'desk@lib1.example', languages = 'Croatian, hr, en' WHERE id = 1").run();
      expect(t.services.harvest.scheduleDue()).toBe(0); // not before a first successful run by hand
      await t.services.harvest.runNow(siteId, false);
      expect(t.services.harvest.scheduleDue()).toBe(0); // the interval has not passed
      const later = Date.now() + 31 * 60_000;
      expect(t.services.harvest.scheduleDue(later)).toBe(1);
      expect(t.services.harvest.scheduleDue(later)).toBe(0); // already queued
      t.services.db.sqlite.prepare("UPDATE harvest_runs SET status = 'failed' WHERE site_id = ? AND status = 'queued'").run(siteId);
      t.services.db.sqlite.prepare("DELETE FROM jobs").run();
      oai.faults.html = true;
      const mails = () => t.services.db.sqlite.prepare("SELECT count(*) FROM outbox WHERE kind = 'harvest-failing'").pluck().get() as number;
      const before = mails();
      for (let i = 0; i < 4; i++) await t.services.harvest.runNow(siteId, false);
      expect(t.services.sites.get(siteId)).toMatchObject({ failing: true });
      expect(mails()).toBe(before + 1);
      // In the library's language (its first one the product speaks), the last error included.
      const mail = t.services.db.sqlite.prepare("SELECT subject, body FROM outbox WHERE kind = 'harvest-failing' ORDER BY id DESC").get() as { subject: string; body: string };
      expect(mail.subject).toBe(translateMessage('hr', 'Harvesting "{{site}}" keeps failing', { site: 'Lantern' }));
      expect(mail.subject).not.toMatch(/keeps failing/);
      expect(mail.body).toContain(messageCatalogue('hr')['The endpoint answered an HTML page ({{type}}), not OAI-PMH XML: is {{url}} the OAI-PMH base URL?'].split('{{')[0]);
      oai.faults.html = false;
      await t.services.harvest.runNow(siteId, false);
      expect(t.services.sites.get(siteId)).toMatchObject({ failing: false, consecutive_failures: 0 });
    });

    it('gives a source that does not keep its deletions (Identify: deletedRecord no) a full harvest a day, which drops what it stopped listing', async () => {
      for (let i = 0; i < 3; i++) oai.records.push({ identifier: `oai:d:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Forgetful source ${i}`], creator: ['Fo Getful'] }) });
      oai.deletedRecord = 'no';
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      t.services.db.sqlite.prepare('UPDATE sites SET active = 0 WHERE id <> ?').run(siteId);
      await t.services.harvest.runNow(siteId, false);
      oai.records.splice(0, 1); // gone from the source, without a deleted header
      const queued = () => t.services.harvest.runs(siteId)[0];
      const execute = (id: number) => t.services.harvest.execute(id, new AbortController().signal);
      const minutes = (n: number) => Date.now() + n * 60_000;

      expect(t.services.harvest.scheduleDue(minutes(31))).toBe(1);
      expect(queued()).toMatchObject({ status: 'queued', force: true });
      expect(await execute(queued().id)).toMatchObject({ status: 'finished', deleted: 1 });
      expect(await visibleTitles('"forgetful source 0"')).toEqual([]);
      expect(await visibleTitles('"forgetful source 1"')).toEqual(['Forgetful source 1']);
      // Within the day the scheduled runs are incremental again.
      expect(t.services.harvest.scheduleDue(minutes(62))).toBe(1);
      expect(queued()).toMatchObject({ status: 'queued', force: false });

      // A source that keeps its deletions is never harvested in full by the schedule.
      oai.deletedRecord = 'persistent';
      await execute(queued().id);
      t.services.db.sqlite.prepare('UPDATE sites SET last_full_harvest = NULL WHERE id = ?').run(siteId);
      expect(t.services.harvest.scheduleDue(minutes(93))).toBe(1);
      expect(queued()).toMatchObject({ status: 'queued', force: false });
      t.services.db.sqlite.prepare("UPDATE harvest_runs SET status = 'failed' WHERE site_id = ?").run(siteId);
      t.services.db.sqlite.prepare('DELETE FROM jobs').run();
    });

    it('keeps the newest runs of each site when old ones are purged', async () => {
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      for (let i = 0; i < 4; i++) await t.services.harvest.runNow(siteId, false);
      const before = t.services.harvest.runs(siteId).map((r) => r.id);
      expect(t.services.harvest.purgeRuns(2)).toBeGreaterThanOrEqual(2);
      expect(t.services.harvest.runs(siteId).map((r) => r.id)).toEqual(before.slice(0, 2));
    });

    it('npm run harvest prints a progress line per page', async () => {
      for (let i = 0; i < 3; i++) oai.records.push({ identifier: `oai:cli:${i}`, datestamp: '2026-01-01T00:00:00Z', metadata: dcXml({ title: [`Command line ${i}`], creator: ['Cli Writer'] }) });
      const siteId = addSite({ site_type: 'generic', oai_metadata_format: 'oai_dc' });
      const lines: string[] = [];
      const res = await runHarvestCli(['--site', String(siteId)], t.services.db, t.services.harvest, (l) => lines.push(l));
      expect(res.code).toBe(0);
      expect(lines.slice(0, 2)).toEqual([
        `site ${siteId} page 1: 2 of 3 records received; stored so far: new 0, updated 0, unchanged 0, deleted 0, failed 0`,
        `site ${siteId} page 2: 3 of 3 records received; stored so far: new 0, updated 0, unchanged 0, deleted 0, failed 0`,
      ]);
      expect(lines.at(-1)).toMatch(/finished, 3 records/);
      expect((await runHarvestCli(['--site', 'x'], t.services.db, t.services.harvest, () => undefined)).code).toBe(2);
    });
  });

  describe('a Calibre folder', () => {
    it('stores every book with its files (the .txt is the full text), reports a broken OPF, and drops a book removed from the folder', async () => {
      const root = path.join(t.dir, 'calibre-root');
      fs.cpSync(path.join(process.cwd(), 'server/src/harvest/test-fixtures/calibre'), path.join(root, 'shelf'), { recursive: true });
      t.services.db.sqlite.prepare('UPDATE sites SET active = 0').run();
      const sites = new SiteStore(t.services.db, root);
      const siteId = sites.create(1, { title: 'Calibre', site_type: 'calibretree', tree_path: 'shelf', active: true }, true).id;
      const harvest = new HarvestService(t.services.db, sites, t.services.ingest, t.services.files, t.services.jobs, t.services.mail);
      const run = await harvest.runNow(siteId, false);
      expect(run).toMatchObject({ status: 'finished', new: 3, failed: 1 });
      expect(run.errors[0].identifier).toMatch(/Broken Catalogue Card/);
      const ds = t.services.db.sqlite.prepare("SELECT id, entry_id FROM data_sources WHERE site_id = ? AND title = 'The Commons of the Sea'").get(siteId) as { id: number; entry_id: number };
      expect(t.services.files.list([ds.id]).get(ds.id)).toEqual(['.epub', '.pdf', '.txt']);
      const book = t.services.catalogue.getEntry(ds.entry_id, ANONYMOUS)!;
      expect(book.data_sources[0]).toMatchObject({ has_full_text: true, has_pdf: true });
      // Its Calibre series is an aggregation holding both of its books.
      expect(book.aggregations.map((a) => a.title[0].value)).toEqual(['Harbour Cycle']);
      expect(t.services.catalogue.getEntry(book.aggregations[0].entry_id, ANONYMOUS)!.aggregated.map((e) => e.title[0].value)).toHaveLength(2);
      expect(await visibleTitles('"old draft"')).toEqual([]); // in a hidden folder
      expect(await visibleTitles('"boats of chioggia"')).toEqual(['The Commons of the Sea']); // the .txt is searched

      fs.rmSync(path.join(root, 'shelf', 'Lucia Ferrer', 'Harbour Songs (2)'), { recursive: true });
      const again = await harvest.runNow(siteId, false);
      expect(again).toMatchObject({ status: 'finished', deleted: 1, unchanged: 2 });
      expect(await visibleTitles('"harbour songs"')).toEqual([]);
    });
  });
});
