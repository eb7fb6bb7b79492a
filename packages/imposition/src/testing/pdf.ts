// Test helpers: generate a numbered PDF, and read back where an imposed PDF draws each source page.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  StandardFonts,
  decodePDFRawStream,
  rgb,
  type PDFPage,
} from 'pdf-lib';

/** An n-page PDF; each page shows its number (1-based) in large Helvetica and a frame. */
export async function numberedPdf(pages: number, size: [number, number] = [420, 595], opts: { sizes?: Record<number, [number, number]> } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.setTitle('Numbered test book');
  doc.setAuthor('Imposition tests');
  for (let i = 1; i <= pages; i++) {
    const [w, h] = opts.sizes?.[i] ?? size;
    const page = doc.addPage([w, h]);
    page.drawRectangle({ x: 1, y: 1, width: w - 2, height: h - 2, borderWidth: 1, borderColor: rgb(0.5, 0.5, 0.5) });
    page.drawText(String(i), { x: w / 4, y: h / 3, size: Math.min(w, h) / 4, font });
  }
  return doc.save();
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m then n (PDF: a point is transformed by m first). */
function mul(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

type Token = { kind: 'num'; v: number } | { kind: 'name'; v: string } | { kind: 'str'; v: string } | { kind: 'op'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const ch = src[i];
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '%') { while (i < n && src[i] !== '\n' && src[i] !== '\r') i++; continue; }
    if (ch === '/') {
      let j = i + 1;
      while (j < n && !/[\s/[\]<>(){}%]/.test(src[j])) j++;
      out.push({ kind: 'name', v: src.slice(i + 1, j) });
      i = j;
      continue;
    }
    if (ch === '<' && src[i + 1] === '<') { out.push({ kind: 'op', v: '<<' }); i += 2; continue; }
    if (ch === '>' && src[i + 1] === '>') { out.push({ kind: 'op', v: '>>' }); i += 2; continue; }
    if (ch === '<') {
      const j = src.indexOf('>', i);
      const hex = src.slice(i + 1, j).replace(/\s/g, '');
      let s = '';
      for (let k = 0; k < hex.length; k += 2) s += String.fromCharCode(parseInt(hex.slice(k, k + 2).padEnd(2, '0'), 16));
      out.push({ kind: 'str', v: s });
      i = j + 1;
      continue;
    }
    if (ch === '(') {
      let depth = 1;
      let j = i + 1;
      let s = '';
      while (j < n && depth > 0) {
        const c = src[j];
        if (c === '\\') { s += src[j + 1]; j += 2; continue; }
        if (c === '(') depth++;
        if (c === ')') { depth--; if (depth === 0) break; }
        s += c;
        j++;
      }
      out.push({ kind: 'str', v: s });
      i = j + 1;
      continue;
    }
    if (ch === '[' || ch === ']' || ch === '{' || ch === '}') { out.push({ kind: 'op', v: ch }); i++; continue; }
    let j = i;
    while (j < n && !/[\s/[\]<>(){}%]/.test(src[j])) j++;
    const word = src.slice(i, j);
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) out.push({ kind: 'num', v: parseFloat(word) });
    else out.push({ kind: 'op', v: word });
    i = j;
  }
  return out;
}

function streamText(stream: unknown): string {
  if (stream instanceof PDFRawStream) return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  throw new Error(`not a raw stream: ${String(stream)}`);
}

function pageContent(page: PDFPage): string {
  const contents = page.node.Contents();
  if (!contents) return '';
  if (contents instanceof PDFArray) {
    const parts: string[] = [];
    for (let i = 0; i < contents.size(); i++) parts.push(streamText(contents.lookup(i)));
    return parts.join('\n');
  }
  return streamText(contents);
}

export interface DrawnPage {
  /** the page number written on the drawn source page (null if none found) */
  page: number | null;
  /** where the source page's origin lands on the output page */
  x: number;
  y: number;
  /** counter-clockwise rotation in degrees (0, 90, 180, 270) */
  rotate: number;
  scale: number;
}

export interface InspectedPage {
  size: [number, number];
  draws: DrawnPage[];
  /** straight line segments stroked on the page itself, in page coordinates */
  lines: [number, number, number, number][];
  /** text shown on the page itself (not inside drawn pages) */
  texts: string[];
}

