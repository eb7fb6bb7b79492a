import fs from 'node:fs';

/** Debian's Chromium (never a downloaded browser); $CHROMIUM_PATH, when set, replaces it. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH || '/usr/bin/chromium'];
  return candidates.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
