// Per-statement round trip of the two synchronous PostgreSQL connections considered in
// docs/architecture.md ("Database back ends"): libpq in this thread (the binding pg-native's querySync
// wraps; execParams parses every time, execPrepared reuses a prepared statement) and
// synckit + pg (an async client in a worker thread, the caller blocked on Atomics.wait), with
// better-sqlite3 for reference. Starts a throw-away cluster (scripts/pg-cluster.ts).
//   npx tsx bench/pg-roundtrip.ts [--n 5000]
import { createRequire } from 'node:module';
import BetterSqlite3 from 'better-sqlite3';
import { createSyncFn } from 'synckit';
import { startPgCluster } from '../scripts/pg-cluster.ts';

const require = createRequire(import.meta.url);
const i = process.argv.indexOf('--n');
const N = i >= 0 ? Number(process.argv[i + 1]) : 5000;

function measure(name: string, fn: (k: number) => unknown): void {
  for (let k = 0; k < Math.min(500, N); k++) fn(k);
  const times: number[] = [];
  for (let k = 0; k < N; k++) {
    const t = process.hrtime.bigint();
    fn(k);
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / N;
  const p = (q: number) => times[Math.floor(q * (N - 1))]!.toFixed(1);
  console.log(`${name.padEnd(28)} mean ${mean.toFixed(1)} µs  p50 ${p(0.5)}  p95 ${p(0.95)}  p99 ${p(0.99)}`);
}

const cluster = await startPgCluster();
try {
  const setup = 'CREATE TABLE t (id integer PRIMARY KEY, v text); INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 10000) g';
  const PQ = require('libpq');
  const pq = new PQ();
  pq.connectSync(cluster.url);
  pq.exec(setup);
  const rows = () => {
    const out = [];
    for (let r = 0; r < pq.ntuples(); r++) out.push([pq.getvalue(r, 0), pq.getvalue(r, 1)]);
    return out;
  };
  measure('libpq execParams', (k) => { pq.execParams('SELECT id, v FROM t WHERE id = $1', [String((k % 10000) + 1)]); return rows(); });
  pq.prepare('s1', 'SELECT id, v FROM t WHERE id = $1', 1);
  measure('libpq execPrepared', (k) => { pq.execPrepared('s1', [String((k % 10000) + 1)]); return rows(); });

  const query = createSyncFn<(url: string, text: string, params: unknown[]) => Promise<unknown[]>>(new URL('./lib/pg-sync-worker.mjs', import.meta.url));
  measure('synckit + pg (worker)', (k) => query(cluster.url, 'SELECT id, v FROM t WHERE id = $1', [(k % 10000) + 1]));

  const sqlite = new BetterSqlite3(':memory:');
  sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 10000) INSERT INTO t SELECT n, hex(randomblob(16)) FROM g");
  const st = sqlite.prepare('SELECT id, v FROM t WHERE id = ?');
  measure('better-sqlite3 (reference)', (k) => st.get((k % 10000) + 1));
  pq.finish();
} finally {
  cluster.stop();
}
process.exit(0);
