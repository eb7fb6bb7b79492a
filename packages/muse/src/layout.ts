// Book-builder layout options (collection_data / compiler options) and page geometry.

export type OptionValue = string | number | boolean | null | undefined;

/** The spec's collection_data fields plus the compiler's names for the same things. */
export interface TypstLayoutOptions {
  papersize?: string;
  papersize_width?: OptionValue;
  papersize_height?: OptionValue;
  division_factor?: OptionValue;
  division?: OptionValue;
  areaset_width?: OptionValue;
  areaset_height?: OptionValue;
  geometry_outer_margin?: OptionValue;
  geometry_top_margin?: OptionValue;
  binding_correction?: OptionValue;
  bcor?: OptionValue;
  twoside?: OptionValue;
  oneside?: OptionValue;
  opening?: string;
  headings?: OptionValue;
  linespacing?: OptionValue;
  parindent?: OptionValue;
  tex_tolerance?: OptionValue;
  tex_emergencystretch?: OptionValue;
  notoc?: OptionValue;
  nofinalpage?: OptionValue;
  nocoverpage?: OptionValue;
  body_only?: OptionValue;
  impressum?: OptionValue;
  sansfontsections?: OptionValue;
  nobold?: OptionValue;
  start_with_empty_page?: OptionValue;
  ignore_cover?: OptionValue;
  continuefootnotes?: OptionValue;
  centerchapter?: OptionValue;
  centersection?: OptionValue;
  secondary_footnotes_alpha?: OptionValue;
  /** Parts and chapters on a new page: on (default), off, or 'auto' by the text's length (chapterNewpage()). */
  chapter_newpage?: OptionValue | 'auto';
  mainfont?: string;
  sansfont?: string;
  monofont?: string;
  fontsize?: OptionValue;
  /** Cover image file name (overrides #cover). */
  cover?: string;
  coverwidth?: OptionValue;
  /** Virtual header fields (collections); used when the text has none. */
  title?: string;
  subtitle?: string;
  author?: string;
  date?: string;
  notes?: string;
  source?: string;
}

export type HeadingsMode =
  | 'none'
  | 'part_chapter'
  | 'title_subtitle'
  | 'author_title'
  | 'chapter_section'
  | 'section_subsection'
  | 'title_chapter'
  | 'title_section';

export interface ResolvedLayout {
  widthMm: number;
  heightMm: number;
  margin: { inner: number; outer: number; top: number; bottom: number };
  twoside: boolean;
  openRight: boolean;
  /** opening=left: chapters start on a verso (even) page; only in two-sided mode. */
  openLeft: boolean;
  headings: HeadingsMode;
  linespacing: number;
  parindentPt: number;
  fontsizePt: number;
  mainfont: string;
  sansfont: string;
  monofont: string;
  flags: {
    notoc: boolean;
    nofinalpage: boolean;
    nocoverpage: boolean;
    bodyOnly: boolean;
    impressum: boolean;
    sansfontsections: boolean;
    nobold: boolean;
    startWithEmptyPage: boolean;
    ignoreCover: boolean;
    continuefootnotes: boolean;
    centerchapter: boolean;
    centersection: boolean;
    secondaryAlpha: boolean;
    /** Parts and chapters start a new page: 'auto' until the writer knows the text (chapterNewpage()). */
    chapterNewpage: boolean | 'auto';
    /** Parts and chapters run on (nocoverpage, or chapterNewpage resolved to false). */
    runOnChapters: boolean;
  };
  coverwidth: number;
  /**
   * Typst justification limits derived from tex_tolerance / tex_emergencystretch (null when neither
   * option is given, so Typst's defaults apply). See justificationLimits().
   */
  justification: { spacingMaxPct: number; trackingMaxEm: number } | null;
}

