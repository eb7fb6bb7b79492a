// Read replicas (issue 28): a PostgreSQL primary and a streaming hot standby (scripts/pg-cluster.ts,
// pg_basebackup -R), two app nodes (`serve`, JOB_CONCURRENCY=0) with DATABASE_URL = the primary and
// DATABASE_REPLICA_URL = the standby, and a worker on the primary. Checks that searches are read from
// the standby, that a curator's change on node A is searchable on node B within two seconds (and at once
// for the curator, on either node), that a login holds across nodes, that stopping the standby mid-run
// (pg_ctl stop -m immediate) fails no request while both nodes go on from the primary, and that the
// restarted standby is used again. Skips with a notice without PostgreSQL (server/src/test/pg-global-setup.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgConnection } from '../server/src/db/postgres.ts';
import { PG_URL } from '../server/src/test/backends.ts';
import { startPgCluster, startPgStandby, type PgCluster, type PgStandby } from '../scripts/pg-cluster.ts';
import { Client, exited, killGroup, runMain, sleep, startMain, startServer, tail, until, type ServerHandle } from '../bench/lib/child-server.ts';

// The nodes' own end (a bound if this process dies): starting two nodes takes a minute on a loaded machine.
const LIFETIME_S = 420;
const CURATOR = { username: 'replica-curator', password: 'replica curator password' };

if (!PG_URL) console.warn('[e2e] replica.e2e.ts skipped: it needs PostgreSQL (apt-get install postgresql libpq-dev).');

