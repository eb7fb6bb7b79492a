// The web app's interface strings, read from its bundles (web/src/i18n/**/<lang>.json) so the browser
// tests name buttons and headings the way readers of each language see them.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './demo.ts';

/** A string in `lang` (the English key when the language lacks it). */
export function tr(lang: string, key: string): string {
  const dir = path.join(repoRoot, 'web', 'src', 'i18n');
  const files = [path.join(dir, `${lang}.json`), ...fs.readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory()).map((d) => path.join(dir, d.name, `${lang}.json`))];
  for (const f of files.filter((x) => fs.existsSync(x))) {
    const v = (JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, string>)[key];
    if (v) return v;
  }
  return key;
}