const PAPER: Record<string, [number, number]> = {
  a3: [297, 420],
  a4: [210, 297],
  a5: [148, 210],
  a6: [105, 148],
  b3: [353, 500],
  b4: [250, 353],
  b5: [176, 250],
  b6: [125, 176],
  letter: [215.9, 279.4],
  generic: [210, 279.4],
  'half-a4': [148, 210],
  'half-lt': [139.7, 215.9],
};

const UNIT_MM: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72.27 };

/** A TeX-like measure ("12mm", "1.5in", 12) in millimetres; plain numbers are mm. */
export function measureMm(v: OptionValue): number | null {
  if (v === null || v === undefined || v === '' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const m = /^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*$/.exec(v);
  if (!m) return null;
  return parseFloat(m[1]) * UNIT_MM[m[2] ?? 'mm'];
}

/** A TeX-like measure in points (plain numbers are pt), or null. */
function measurePt(v: OptionValue): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) return parseFloat(v);
  const mm = measureMm(v);
  return mm === null || mm < 0 ? null : (mm * 72.27) / 25.4;
}

function num(v: OptionValue, def: number, min: number, max: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= min && n <= max ? n : def;
}

export function truthy(v: OptionValue): boolean {
  if (typeof v === 'string') return v !== '' && v !== '0' && v.toLowerCase() !== 'false' && v.toLowerCase() !== 'no';
  return !!v;
}

function paper(opts: TypstLayoutOptions): [number, number] {
  const p = (opts.papersize ?? '').trim().toLowerCase();
  if (p === '' ) {
    const w = measureMm(opts.papersize_width ?? null);
    const h = measureMm(opts.papersize_height ?? null);
    if (w && h && w >= 50 && h >= 50 && w <= 1000 && h <= 1000) return [w, h];
    return opts.papersize === undefined ? PAPER.a5 : PAPER.generic;
  }
  if (PAPER[p]) return PAPER[p];
  const m = /^(.+):(.+)$/.exec(p);
  if (m) {
    const w = measureMm(m[1]);
    const h = measureMm(m[2]);
    if (w && h && w >= 50 && h >= 50 && w <= 1000 && h <= 1000) return [w, h];
  }
  return PAPER.generic;
}

const FONT_RE = /^[a-zA-Z0-9 ]+$/;

/**
 * The nearest Typst behaviour to TeX's \\tolerance and \\emergencystretch: both only loosen lines.
 * TeX accepts a line whose badness 100·r³ stays within the tolerance, r being the used share of the
 * spaces' stretchability (about half a space in TeX fonts), so the widest word space allowed is
 * 100% + 50%·∛(tolerance/100): 150% at 100, 163% at the default 200, 332% at 10000, 100% at 0.
 * The emergency stretch (extra stretch for lines that cannot be set otherwise) becomes a small letter
 * spacing allowance: emergencystretch/1500 em up to 60pt (0.02em for the default 30pt), then growing
 * by 0.01em for each doubling (0.08em at 960pt, 0.11em at 10000pt), so every value keeps mattering.
 */
export function justificationLimits(tolerance: number, emergencyStretchPt: number): { spacingMaxPct: number; trackingMaxEm: number } {
  const t = Math.max(0, Math.min(10000, tolerance));
  const e = Math.max(0, Math.min(10000, emergencyStretchPt));
  return {
    spacingMaxPct: Math.round((100 + 50 * Math.cbrt(t / 100)) * 10) / 10,
    trackingMaxEm: Math.round((e <= 60 ? e / 1500 : 0.04 + 0.01 * Math.log2(e / 60)) * 10000) / 10000,
  };
}

