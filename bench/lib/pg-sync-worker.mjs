// synckit worker for bench/pg-roundtrip.ts: one pg Client, one query per call.
import pg from 'pg';
import { runAsWorker } from 'synckit';

let client;
runAsWorker(async (url, text, params) => {
  if (!client) {
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }
  const r = await client.query(text, params);
  return r.rows;
});
