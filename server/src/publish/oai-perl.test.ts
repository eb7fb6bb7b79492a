// A harvester nobody here wrote: Debian's libhttp-oai-perl (`oai_pmh`) lists every visible record
// of /oai through resumption tokens, over real HTTP. CI installs it (.ci/run); without it, skipped.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureLines, testApp, type TestApp } from '../test/fixture.ts';
import { BACKENDS } from '../test/backends.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { PAGE_SIZE } from './oai-provider.ts';

const available = !spawnSync('oai_pmh', ['--help'], { stdio: 'ignore' }).error;
if (!available) console.warn('oai-perl.test.ts: skipped, the oai_pmh command (Debian package libhttp-oai-perl) is not installed');

const run = promisify(execFile);
const ENTRIES = 3 * PAGE_SIZE + 20;

function lines() {
  const out: object[] = [...fixtureLines()];
  for (let i = 0; i < ENTRIES; i++) {
    out.push({
      type: 'entry', id: 1000 + i, title: `Harvested pamphlet ${i}`, subtitle: i % 3 ? null : `Part ${i}`, authors: [`Author ${i % 23}`],
      languages: [i % 2 ? 'en' : 'it'], year: 1900 + (i % 100), aggregation_id: null, translation_of: null, fulltext: null,
      data_sources: [{ library_id: 1 + (i % 2), identifier: `perl-${i}`, year_edition: 1950, downloads: [] }],
    });
  }
  return out;
}

describe.skipIf(!available).each(BACKENDS)('oai_pmh (libhttp-oai-perl) harvesting /oai on %s', (dialect) => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await testApp(lines(), {}, dialect);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/oai`;
  });
  afterAll(async () => t?.close());

  /** Identifiers oai_pmh printed (one "identifier:" line per record or header; records are separated by form feeds). */
  async function harvest(args: string[]): Promise<{ ids: string[]; out: string }> {
    const { stdout } = await run('oai_pmh', [...args, base], {
      maxBuffer: 64 * 1024 * 1024, timeout: 60_000, env: { ...process.env, no_proxy: '127.0.0.1', NO_PROXY: '127.0.0.1' },
    });
    return { ids: [...stdout.matchAll(/(?:^|\f)identifier: (.+)$/gm)].map((m) => m[1]), out: stdout };
  }

  function expected(library?: number): string[] {
    const all = t.services.db.sqlite.prepare('SELECT id FROM entries WHERE canonical_entry_id IS NULL').pluck().all() as number[];
    const visible = [...t.services.catalogue.visibleEntries(all, ANONYMOUS)];
    const inLibrary = library === undefined ? visible : visible.filter((id) =>
      t.services.db.sqlite.prepare('SELECT 1 FROM oai_sets WHERE entry_id = ? AND library_id = ?').get(id, library));
    return inLibrary.map((id) => `oai:127.0.0.1:entry:${id}`).sort();
  }

  it('lists every identifier through the tokens (ListIdentifiers, oai_dc)', async () => {
    const { ids } = await harvest(['-X', 'ListIdentifiers', '--metadataPrefix', 'oai_dc']);
    expect(ids.length).toBeGreaterThan(3 * PAGE_SIZE);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expected());
  }, 90_000);

  it('lists every record with its MARC21 metadata (ListRecords)', async () => {
    const { ids, out } = await harvest(['-X', 'ListRecords', '--metadataPrefix', 'marc21']);
    expect([...ids].sort()).toEqual(expected());
    // Each record's metadata was parsed by XML::LibXML and printed back.
    expect(out.match(/<marc:record/g)?.length).toBe(ids.length);
  }, 90_000);

  it('harvests one set', async () => {
    const { ids } = await harvest(['-X', 'ListRecords', '--metadataPrefix', 'oai_dc', '--set', 'library:2']);
    expect(ids.length).toBeGreaterThan(PAGE_SIZE);
    expect([...ids].sort()).toEqual(expected(2));
  }, 90_000);
});
