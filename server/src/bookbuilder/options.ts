// collection_data → the Typst layout options of @uc/muse and the imposition options of @uc/imposition.
// This is the spec §7 "build payload" derivation, done on the server from the validated data: paper
// (named or W×H mm), BCOR in mm, DIV or (factor 0) the custom text block and margins, the signature of
// the chosen schema, crop marks only when asked for (with their paper and thickness).
import {
  CUSTOM_PAPER,
  FILL_SIGNATURE_SCHEMAS,
  signatureFor,
  type CollectionData,
} from '@uc/shared';
import type { TypstLayoutOptions } from '@uc/muse';
import { isImpositionSchema, type ImposeOptions } from '@uc/imposition';

export function typstOptions(d: CollectionData): TypstLayoutOptions {
  const custom = d.division_factor === 0;
  const o: TypstLayoutOptions = {
    papersize: d.papersize === CUSTOM_PAPER ? `${d.papersize_width}mm:${d.papersize_height}mm` : d.papersize,
    bcor: `${d.binding_correction}mm`,
    division: custom ? 0 : d.division_factor,
    twoside: d.twoside,
    opening: d.opening,
    chapter_newpage: d.chapter_newpage === 'auto' ? 'auto' : d.chapter_newpage === 'always',
    headings: d.headings,
    linespacing: d.linespacing,
    parindent: d.parindent,
    fontsize: d.fontsize,
    mainfont: d.mainfont,
    sansfont: d.sansfont || undefined,
    monofont: d.monofont,
    tex_tolerance: d.tex_tolerance,
    tex_emergencystretch: `${d.tex_emergencystretch}pt`,
    notoc: d.notoc,
    nofinalpage: d.nofinalpage,
    nocoverpage: d.nocoverpage,
    body_only: d.body_only,
    impressum: d.impressum,
    sansfontsections: d.sansfontsections,
    nobold: d.nobold,
    start_with_empty_page: d.start_with_empty_page,
    ignore_cover: d.ignore_cover,
    continuefootnotes: d.continuefootnotes,
    centerchapter: d.centerchapter,
    centersection: d.centersection,
    title: d.title,
    subtitle: d.subtitle,
    author: d.author,
    date: d.date,
    notes: d.notes,
    source: d.source,
  };
  if (custom) {
    o.areaset_width = d.areaset_width;
    o.areaset_height = d.areaset_height;
    if (d.geometry_top_margin !== undefined && d.geometry_outer_margin !== undefined) {
      o.geometry_top_margin = d.geometry_top_margin;
      o.geometry_outer_margin = d.geometry_outer_margin;
    }
  }
  return o;
}

/** Imposition options, or null when no schema is chosen. */
export function imposeOptions(d: CollectionData): ImposeOptions | null {
  const schema = d.imposition_schema;
  if (!schema || !isImpositionSchema(schema)) return null;
  const sig = signatureFor(schema, d);
  const o: ImposeOptions = { schema };
  if (sig !== null && sig !== '0') o.signature = sig === '40-80' ? 'optimized' : Number(sig);
  // fill_signature (the reference's "cover"): pad the last signature with blanks, placed before the
  // last page, which stays last (the back cover). Off: the last signature is shortened instead.
  o.fillSignature = FILL_SIGNATURE_SCHEMAS.includes(schema) ? d.fill_signature : false;
  o.coverLast = o.fillSignature;
  // creep without crop marks (with them, the crop paper thickness does it), saddle-stitched schemas only
  if (!d.cropmarks && d.creep > 0 && FILL_SIGNATURE_SCHEMAS.includes(schema)) o.creepMm = d.creep;
  if (d.cropmarks) {
    o.cropmarks = true;
    o.cropPaper = d.crop_papersize === CUSTOM_PAPER ? { widthMm: d.crop_papersize_width!, heightMm: d.crop_papersize_height! } : d.crop_papersize;
    o.cropPaperThicknessMm = d.crop_paper_thickness;
  }
  return o;
}
