// `npm run backup -- DIR` and `npm run restore -- DIR [--force]` / `npm run restore -- --check DIR`:
// arguments and messages only; the work is in service.ts.
import type { Config } from '../config.ts';
import { BackupError, checkBackup, createBackup, resolveBackupDir, restoreBackup, type Manifest } from './service.ts';

type Log = (line: string) => void;

const BACKUP_USAGE = 'usage: npm run backup -- DIR   (writes DIR/<UTC time>/: the database, the stored files and manifest.json)';
const RESTORE_USAGE = 'usage: npm run restore -- DIR [--force]   (DIR: a backup, or a folder of backups: the newest is used)\n       npm run restore -- --check DIR   (checks a backup, writes nothing)';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const summary = (m: Manifest) => {
  const bytes = m.files.reduce((s, f) => s + f.size, 0);
  const counts = Object.entries(m.counts).map(([k, v]) => `${v} ${k}`).join(', ');
  return `${m.backend}, made ${m.created}, schema ${m.schema.latest ?? 'empty'}; ${m.files.length} files, ${mb(bytes)}; ${counts}`;
};

/** Runs a command's body; a BackupError is the operator's message (exit 1), anything else too, without a stack. */
async function guarded(err: Log, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (e) {
    err(e instanceof BackupError ? e.message : `Failed: ${(e as Error).message}`);
    return 1;
  }
}

export function runBackupCli(args: string[], config: Pick<Config, 'dataDir' | 'databaseUrl'>, log: Log, err: Log): Promise<number> {
  const dirs = args.filter((a) => !a.startsWith('--'));
  if (dirs.length !== 1 || dirs.length !== args.length) {
    err(BACKUP_USAGE);
    return Promise.resolve(2);
  }
  return guarded(err, async () => {
    const { dir, manifest } = await createBackup({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, into: dirs[0], log });
    log(`Backup written to ${dir} in ${manifest.seconds} s (${summary(manifest)}).`);
    if (manifest.missing.length) log(`${manifest.missing.length} file(s) the rows named were gone when copied (deleted meanwhile): ${manifest.missing.slice(0, 5).join(', ')}`);
    return 0;
  });
}

export function runRestoreCli(args: string[], config: Pick<Config, 'dataDir' | 'databaseUrl'>, log: Log, err: Log): Promise<number> {
  const flags = args.filter((a) => a.startsWith('--'));
  const dirs = args.filter((a) => !a.startsWith('--'));
  const unknown = flags.filter((f) => f !== '--force' && f !== '--check');
  if (dirs.length !== 1 || unknown.length || (flags.includes('--check') && flags.includes('--force'))) {
    err(RESTORE_USAGE);
    return Promise.resolve(2);
  }
  if (flags.includes('--check')) {
    return guarded(err, async () => {
      const dir = resolveBackupDir(dirs[0]);
      const { manifest, problems } = checkBackup(dir);
      if (problems.length) {
        err(`The backup ${dir} is damaged:\n${problems.map((p) => `  ${p}`).join('\n')}`);
        return 1;
      }
      log(`The backup ${dir} is good: every checksum matches${manifest.backend === 'sqlite' ? ' and PRAGMA integrity_check says ok' : ''} (${summary(manifest)}).`);
      return 0;
    });
  }
  return guarded(err, async () => {
    const { dir, manifest } = await restoreBackup({ from: dirs[0], dataDir: config.dataDir, databaseUrl: config.databaseUrl, force: flags.includes('--force'), log });
    log(`Restored ${dir} into ${config.dataDir}${config.databaseUrl ? ' and the database at DATABASE_URL' : ''} (${summary(manifest)}). Start the servers: the search index is read from the database at start.`);
    return 0;
  });
}
