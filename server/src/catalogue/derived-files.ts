// Files made from a text's stored source (a PDF, an EPUB of a Muse text): built on the first request,
// kept on disk under DATA_DIR/derived/<data source id>/ and served from there until the source changes.
// A harvest or upload that stores a new source drops them (FileStore.put calls dropDerivedFiles); the
// cached file's name also carries the source's fingerprint, so a build that started before a change
// can never be served after it. Not under files/: the hourly sweep removes what no row records there.
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FileStore } from './files.ts';

/** How one kind of derived file is made (registered once at start: app.ts). */
export interface Deriver {
  /** The extension it is offered and served under (".pdf"). */
  ext: string;
  contentType: string;
  /** The stored file it is made from (".muse"); the text offers it only with that file. */
  from: string;
  /** Further stored files it reads when present (".zip": the text's images). */
  alsoReads?: string[];
  /** Writes the file at outPath (off the event loop: a worker thread or a child process). */
  build(input: { sources: Record<string, string | null>; outPath: string; dataSourceId: number; signal: AbortSignal }): Promise<void>;
}

export interface DerivedFile { absPath: string; contentType: string; size: number }

const DIR = 'derived';
/** Builds at once in a process (each holds a text and its output in a thread of its own); more wait. */
const AT_ONCE = 2;
/** Builds waiting their turn; past it a request is told to come back (503) instead of queueing for ever. */
const MAX_WAITING = 32;
/** A build still running after this is stopped (its thread ended) and answered as failed. */
const BUILD_TIME_LIMIT_MS = 10 * 60_000;
/** A failed build is answered from memory this long, then tried again (a font installed since, a passing fault). */
const FAILURE_KEPT_MS = 10 * 60_000;

/** Too many builds waiting: the request may come back later. */
export class DerivedFilesBusy extends Error {}

/** The folder of a data source's derived files. */
export function derivedFilesDir(dataDir: string, dataSourceId: number): string {
  return path.join(dataDir, DIR, String(dataSourceId));
}

/** Removes every derived file of a data source (its source changed or it is gone). */
export function dropDerivedFiles(dataDir: string, dataSourceId: number): void {
  fs.rmSync(derivedFilesDir(dataDir, dataSourceId), { recursive: true, force: true });
}

export class DerivedFiles {
  private derivers = new Map<string, Deriver>();
  /** Builds under way in this process, by file: concurrent first requests wait for the same one. */
  private building = new Map<string, Promise<DerivedFile>>();
  /** Builds that failed, by file: the next requests answer at once for a while. */
  private failed = new Map<string, { message: string; at: number }>();
  private running = 0;
  private waiting: (() => void)[] = [];

  constructor(private files: FileStore, private dataDir: string) {}

  register(d: Deriver): void {
    this.derivers.set(d.ext, d);
  }

  /** The derived files a text with these stored files offers (a stored file of the same kind wins). */
  offered(storedExts: string[]): string[] {
    return [...this.derivers.values()].filter((d) => storedExts.includes(d.from) && !storedExts.includes(d.ext)).map((d) => d.ext);
  }

  /** The sources' identity on disk: their size, time and inode change when a source is written again. */
  private fingerprint(d: Deriver, dataSourceId: number): { key: string; sources: Record<string, string | null> } | null {
    const parts: string[] = [];
    const sources: Record<string, string | null> = {};
    for (const ext of [d.from, ...(d.alsoReads ?? [])]) {
      const file = this.files.get(dataSourceId, ext);
      if (!file) {
        if (ext === d.from) return null;
        sources[ext] = null;
        continue;
      }
      const st = fs.statSync(file.absPath);
      sources[ext] = file.absPath;
      parts.push(`${ext}:${st.size}:${Math.trunc(st.mtimeMs)}:${st.ino}`);
    }
    // short and safe for a file name
    return { key: createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 16), sources };
  }

  /**
   * The derived file `ext` of a data source: from the cache, else built now (once, however many ask).
   * Null when the text has nothing to make it from. A failed build throws its message.
   */
  async get(dataSourceId: number, ext: string): Promise<DerivedFile | null> {
    const d = this.derivers.get(ext);
    if (!d) return null;
    const fp = this.fingerprint(d, dataSourceId);
    if (!fp) return null;
    const dir = derivedFilesDir(this.dataDir, dataSourceId);
    const absPath = path.join(dir, `text-${fp.key}${ext}`);
    const done = fs.statSync(absPath, { throwIfNoEntry: false });
    if (done) return { absPath, contentType: d.contentType, size: done.size };
    const failure = this.failed.get(absPath);
    if (failure && Date.now() - failure.at < FAILURE_KEPT_MS) throw new Error(failure.message);
    let pending = this.building.get(absPath);
    if (!pending) {
      if (this.waiting.length >= MAX_WAITING) throw new DerivedFilesBusy('Too many files are being made');
      fs.mkdirSync(dir, { recursive: true });
      pending = (async () => {
        const lock = `${absPath}.lock`;
        // Another process on this DATA_DIR (another node) making the same file: wait for it, not make it twice.
        while (!takeLock(lock)) {
          if (await othersMade(absPath, lock)) return { absPath, contentType: d.contentType, size: fs.statSync(absPath).size };
        }
        // Older versions of this file go first (a source changed without FileStore.put, e.g. restored).
        for (const name of fs.readdirSync(dir, { withFileTypes: true }).map((e) => e.name).filter((n) => n.endsWith(ext))) fs.rmSync(path.join(dir, name), { force: true });
        const tmp = `${absPath}.tmp-${process.pid}`;
        while (this.running >= AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
        this.running++;
        try {
          await d.build({ sources: fp.sources, outPath: tmp, dataSourceId, signal: AbortSignal.timeout(BUILD_TIME_LIMIT_MS) });
          fs.renameSync(tmp, absPath);
        } catch (e) {
          fs.rmSync(tmp, { force: true });
          if (this.failed.size > 1000) this.failed.clear();
          this.failed.set(absPath, { message: e instanceof Error ? e.message : String(e), at: Date.now() });
          throw e;
        } finally {
          this.running--;
          this.waiting.shift()?.();
          fs.rmSync(lock, { force: true });
        }
        return { absPath, contentType: d.contentType, size: fs.statSync(absPath).size };
      })();
      this.building.set(absPath, pending);
      pending.then(() => this.building.delete(absPath), () => this.building.delete(absPath));
    }
    return pending;
  }
}

/** A lock this old was left by a process that died while building: taken over. */
const LOCK_STALE_MS = BUILD_TIME_LIMIT_MS + 60_000;

/** Takes the file's build lock (an exclusive create); false when another process holds it. */
function takeLock(lock: string): boolean {
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const st = fs.statSync(lock, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > LOCK_STALE_MS) fs.rmSync(lock, { force: true });
    return false;
  }
}

/** Waits while another process holds the lock: true when it made the file, false when it let go without. */
async function othersMade(absPath: string, lock: string): Promise<boolean> {
  for (;;) {
    if (fs.existsSync(absPath)) return true;
    const st = fs.statSync(lock, { throwIfNoEntry: false });
    if (!st || Date.now() - st.mtimeMs > LOCK_STALE_MS) return fs.existsSync(absPath);
    await new Promise((r) => setTimeout(r, 200));
  }
}
