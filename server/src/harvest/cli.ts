// `npm run harvest -- [--site ID]... [--force]`: harvests now, in this process, with a line per page.
import type { HarvestRun } from '@uc/shared';
import type { HarvestService } from './service.ts';
import type { Db } from '../db/index.ts';
import { HttpError } from '../http/errors.ts';

export interface HarvestCliResult { code: number; runs: HarvestRun[] }

export function parseHarvestArgs(args: string[]): { siteIds: number[]; force: boolean } | string {
  const siteIds: number[] = [];
  let force = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--force') force = true;
    else if (a === '--site') {
      const n = Number(args[++i]);
      if (!Number.isInteger(n) || n < 1) return `--site needs a site id (a whole number), got "${args[i] ?? ''}"`;
      siteIds.push(n);
    } else return `unknown argument "${a}"; usage: npm run harvest -- [--site ID]... [--force]`;
  }
  return { siteIds, force };
}

export function formatRunLine(siteId: number, r: HarvestRun): string {
  const of = r.total !== null ? ` of ${r.total}` : '';
  return `site ${siteId} page ${r.pages}: ${r.records}${of} records received; stored so far: new ${r.new}, updated ${r.updated}, unchanged ${r.unchanged}, deleted ${r.deleted}, failed ${r.failed}`;
}

export async function runHarvestCli(args: string[], db: Db, harvest: HarvestService, out: (line: string) => void): Promise<HarvestCliResult> {
  const parsed = parseHarvestArgs(args);
  if (typeof parsed === 'string') {
    out(parsed);
    return { code: 2, runs: [] };
  }
  // Without --site: every active site that is harvested (spreadsheet sites are fed by uploads).
  const siteIds = parsed.siteIds.length ? parsed.siteIds
    : db.sqlite.prepare("SELECT id FROM sites WHERE active = 1 AND site_type <> 'csv' ORDER BY id").pluck().all() as number[];
  if (siteIds.length === 0) out('No active site to harvest.');
  const runs: HarvestRun[] = [];
  let code = 0;
  for (const id of siteIds) {
    try {
      const run = await harvest.runNow(id, parsed.force, (r) => out(formatRunLine(id, r)));
      runs.push(run);
      out(run.status === 'finished'
        ? `site ${id}: finished, ${run.records} records (new ${run.new}, updated ${run.updated}, unchanged ${run.unchanged}, deleted ${run.deleted}, failed ${run.failed})`
        : `site ${id}: FAILED: ${run.message}`);
      for (const e of run.errors.slice(0, 10)) out(`  ${e.identifier}: ${e.message}`);
      if (run.status !== 'finished') code = 1;
    } catch (e) {
      out(`site ${id}: ${e instanceof HttpError ? e.message : (e as Error).message}`);
      code = 1;
    }
  }
  return { code, runs };
}
