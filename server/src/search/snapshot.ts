// The search snapshot: the in-memory index (columns, dictionaries, relations), the correction words and
// the suggest titles in one file under DATA_DIR, so that `serve` starts by reading it and syncing what
// is newer instead of parsing every search_docs row (docs/architecture.md, "Scale").
//
// Layout: MAGIC, a 4-byte header length, the header (JSON: versions, back end, catalogue id, seq, the
// parts' array list, the body's length and CRC-32), zero padding to 8 bytes, then the body: the parts'
// `meta` as one JSON text, padding, and each array's bytes at an 8-byte aligned offset. Loading reads
// the header, then the meta and each array straight into its own typed array (no per-entry parsing),
// checking the CRC as it goes; nothing is restored from a file that fails any check.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { SnapshotPart } from './snapshot-part.ts';

const MAGIC = Buffer.from('UCSNAP1\n', 'latin1');
/** The file's own layout; bumped when it changes. */
export const SNAPSHOT_VERSION = 1;
export const SNAPSHOT_FILE = 'search-snapshot.bin';

/** What a snapshot must match to be used. */
export interface SnapshotIdentity {
  indexFormat: number;
  backend: string;
  /** The random id kept in the database (settings.catalogue_id): another or re-created database has another. */
  catalogue: string;
}

export interface SnapshotHeader extends SnapshotIdentity {
  version: number;
  seq: number;
  entries: number;
  written: string;
  metaBytes: number;
  arrays: { part: string; name: string; type: ArrayType; offset: number; length: number }[];
  bodyBytes: number;
  crc: number;
}

const TYPES = { Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array } as const;
type ArrayType = keyof typeof TYPES;

const align8 = (n: number) => (n + 7) & ~7;

