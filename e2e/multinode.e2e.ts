// Several processes on one database (issue 12): two app nodes (`serve` with JOB_CONCURRENCY=0, as behind
// a proxy) and one `worker` sharing one DATA_DIR (the book files) and one database: the SQLite file in
// DATA_DIR, or a fresh PostgreSQL database on the run's cluster (server/src/test/pg-global-setup.ts) in
// DATABASE_URL. What one node does, the other sees: sessions, the failed-login counters, an upload
// processed by the worker and found through the other node within a second, a book the worker builds
// and the other node serves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCollectionData, toBuildPayload } from '../packages/shared/src/bookbuilder.ts';
import Database from 'better-sqlite3';
import { PgConnection } from '../server/src/db/postgres.ts';
import { APP_BACKENDS, dropTestDatabases, testDatabaseTarget } from '../server/src/test/backends.ts';
import { Client, exited, killGroup, runMain, sleep, startMain, startServer, tail, until, type ServerHandle } from '../bench/lib/child-server.ts';

const LIFETIME_S = 240;
const LIBRARY = 1;
const LIBRARIAN = { username: 'multinode-librarian', password: 'multinode librarian password' };

describe.each(APP_BACKENDS)('two app nodes and a worker on one database (%s)', (dialect) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-multinode-'));
  const dataDir = path.join(tmp, 'data');
  const logFile = path.join(tmp, 'nodes.log');
  /** DATABASE_URL for the three processes and the admin command (none on SQLite: the file in DATA_DIR). */
  let dbEnv: { DATABASE_URL?: string } = {};
  let env: NodeJS.ProcessEnv = {};
  let a: ServerHandle;
  let b: ServerHandle;
  let worker: ChildProcess;

  beforeAll(async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    if (dialect === 'postgres') dbEnv = { DATABASE_URL: testDatabaseTarget('postgres') };
    env = { JOB_CONCURRENCY: '0', ...dbEnv };
    // Node A loads the demo; B starts on the filled database; neither runs jobs: the worker does.
    a = await startServer({ dataDir, env, lifetimeS: LIFETIME_S, logFile });
    b = await startServer({ dataDir, env, lifetimeS: LIFETIME_S, logFile });
    worker = startMain({
      args: ['worker'], lifetimeS: LIFETIME_S, logFile,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', JOB_CONCURRENCY: '1', HARVEST_SCHEDULE_SECONDS: '0', ...dbEnv },
    });
    const made = runMain(['admin', 'create-user', '--username', LIBRARIAN.username, '--email', 'multinode@example.invalid', '--library-admin', String(LIBRARY)],
      { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...dbEnv }, `${LIBRARIAN.password}\n`);
    expect(made.code, made.out).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (worker) {
      killGroup(worker, 'SIGTERM');
      if (!(await exited(worker, 5000))) killGroup(worker, 'SIGKILL');
    }
    dropTestDatabases();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A browser that moves from node A to node B with its cookies. */
  const onBoth = () => {
    const onA = new Client(a.base);
    const onB = new Client(b.base);
    onB.jar = onA.jar;
    return { onA, onB };
  };

  it('a login on one node is a session on the other; failed logins counted on one slow the next try on the other', async () => {
    const { onA, onB } = onBoth();
    const login = await onA.ok('POST', '/collector/api/auth/login', LIBRARIAN);
    expect(login.logged_in).toBe(LIBRARIAN.username);
    expect((await onB.ok('GET', '/collector/api/auth/user')).logged_in).toBe(LIBRARIAN.username);
    // The CSRF token handed out by A is good on B (state-changing call).
    expect((await onB.call('POST', '/collector/api/bookbuilder', { action: 'list' })).status).toBe(200);

    // Wrong passwords for one name from one address on A (5 are free, then each doubles the wait:
    // 1, 2, 4 s, honoured here): after the 8th the next try waits 8 s, on B as well.
    const guesser = new Client(a.base);
    for (let failures = 0; failures < 8;) {
      const r = await guesser.call('POST', '/collector/api/auth/login', { username: 'multinode-target', password: `guess ${failures}` });
      if (r.status === 429) {
        await sleep(Number(/in (\d+) second/.exec(String(r.json?.error))?.[1] ?? 1) * 1000);
        continue;
      }
      expect(r.json).toMatchObject({ logged_in: null, error: 'Invalid login' });
      failures++;
    }
    const onOther = new Client(b.base);
    const locked = await onOther.call('POST', '/collector/api/auth/login', { username: 'multinode-target', password: 'guess 9' });
    expect(locked.status).toBe(429);
    expect(locked.json.error).toMatch(/try again in \d+ second/);
  });

  it('an upload made through one node is processed by the worker and found through the other within a second', async () => {
    const { onA, onB } = onBoth();
    await onA.ok('POST', '/collector/api/auth/login', LIBRARIAN);
    const site = (await onA.ok('POST', `/collector/api/spreadsheet/site/${LIBRARY}`, { title: 'Multinode sheet', csv_type: 'generic' })).site.id as number;
    const csv = 'identifier,title,authors,languages\nmn-1,Zymurgical notes of two nodes,Ada Node,en\nmn-2,Zymurgical letters,Bo Node,en\n';
    const form = new FormData();
    form.append('spreadsheet', new Blob([csv], { type: 'text/csv' }), 'multinode.csv');
    form.append('site_id', String(site));
    const up = await onA.ok('POST', `/collector/api/spreadsheet/${LIBRARY}`, form);
    expect(up.error).toBeUndefined();
    const before = (await onB.ok('GET', '/collector/api/search?query=zymurgical')).total_entries;
    expect(before).toBe(0);
    await onA.ok('POST', `/collector/api/spreadsheet/process/${up.uploaded}`);
    // Nodes A and B run no jobs: only the worker can finish it.
    let last: unknown = null;
    const done = await until('the worker to process the upload', 45_000, 100, async () => {
      const st = await onB.ok('GET', `/collector/api/spreadsheet/status/${up.uploaded}`);
      last = st;
      return ['finished', 'failed'].includes(st.status) && st;
    }).catch((e: Error) => {
      throw new Error(`${e.message}; last status ${JSON.stringify(last)}\n${tail(logFile)}`);
    });
    expect(done.status, tail(logFile)).toBe('finished');
    const finishedAt = Date.now();
    await until('node B to find the new entries', 1000, 25, async () => (await onB.ok('GET', '/collector/api/search?query=zymurgical')).total_entries === 2);
    expect(Date.now() - finishedAt).toBeLessThan(1000);
  }, 90_000);

  it('a book asked for on one node is built by the worker and served by the other', async () => {
    const db = dbEnv.DATABASE_URL ? new PgConnection(dbEnv.DATABASE_URL) : new Database(path.join(dataDir, 'catalogue.sqlite'), { readonly: true });
    const dsId = db.prepare("SELECT data_source_id FROM data_source_files WHERE ext = '.muse' ORDER BY data_source_id LIMIT 1").pluck().get() as number;
    db.close();
    expect(dsId).toBeTruthy();
    const { onA, onB } = onBoth();
    const added = await onA.ok('POST', '/collector/api/bookbuilder', { action: 'add', add: dsId });
    const sid = added.session_id as string;
    const built = await onA.ok('POST', '/collector/api/bookbuilder', { action: 'build', session_id: sid, collection_data: toBuildPayload(defaultCollectionData()) });
    expect(built.error).toBeUndefined();
    const job = await until('the worker to build the book', 60_000, 200, async () => {
      const st = await onB.ok('POST', '/collector/api/bookbuilder', { action: 'check_job', session_id: sid, check_job_id: built.job_id });
      return ['finished', 'failed'].includes(st.status) && st;
    });
    expect(job.status, job.error ?? tail(logFile)).toBe('finished');
    const pdf = await onB.call('GET', `/collector/api/bookbuilder/${sid}`);
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 90_000);
});
