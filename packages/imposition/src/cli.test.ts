import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli.ts';
import { inspectPdf, numberedPdf } from './testing/pdf.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'impose-cli-'));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
  return { code, out, err };
}

describe('impose CLI', () => {
  it('imposes a file: 2up, signatures of 16, crop marks on A4 with 0.1 mm paper', async () => {
    const input = join(dir, 'book.pdf');
    const output = join(dir, 'book-imposed.pdf');
    writeFileSync(input, await numberedPdf(20, [420, 595]));
    const r = await run(['--schema', '2up', '--signature', '16', '--cropmarks', '--crop-papersize', 'a4', '--crop-paper-thickness', '0.1', input, output]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/2up, signatures 16\+4, 10 sides of 1191×842 pt \(5 sheets\)/);
    const pages = await inspectPdf(new Uint8Array(readFileSync(output)));
    expect(pages).toHaveLength(10);
    expect(pages[0].draws.map((d) => d.page)).toEqual([16, 1]);
  });

  it('passes --signature optimized|0, --fill-signature and --cover-last through', async () => {
    const input = join(dir, 'b90.pdf');
    writeFileSync(input, await numberedPdf(90, [100, 150]));
    const opt = await run(['--schema', '2up', '--signature', 'optimized', '--fill-signature', '--cover-last', input, join(dir, 'o1.pdf')]);
    expect(opt.code).toBe(0);
    expect(opt.out).toMatch(/signatures 48\+48/);
    const pages = await inspectPdf(new Uint8Array(readFileSync(join(dir, 'o1.pdf'))));
    expect(pages[24].draws.map((d) => d.page)).toEqual([90, 49]); // cover back outside the last signature
    const whole = await run(['--schema=4up', '--signature=0', input, join(dir, 'o2.pdf')]);
    expect(whole.code).toBe(0);
    expect(whole.out).toMatch(/signature 96, 24 sides/);
  });

  it('passes --pages-per-sheet (1x1) and --creep through', async () => {
    const input = join(dir, 'b10.pdf');
    writeFileSync(input, await numberedPdf(10, [100, 150]));
    const one = await run(['--schema', '1x1', '--pages-per-sheet', '8', input, join(dir, 'o3.pdf')]);
    expect(one.code).toBe(0);
    expect(await inspectPdf(new Uint8Array(readFileSync(join(dir, 'o3.pdf'))))).toHaveLength(16);
    const plain = await run(['--schema', '2up', '--signature', '8', input, join(dir, 'o4.pdf')]);
    const crept = await run(['--schema', '2up', '--signature', '8', '--creep', '0.2mm', input, join(dir, 'o5.pdf')]);
    expect([plain.code, crept.code]).toEqual([0, 0]);
    const [a, b] = await Promise.all(['o4.pdf', 'o5.pdf'].map((f) => inspectPdf(new Uint8Array(readFileSync(join(dir, f))))));
    expect(b[0].draws[1].x - a[0].draws[1].x).toBeCloseTo((0.2 * 72) / 25.4, 3);
    expect((await run(['--schema', '2up', '--cropmarks', '--creep', '0.1', input, join(dir, 'o6.pdf')])).code).toBe(2);
    expect((await run(['--schema', '1x1', '--pages-per-sheet', 'x', input, join(dir, 'o6.pdf')])).code).toBe(2);
  });

  it('exits 2 with a clear message for bad arguments, without writing anything', async () => {
    const input = join(dir, 'small.pdf');
    writeFileSync(input, await numberedPdf(4));
    const out = join(dir, 'never.pdf');
    const cases: [string[], RegExp][] = [
      [[input, out], /--schema is required/],
      [['--schema', '3up', input, out], /unknown schema "3up"/],
      [['--schema', '2up', '--signature', '6', input, out], /signature 6 is not a multiple of 4/],
      [['--schema', '4up', '--signature', '12', input, out], /not a multiple of 8/],
      [['--schema', '2up', '--signature', 'big', input, out], /invalid signature "big"/],
      [['--schema', '2up', '--cropmarks', '--crop-papersize', 'a11', input, out], /unknown crop paper size "a11"/],
      [['--schema', '2up', '--cropmarks', '--crop-paper-thickness', '3', input, out], /from 0 to 1/],
      [['--schema', '2up', '--crop-papersize', 'a4', input, out], /need --cropmarks/],
      [['--schema', '2up', '--bogus', input, out], /unknown option --bogus/],
      [['--schema', '2up', '--signature'], /--signature needs a value/],
      [['--schema', '2up', input], /give the input PDF and the output PDF/],
      [['--schema', '2up', join(dir, 'missing.pdf'), out], /cannot read .*missing\.pdf: ENOENT/],
    ];
    for (const [args, msg] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(msg);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('exits 1 when the input is not a PDF', async () => {
    const bad = join(dir, 'bad.pdf');
    writeFileSync(bad, 'not a pdf');
    const r = await run(['--schema', '2up', bad, join(dir, 'x.pdf')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot read the PDF/);
  });

  it('runs as a script (the root `npm run impose` entry) with exit codes', () => {
    const cli = join(here, 'cli.ts');
    const ok = spawnSync(process.execPath, ['--import', 'tsx', cli, '--help'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/usage: impose --schema SCHEMA/);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cli, '--schema', 'nope', 'a.pdf', 'b.pdf'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown schema "nope"/);
  });
});