describe.skipIf(!PG_URL)('app nodes reading from a hot standby', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-replica-'));
  const dataDir = path.join(tmp, 'data');
  const logFile = path.join(tmp, 'nodes.log');
  let primary: PgCluster;
  let standby: PgStandby;
  let a: ServerHandle;
  let b: ServerHandle;
  let worker: ChildProcess;

  /** One statement on a server of the test, on a connection of its own (the standby may be down in between). */
  const once = <T>(url: string, sql: string): T => {
    const c = new PgConnection(url);
    try {
      return c.prepare(sql).pluck().get() as T;
    } finally {
      c.close();
    }
  };
  /** Index and table scans of search_docs on the standby: only reads routed there make them (the probes read no table). */
  const standbyReads = () => once<number>(standby.url, `SELECT coalesce(sum(coalesce(idx_scan, 0) + coalesce(seq_scan, 0)), 0) FROM pg_stat_user_tables WHERE relname = 'search_docs'`);
  /** Searches through both nodes until the standby's statistics show its reads (they are flushed about once a second). */
  const readsReachStandby = async (what: string) => {
    const before = standbyReads();
    await until(what, 15_000, 200, async () => {
      for (const node of [a, b]) await new Client(node.base).ok('GET', '/collector/api/search?query=kropotkin');
      return standbyReads() > before;
    });
  };

  /** Two authors with entries that no curation merged yet (each check merges a pair). */
  const authorPair = (offset: number): [number, number] => {
    const c = new PgConnection(primary.url);
    try {
      const ids = c.prepare(`SELECT a.id FROM agents a WHERE a.canonical_agent_id IS NULL AND EXISTS (SELECT 1 FROM entry_agents ea WHERE ea.agent_id = a.id)
        ORDER BY a.id LIMIT 2 OFFSET ?`).pluck().all(offset) as number[];
      return [ids[0]!, ids[1]!];
    } finally {
      c.close();
    }
  };
  const creatorCount = async (client: Client, id: number) => (await client.ok('GET', `/collector/api/search?query=creator:${id}`)).total_entries as number;

  beforeAll(async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    primary = await startPgCluster();
    standby = await startPgStandby(primary);
    const env = { JOB_CONCURRENCY: '0', DATABASE_URL: primary.url, DATABASE_REPLICA_URL: standby.url, LOG_LEVEL: 'warn' };
    // Node A loads the demo into the primary; B starts on the filled database.
    a = await startServer({ dataDir, env, lifetimeS: LIFETIME_S, logFile });
    b = await startServer({ dataDir, env, lifetimeS: LIFETIME_S, logFile });
    console.log(`[replica e2e] node A ready in ${a.startMs} ms (demo loaded), node B in ${b.startMs} ms`);
    const made = runMain(['admin', 'create-user', '--username', CURATOR.username, '--email', 'replica@example.invalid', '--can-merge'],
      { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: primary.url }, `${CURATOR.password}\n`, 180);
    expect(made.code, made.out).toBe(0);
    // After the command: two processes creating the compatibility functions at once can collide (tuple concurrently updated).
    worker = startMain({
      args: ['worker'], lifetimeS: LIFETIME_S, logFile,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', JOB_CONCURRENCY: '1', HARVEST_SCHEDULE_SECONDS: '0', DATABASE_URL: primary.url },
    });
    // runMain blocked this process for a while: let fetch see the kept-alive sockets the nodes closed
    // meanwhile (else the next request may go out on one of them and fail with "other side closed").
    await sleep(500);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (worker) {
      killGroup(worker, 'SIGTERM');
      if (!(await exited(worker, 5000))) killGroup(worker, 'SIGKILL');
    }
    standby?.stop();
    primary?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('reads searches from the standby, which refuses writes', async () => {
    expect(once<number>(standby.url, 'SELECT pg_is_in_recovery()')).toBe(1);
    await readsReachStandby('searches to be read from the standby');
  });

  it('keeps a login across nodes, and a curator\'s change is theirs at once on either node and everyone\'s on the other within two seconds', async () => {
    const onA = new Client(a.base);
    const onB = new Client(b.base);
    onB.jar = onA.jar;
    expect((await onA.ok('POST', '/collector/api/auth/login', CURATOR)).logged_in).toBe(CURATOR.username);
    expect((await onB.ok('GET', '/collector/api/auth/user')).logged_in).toBe(CURATOR.username);

    const [main, other] = authorPair(0);
    const reader = new Client(b.base);
    const before = await creatorCount(reader, main);
    const added = await creatorCount(reader, other);
    const merged = await onA.ok('POST', '/collector/api/merge/author', [{ id: main }, { id: other }]);
    expect(merged.error).toBeNull();
    const mergedAt = Date.now();
    // The curator, on the other node straight away: their request carries their write's position.
    expect(await creatorCount(onB, main)).toBe(before + added);
    expect(await creatorCount(onA, main)).toBe(before + added);
    // Anyone else on B, as soon as the standby has replayed it.
    await until('node B to show the merge to another reader', 2000, 25, async () => (await creatorCount(reader, main)) === before + added);
    expect(Date.now() - mergedAt).toBeLessThan(2000);
  });

  it('goes on from the primary without a failed request when the standby stops, and uses it again once it is back', async () => {
    const failures: string[] = [];
    let requests = 0;
    let running = true;
    const entryIds = ((await new Client(a.base).ok('GET', '/collector/api/search?query=kropotkin')).matches as { entry_id: number }[]).slice(0, 3).map((m) => m.entry_id);
    expect(entryIds.length).toBeGreaterThan(0);
    const paths = ['/collector/api/search?query=kropotkin', '/collector/api/search?query=a*&sort_by=title', '/collector/api/search?query=', ...entryIds.map((id) => `/collector/api/entry/${id}`), '/feed.atom', '/opds'];
    const traffic = async (node: ServerHandle, k: number) => {
      const client = new Client(node.base);
      for (let i = k; running; i++) {
        const p = paths[i % paths.length]!;
        try {
          const r = await client.call('GET', p);
          if (r.status < 200 || r.status >= 300) failures.push(`${node.base}${p}: HTTP ${r.status} ${r.bytes.toString('utf8').slice(0, 200)}`);
        } catch (e) {
          failures.push(`${node.base}${p}: ${(e as Error).message}`);
        }
        requests++;
      }
    };
    const loops = [traffic(a, 0), traffic(a, 3), traffic(b, 1), traffic(b, 4)];
    try {
      // Counted in requests, not seconds: the machine's speed varies.
      await until('requests before the standby stops', 20_000, 20, async () => requests >= 8);
      standby.halt();
      const stoppedAt = requests;
      await until('requests answered with the standby down', 30_000, 20, async () => requests - stoppedAt >= 16);

      // The change made meanwhile is read from the primary on the other node.
      const curator = new Client(a.base);
      await curator.ok('POST', '/collector/api/auth/login', CURATOR);
      const [main, other] = authorPair(0);
      const reader = new Client(b.base);
      const expected = (await creatorCount(reader, main)) + (await creatorCount(reader, other));
      expect((await curator.ok('POST', '/collector/api/merge/author', [{ id: main }, { id: other }])).error).toBeNull();
      await until('node B to show the merge with the standby down', 2000, 25, async () => (await creatorCount(reader, main)) === expected);

      standby.resume();
      await sleep(1500);
    } finally {
      running = false;
      await Promise.all(loops);
    }
    expect(failures, `${failures.slice(0, 5).join('\n')}\n${tail(logFile)}`).toEqual([]);
    expect(requests).toBeGreaterThan(50);
    // Back: reconnected in the background and used once it has replayed what the nodes read meanwhile.
    await readsReachStandby('the restarted standby to be read again');
    expect(tail(logFile, 20_000)).toMatch(/read replica unavailable/);
  }, 120_000);
});