function typeOf(a: ArrayBufferView): ArrayType {
  for (const [name, ctor] of Object.entries(TYPES)) if (a instanceof ctor) return name as ArrayType;
  throw new Error(`snapshot: unsupported array type ${a.constructor.name}`);
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export interface WrittenSnapshot { bytes: number; file: string }

/**
 * Lays the parts out in one buffer (the arrays copied, so that the index may change while it is written)
 * and writes it to a temporary file renamed over `file` (readers see the old file or the new one whole).
 * The copy and the JSON are made synchronously; the CRC and the write happen off the caller's path.
 */
export async function writeSnapshot(file: string, identity: SnapshotIdentity & { seq: number; entries: number },
  parts: Record<string, SnapshotPart>): Promise<WrittenSnapshot> {
  const meta = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(parts).map(([k, p]) => [k, p.meta]))), 'utf8');
  const arrays: SnapshotHeader['arrays'] = [];
  let offset = align8(meta.length);
  for (const [part, p] of Object.entries(parts)) {
    for (const [name, a] of Object.entries(p.arrays)) {
      arrays.push({ part, name, type: typeOf(a), offset, length: (a as unknown as { length: number }).length });
      offset = align8(offset + a.byteLength);
    }
  }
  const body = Buffer.alloc(offset);
  meta.copy(body, 0);
  let k = 0;
  for (const p of Object.values(parts)) for (const a of Object.values(p.arrays)) body.set(bytesOf(a), arrays[k++].offset);
  // Off the event loop from here: the CRC in the thread pool would need a worker; zlib's is fast (GB/s).
  await new Promise((r) => setImmediate(r));
  const crc = zlib.crc32(body);
  const header: SnapshotHeader = {
    version: SNAPSHOT_VERSION, ...identity, written: new Date().toISOString(), metaBytes: meta.length, arrays, bodyBytes: body.length, crc,
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(align8(MAGIC.length + 4 + head.length));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(head.length, MAGIC.length);
  head.copy(prefix, MAGIC.length + 4);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fh = await fs.promises.open(tmp, 'w');
    try {
      await fh.writev([prefix, body]);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  return { bytes: prefix.length + body.length, file };
}

/** A snapshot that cannot be used, with the reason (logged; the index is then built from the documents). */
export class SnapshotRejected extends Error {}

/** The header alone (cheap: to decide whether a newer snapshot is worth writing). Null when absent or unreadable. */
export function readSnapshotHeader(file: string): SnapshotHeader | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    return readHeader(fd, fs.fstatSync(fd).size).header;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function readHeader(fd: number, size: number): { header: SnapshotHeader; bodyAt: number } {
  const fixed = Buffer.alloc(MAGIC.length + 4);
  if (size < fixed.length || fs.readSync(fd, fixed, 0, fixed.length, 0) !== fixed.length || !fixed.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new SnapshotRejected('not a snapshot file');
  }
  const headLength = fixed.readUInt32LE(MAGIC.length);
  if (fixed.length + headLength > size) throw new SnapshotRejected('the file is cut short');
  const head = Buffer.alloc(headLength);
  fs.readSync(fd, head, 0, headLength, fixed.length);
  let header: SnapshotHeader;
  try {
    header = JSON.parse(head.toString('utf8')) as SnapshotHeader;
  } catch {
    throw new SnapshotRejected('its header is damaged');
  }
  const bodyAt = align8(fixed.length + headLength);
  if (typeof header.bodyBytes !== 'number' || bodyAt + header.bodyBytes !== size) throw new SnapshotRejected('its length is not the one it was written with');
  return { header, bodyAt };
}

/**
 * Reads and checks a snapshot: its layout version, the identity (index format, back end, catalogue id),
 * `seq` not ahead of the database's, and the CRC of every byte of the body. Throws SnapshotRejected
 * (with why) when any check fails; answers the parts to restore.
 */
export function readSnapshot(file: string, expect: SnapshotIdentity, databaseSeq: number): { header: SnapshotHeader; parts: Record<string, SnapshotPart> } {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    throw new SnapshotRejected('there is none');
  }
  try {
    const { header, bodyAt } = readHeader(fd, fs.fstatSync(fd).size);
    if (header.version !== SNAPSHOT_VERSION) throw new SnapshotRejected(`it has layout ${header.version}, not ${SNAPSHOT_VERSION}`);
    if (header.indexFormat !== expect.indexFormat) throw new SnapshotRejected(`it has index format ${header.indexFormat}, not ${expect.indexFormat}`);
    if (header.backend !== expect.backend) throw new SnapshotRejected(`it was made on ${header.backend}, not ${expect.backend}`);
    if (header.catalogue !== expect.catalogue) throw new SnapshotRejected('it was made from another database');
    if (!(header.seq <= databaseSeq)) throw new SnapshotRejected(`it is ahead of the database (seq ${header.seq} > ${databaseSeq})`);
    const meta = Buffer.alloc(header.metaBytes);
    fs.readSync(fd, meta, 0, meta.length, bodyAt);
    // The CRC runs over the body's bytes in file order: the meta, the padding, each array and its padding.
    let crc = zlib.crc32(meta);
    let at = meta.length;
    const pad = Buffer.alloc(8);
    const skip = (to: number) => {
      if (to > at) crc = zlib.crc32(pad.subarray(0, to - at), crc);
      at = to;
    };
    const parts: Record<string, SnapshotPart> = {};
    for (const a of header.arrays) {
      const Ctor = TYPES[a.type];
      if (!Ctor || a.offset < at || a.offset + a.length * Ctor.BYTES_PER_ELEMENT > header.bodyBytes) throw new SnapshotRejected('its array table is damaged');
      skip(a.offset);
      const arr = new Ctor(a.length);
      const bytes = bytesOf(arr);
      if (fs.readSync(fd, bytes, 0, bytes.length, bodyAt + a.offset) !== bytes.length) throw new SnapshotRejected('the file is cut short');
      crc = zlib.crc32(bytes, crc);
      at += bytes.length;
      (parts[a.part] ??= { meta: null, arrays: {} }).arrays[a.name] = arr;
    }
    skip(header.bodyBytes);
    if (crc !== header.crc) throw new SnapshotRejected('its checksum does not match (the file is damaged)');
    let metas: Record<string, unknown>;
    try {
      metas = JSON.parse(meta.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new SnapshotRejected('its data is damaged');
    }
    for (const [k, m] of Object.entries(metas)) (parts[k] ??= { meta: null, arrays: {} }).meta = m;
    return { header, parts };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * One writer at a time among the nodes sharing DATA_DIR: a lock file made exclusively, taken over
 * when older than `staleMs` (a writer that died). Answers the release function, or null when another
 * node is writing.
 */
export function lockSnapshot(file: string, staleMs = 10 * 60_000): (() => void) | null {
  const lock = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs < staleMs) return null;
        fs.rmSync(lock, { force: true });
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function snapshotPath(dataDir: string): string {
  return path.join(dataDir, SNAPSHOT_FILE);
}
