// Reading a text packed as a zip (amusewiki publishes <name>/<name>.muse plus attachments).
import { unzipSync } from 'fflate';

export interface MuseZip {
  muse: string;
  baseName: string;
  /** Attachments by bare file name (images next to the .muse). */
  files: Map<string, Uint8Array>;
}

const MAX_ENTRIES = 2000;

export function readMuseZip(data: Uint8Array): MuseZip {
  let count = 0;
  const entries = unzipSync(data, {
    // skip directories and anything hidden or outside the archive
    filter: (f) => {
      count++;
      if (count > MAX_ENTRIES) return false;
      const parts = f.name.split('/');
      return !f.name.endsWith('/') && !parts.some((p) => p.startsWith('.') || p === '..') && !f.name.includes('\\');
    },
  });
  const names = Object.keys(entries);
  const muses = names.filter((n) => n.toLowerCase().endsWith('.muse'));
  if (!muses.length) throw new Error('no .muse file in the archive');
  // prefer <dir>/<dir>.muse, then the shallowest one
  muses.sort((a, b) => score(a) - score(b) || a.localeCompare(b));
  const museName = muses[0];
  const baseName = museName.split('/').pop()!.replace(/\.muse$/i, '');
  const dir = museName.includes('/') ? museName.slice(0, museName.lastIndexOf('/') + 1) : '';
  const files = new Map<string, Uint8Array>();
  for (const n of names) {
    if (n === museName || !n.startsWith(dir)) continue;
    const rel = n.slice(dir.length);
    if (rel.includes('/')) continue;
    files.set(rel, entries[n]);
  }
  return { muse: new TextDecoder('utf-8').decode(entries[museName]), baseName, files };
}

function score(path: string): number {
  const parts = path.split('/');
  const file = parts[parts.length - 1].replace(/\.muse$/i, '');
  const parent = parts[parts.length - 2];
  return parts.length * 2 - (parent === file ? 1 : 0);
}
