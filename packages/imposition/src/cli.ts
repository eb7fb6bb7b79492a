// impose — command line for the imposition library.
//   npm run --silent impose -- --schema 2up --signature 16 [--cropmarks --crop-papersize a4 --crop-paper-thickness 0.1] IN.pdf OUT.pdf
// Exit status: 0 done, 1 the PDF could not be imposed, 2 bad arguments.

import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { impose, IMPOSITION_SCHEMAS, SCHEMAS, ImpositionError, isImpositionSchema, validateImposeOptions, parseSignature, measureMm, paperSizeMm, type ImposeOptions } from './index.ts';

export const USAGE = `usage: impose --schema SCHEMA [options] IN.pdf OUT.pdf

  --schema SCHEMA              ${IMPOSITION_SCHEMAS.join(', ')}
  --signature N|0|optimized    pages per signature: a multiple of 4 (8 for 4up), 0 = whole book
                               (default), optimized = 40..80 pages, or MIN-MAX
  --fill-signature             fill the last signature with blank pages instead of shortening it
  --cover-last                 keep the last page (back cover) as the last page
  --cropmarks                  place each page on a larger crop paper with crop marks
  --crop-papersize SIZE        crop paper: a4 (default), letter, a3, b5, 210mm:11in, 88mm:115mm, W:H, ...
  --crop-paper-thickness MM    paper thickness for creep compensation, 0..1 mm (default 0.1)
  --crop-title TEXT            text printed next to the crop marks
  --pages-per-sheet N          1x1 only: round the page count up to a multiple of N (default 1)
  --creep MM                   without crop marks (2up, duplex2up, 2down, 4up): paper thickness for
                               creep compensation, 0..1 mm (default 0: none)
  -h, --help                   this help
`;

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

class UsageError extends Error {}

interface Parsed {
  options: ImposeOptions & { cropTitle?: string };
  input: string;
  output: string;
}

const FLAGS = new Set(['--fill-signature', '--cover-last', '--cropmarks']);
const VALUED = new Set(['--schema', '--signature', '--crop-papersize', '--crop-paper', '--crop-paper-thickness', '--crop-title', '--pages-per-sheet', '--creep']);

export function parseArgs(argv: string[]): Parsed | 'help' {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--') {
      files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (FLAGS.has(name)) {
        if (eq > 0) throw new UsageError(`${name} takes no value`);
        flags.add(name);
        continue;
      }
      if (!VALUED.has(name)) throw new UsageError(`unknown option ${name}`);
      let value: string | undefined;
      if (eq > 0) value = arg.slice(eq + 1);
      else {
        value = argv[i + 1];
        i++;
      }
      if (value === undefined || (value.startsWith('--') && eq < 0)) throw new UsageError(`${name} needs a value`);
      values.set(name === '--crop-paper' ? '--crop-papersize' : name, value);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
    files.push(arg);
  }

  const schema = values.get('--schema');
  if (!schema) throw new UsageError('--schema is required');
  if (!isImpositionSchema(schema)) throw new UsageError(`unknown schema "${schema}"; use one of ${IMPOSITION_SCHEMAS.join(', ')}`);
  if (files.length !== 2) throw new UsageError(files.length < 2 ? 'give the input PDF and the output PDF' : `too many file arguments: ${files.join(' ')}`);

  const options: Parsed['options'] = { schema };
  const sig = values.get('--signature');
  if (sig !== undefined) {
    try {
      parseSignature(sig);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    options.signature = /^\d+$/.test(sig.trim()) ? parseInt(sig, 10) : (sig.trim().toLowerCase() as ImposeOptions['signature']);
  }
  if (flags.has('--fill-signature')) options.fillSignature = true;
  if (flags.has('--cover-last')) options.coverLast = true;
  const paper = values.get('--crop-papersize');
  const thickness = values.get('--crop-paper-thickness');
  const title = values.get('--crop-title');
  if (flags.has('--cropmarks')) {
    options.cropmarks = true;
    if (paper !== undefined) {
      if (!paperSizeMm(paper)) throw new UsageError(`unknown crop paper size "${paper}"; use a4, letter, a3, b5, 210mm:11in, W:H ...`);
      options.cropPaper = paper;
    }
    if (thickness !== undefined) {
      const mm = measureMm(thickness);
      if (mm === null || mm > 1) throw new UsageError(`--crop-paper-thickness must be a number of millimetres from 0 to 1, got "${thickness}"`);
      options.cropPaperThicknessMm = mm;
    }
    if (title !== undefined) options.cropTitle = title;
  } else if (paper !== undefined || thickness !== undefined || title !== undefined) {
    throw new UsageError('--crop-papersize, --crop-paper-thickness and --crop-title need --cropmarks');
  }
  const pps = values.get('--pages-per-sheet');
  if (pps !== undefined) {
    if (!/^\d+$/.test(pps.trim()) || Number(pps) < 1) throw new UsageError(`--pages-per-sheet must be a whole number from 1, got "${pps}"`);
    options.pagesPerSheet = Number(pps);
  }
  const creep = values.get('--creep');
  if (creep !== undefined) {
    if (flags.has('--cropmarks')) throw new UsageError('--creep is for output without crop marks; with --cropmarks use --crop-paper-thickness');
    const mm = measureMm(creep);
    if (mm === null || mm > 1) throw new UsageError(`--creep must be a number of millimetres from 0 to 1, got "${creep}"`);
    options.creepMm = mm;
  }
  // the remaining rules (signature multiple of the pages per sheet, ranges) as the library checks them
  try {
    validateImposeOptions(options);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { options, input: files[0], output: files[1] };
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let parsed: Parsed | 'help';
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`impose: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  if (parsed === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  let input: Uint8Array;
  try {
    input = new Uint8Array(await readFile(parsed.input));
  } catch (err) {
    io.stderr(`impose: cannot read ${parsed.input}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return 2;
  }
  try {
    const started = performance.now();
    const res = await impose(input, parsed.options);
    await writeFile(parsed.output, res.pdf);
    for (const w of res.warnings) io.stderr(`impose: warning: ${w}\n`);
    const o = res.order;
    const block = o.schema !== '1x1' && !SCHEMAS[o.schema].signature;
    const sig = block
      ? o.signature ? `, blocks of ${o.signature}` : ''
      : o.signatures.length > 1 ? `, signatures ${o.signatures.join('+')}` : o.signature ? `, signature ${o.signature}` : '';
    io.stdout(
      `${parsed.output}: ${o.schema}${sig}, ${res.outputPages} sides of ${res.sheetSizePt.map((v) => Math.round(v)).join('×')} pt ` +
        `(${res.sheets} sheets), ${o.blanks} blank slots, ${((performance.now() - started) / 1000).toFixed(2)} s\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof ImpositionError) {
      io.stderr(`impose: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  runCli(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`impose: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