/** A font's ToUnicode map (code → text), or null for a simple font whose bytes are the text. */
function toUnicode(font: PDFDict | undefined): Map<number, string> | null {
  const stream = font?.lookup(PDFName.of('ToUnicode'));
  if (!font || font.lookup(PDFName.of('Subtype'))?.toString() !== '/Type0' || !(stream instanceof PDFRawStream)) return null;
  const src = streamText(stream);
  const text = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  const map = new Map<number, string>();
  for (const block of src.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(m[1], 16), text(m[2]));
  }
  for (const block of src.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const lo = parseInt(m[1], 16);
      for (let c = lo; c <= parseInt(m[2], 16); c++) map.set(c, String.fromCodePoint(parseInt(m[3], 16) + c - lo));
    }
  }
  return map;
}

/** Reads an imposed PDF: per output page, each drawn form XObject (with the number it shows) and the lines. */
export async function inspectPdf(bytes: Uint8Array): Promise<InspectedPage[]> {
  const doc = await PDFDocument.load(bytes);
  const numberOf = new Map<string, number | null>();
  const formNumber = (ref: PDFRef): number | null => {
    const key = ref.toString();
    if (!numberOf.has(key)) {
      const texts = tokenize(streamText(doc.context.lookup(ref))).filter((t, i, all) => t.kind === 'str' && all[i + 1]?.v === 'Tj');
      const num = texts.map((t) => parseInt(String(t.v), 10)).find((v) => Number.isFinite(v));
      numberOf.set(key, num ?? null);
    }
    return numberOf.get(key)!;
  };
  const run = (content: string, start: Matrix, resources: PDFDict | undefined, out: Omit<InspectedPage, 'size'>): void => {
    const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    const fonts = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
    // embedded (Type0) fonts show two-byte glyph codes: read them back through the font's ToUnicode
    let cmap: Map<number, string> | null = null;
    const tokens = tokenize(content);
    const stack: Matrix[] = [];
    let ctm: Matrix = start;
    let operands: Token[] = [];
    let current: [number, number] | null = null;
    let pending: [number, number, number, number][] = [];
    for (const t of tokens) {
      if (t.kind !== 'op') { operands.push(t); continue; }
      const nums = operands.filter((o) => o.kind === 'num').map((o) => o.v as number);
      switch (t.v) {
        case 'q': stack.push(ctm); break;
        case 'Q': ctm = stack.pop() ?? start; break;
        case 'cm': ctm = mul(nums as Matrix, ctm); break;
        case 'm': current = apply(ctm, nums[0], nums[1]); break;
        case 'l': {
          const p = apply(ctm, nums[0], nums[1]);
          if (current) pending.push([current[0], current[1], p[0], p[1]]);
          current = p;
          break;
        }
        case 'S': out.lines.push(...pending); pending = []; break;
        case 'n': case 'f': case 'B': case 'b': case 's': pending = []; break;
        case 'Tf': cmap = toUnicode(fonts?.lookupMaybe(PDFName.of(String(operands[0]?.v)), PDFDict)); break;
        case 'Tj': {
          if (operands[0]?.kind !== 'str') break;
          const raw = operands[0].v as string;
          const codes = cmap ? (raw.match(/[\s\S]{2}/g) ?? []).map((pair) => (pair.charCodeAt(0) << 8) | pair.charCodeAt(1)) : [];
          out.texts.push(cmap ? codes.map((c) => cmap!.get(c) ?? '\ufffd').join('') : raw);
          break;
        }
        case 'Do': {
          const ref = xobjects?.get(PDFName.of(operands[0]?.v as string));
          if (!(ref instanceof PDFRef)) break;
          const page = formNumber(ref);
          if (page === null) {
            // not a source page (e.g. the crop marks): look inside
            const form = doc.context.lookup(ref) as PDFRawStream;
            run(streamText(form), ctm, form.dict.lookupMaybe(PDFName.of('Resources'), PDFDict), out);
            break;
          }
          const [x, y] = apply(ctm, 0, 0);
          const deg = ((Math.round((Math.atan2(ctm[1], ctm[0]) * 180) / Math.PI) % 360) + 360) % 360;
          out.draws.push({ page, x: Math.round(x * 1000) / 1000, y: Math.round(y * 1000) / 1000, rotate: deg, scale: Math.hypot(ctm[0], ctm[1]) });
          break;
        }
      }
      operands = [];
    }
  };
  return doc.getPages().map((page) => {
    const { width, height } = page.getSize();
    const out: InspectedPage = { size: [width, height], draws: [], lines: [], texts: [] };
    run(pageContent(page), IDENTITY, page.node.Resources(), out);
    return out;
  });
}