export function resolveLayout(opts: TypstLayoutOptions = {}): ResolvedLayout {
  const [W, H] = paper(opts);
  const B = Math.max(0, Math.min(50, measureMm(opts.bcor ?? opts.binding_correction ?? 0) ?? 0));
  const divRaw = opts.division ?? opts.division_factor;
  const custom = divRaw !== undefined && divRaw !== null && (divRaw === 0 || divRaw === '0' || divRaw === '');
  const D = Math.round(num(divRaw, 12, 9, 15));
  const twoside = truthy(opts.twoside) && !truthy(opts.oneside);
  // KOMA typearea: (W-B) in D strips, inner 1, outer 2; H in D strips, top 1, bottom 2
  let margin = {
    inner: B + (W - B) / D,
    outer: (2 * (W - B)) / D,
    top: H / D,
    bottom: (2 * H) / D,
  };
  const aw = measureMm(opts.areaset_width ?? null);
  const ah = measureMm(opts.areaset_height ?? null);
  const gt = measureMm(opts.geometry_top_margin ?? null);
  const go = measureMm(opts.geometry_outer_margin ?? null);
  const useCustom = custom || (opts.division === undefined && opts.division_factor === undefined && !!(aw && ah));
  if (useCustom && aw && ah && aw >= 30 && ah >= 30 && aw < W - B && ah < H) {
    if (gt !== null && go !== null && gt >= 0 && go >= 0 && aw + go < W && ah + gt < H) {
      margin = { inner: W - aw - go, outer: go, top: gt, bottom: H - ah - gt };
    } else {
      const hs = W - B - aw;
      const vs = H - ah;
      margin = { inner: B + hs / 3, outer: (2 * hs) / 3, top: vs / 3, bottom: (2 * vs) / 3 };
    }
  }
  const headingsRaw = String(opts.headings ?? '0');
  const headings: HeadingsMode =
    headingsRaw === '1'
      ? 'author_title'
      : (
            [
              'part_chapter',
              'title_subtitle',
              'author_title',
              'chapter_section',
              'section_subsection',
              'title_chapter',
              'title_section',
            ] as const
          ).find((h) => h === headingsRaw) ?? 'none';
  const font = (v: string | undefined, def: string) => (v && FONT_RE.test(v) ? v : def);
  const cw = num(opts.coverwidth, 1, 0.01, 1);
  return {
    widthMm: W,
    heightMm: H,
    margin,
    twoside,
    openRight: twoside && opts.opening === 'right',
    openLeft: twoside && opts.opening === 'left',
    headings,
    linespacing: num(opts.linespacing, 1, 1, 3),
    parindentPt: num(opts.parindent, 15, -100, 100),
    fontsizePt: num(opts.fontsize, 12, 9, 14),
    mainfont: font(opts.mainfont, 'DejaVu Serif'),
    sansfont: font(opts.sansfont, 'DejaVu Sans'),
    monofont: font(opts.monofont, 'DejaVu Sans Mono'),
    flags: {
      notoc: truthy(opts.notoc),
      nofinalpage: truthy(opts.nofinalpage),
      nocoverpage: truthy(opts.nocoverpage),
      bodyOnly: truthy(opts.body_only),
      impressum: truthy(opts.impressum),
      sansfontsections: truthy(opts.sansfontsections),
      nobold: truthy(opts.nobold),
      startWithEmptyPage: truthy(opts.start_with_empty_page),
      ignoreCover: truthy(opts.ignore_cover),
      continuefootnotes: truthy(opts.continuefootnotes),
      centerchapter: truthy(opts.centerchapter),
      centersection: truthy(opts.centersection),
      secondaryAlpha: truthy(opts.secondary_footnotes_alpha),
      // absent: on, as the reference's book class (the Book Builder sends 'auto')
      chapterNewpage: opts.chapter_newpage === 'auto' ? 'auto' : opts.chapter_newpage === undefined || opts.chapter_newpage === null ? true : truthy(opts.chapter_newpage),
      runOnChapters: truthy(opts.nocoverpage),
    },
    coverwidth: cw,
    justification:
      opts.tex_tolerance === undefined && opts.tex_emergencystretch === undefined
        ? null
        : justificationLimits(num(opts.tex_tolerance, 200, 0, 10000), measurePt(opts.tex_emergencystretch) ?? 30),
  };
}
