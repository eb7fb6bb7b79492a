// muse html|typst|pdf|epub FILE.muse|FILE.zip [OUT.pdf|OUT.epub]
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { museToHtml, museToTypst, museToPdf, museToEpub, readMuseZip } from './index.ts';

function load(file: string): { muse: string; files: Map<string, Uint8Array> } {
  const data = readFileSync(file);
  if (file.toLowerCase().endsWith('.zip')) {
    const z = readMuseZip(new Uint8Array(data));
    return { muse: z.muse, files: z.files };
  }
  // images next to a plain .muse file
  const files = new Map<string, Uint8Array>();
  const dir = dirname(file);
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) if (/\.(png|jpe?g)$/i.test(f)) files.set(f, readFileSync(join(dir, f)));
  }
  return { muse: data.toString('utf8'), files };
}

async function main(argv: string[]): Promise<number> {
  const [cmd, file, out] = argv;
  if (!cmd || !file || !['html', 'typst', 'pdf', 'epub'].includes(cmd) || ((cmd === 'pdf' || cmd === 'epub') && !out)) {
    process.stderr.write('usage: muse html FILE.muse|FILE.zip\n       muse typst FILE.muse|FILE.zip\n       muse pdf FILE.muse|FILE.zip OUT.pdf\n       muse epub FILE.muse|FILE.zip OUT.epub\n');
    return 2;
  }
  const { muse, files } = load(file);
  if (cmd === 'html') process.stdout.write(museToHtml(muse).html);
  else if (cmd === 'typst') process.stdout.write(museToTypst(muse, { files }));
  else if (cmd === 'epub') writeFileSync(out, museToEpub(muse, { files }));
  else writeFileSync(out, await museToPdf(muse, { files }));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const e = err as { message?: string; diagnostics?: unknown };
    process.stderr.write(`muse: ${e?.message ?? String(err)}\n`);
    if (e?.diagnostics) process.stderr.write(JSON.stringify(e.diagnostics, null, 2) + '\n');
    process.exit(1);
  },
);
