// The option tabs of the Book Builder: Overview, Layout, Fonts, Imposition, Advanced. Every
// collection_data field (spec §3) with its spec §5 rule and conditional controls.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookFont, BookHeading } from '@uc/shared';
import {
  COLLECTION_FLAGS,
  CUSTOM_PAPER,
  CUSTOM_PAPER_MAX_MM,
  CUSTOM_PAPER_MIN_MM,
  DIVISION_FACTORS,
  FILL_SIGNATURE_SCHEMAS,
  FONT_SIZES,
  IMPOSITION_SCHEMAS,
  PAPER_SIZES,
  SIGNATURES_2UP,
  SIGNATURES_4UP,
  SIGNATURE_2UP_SCHEMAS,
  SIGNATURE_4UP_SCHEMAS,
  type CollectionFlag,
} from '../../../../packages/shared/src/bookbuilder-constants.ts';
import { pageOrder, type PageOrder } from '../../../../packages/imposition/src/order.ts';
import { isImpositionSchema } from '../../../../packages/imposition/src/schemas.ts';
import { CheckField, NumberField, SelectField, TextField, type Option } from './fields';
import { BookSheets, SchemaDiagram } from './SchemaDiagram';
import { orderOptions, pageMm, sheetInfo, sheetLabel } from './sheet';
import { homePrinterPaper } from '../../../../packages/imposition/src/sheet.ts';
import { TextList } from './TextList';
import { needsVirtualHeader, useBookBuilder } from './store';

export const TAB_IDS = ['overview', 'layout', 'fonts', 'imposition', 'advanced'] as const;
export type TabId = (typeof TAB_IDS)[number];
/** English source strings, shown through t(): each needs a key in web/src/i18n/bookbuilder/<lang>.json. */
export const TAB_LABELS: Record<TabId, string> = { overview: 'Overview', layout: 'Layout', fonts: 'Fonts', imposition: 'Imposition', advanced: 'Advanced' };
/** Which tab shows each field (to point at problems). */
export const FIELD_TAB: Record<string, TabId> = {
  title: 'overview', subtitle: 'overview', author: 'overview', date: 'overview', notes: 'overview', source: 'overview',
  papersize: 'layout', papersize_width: 'layout', papersize_height: 'layout', division_factor: 'layout', areaset_width: 'layout',
  areaset_height: 'layout', geometry_top_margin: 'layout', geometry_outer_margin: 'layout', binding_correction: 'layout',
  twoside: 'layout', opening: 'layout', headings: 'layout', chapter_newpage: 'layout',
  mainfont: 'fonts', sansfont: 'fonts', monofont: 'fonts', fontsize: 'fonts',
  imposition_schema: 'imposition', signature_2up: 'imposition', signature_4up: 'imposition', fill_signature: 'imposition',
  cropmarks: 'imposition', crop_papersize: 'imposition', crop_papersize_width: 'imposition', crop_papersize_height: 'imposition',
  crop_paper_thickness: 'imposition', creep: 'imposition',
  linespacing: 'advanced', parindent: 'advanced', tex_tolerance: 'advanced', tex_emergencystretch: 'advanced',
};

// grid-cols-1: a track of minmax(0, 1fr), so a select with a long option cannot widen the column past a phone's screen.
const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    // min-w-0: a fieldset is at least as wide as its content by default, which pushed the text list
    // past the screen on phones.
    <fieldset className="min-w-0 rounded border border-stone-300 p-3 sm:p-4">
      <legend className="px-1 font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

export function OverviewTab() {
  const { t } = useTranslation();
  const header = useBookBuilder(needsVirtualHeader);
  return (
    <div className="flex flex-col gap-4">
      {header && (
        <Section title={t('Title page of the collection')}>
          <p className="mb-3 text-sm text-stone-700">{t('Several texts make a collection: give it a title page.')}</p>
          <div className={grid}>
            <TextField name="title" label={t('Title')} />
            <TextField name="subtitle" label={t('Subtitle')} />
            <TextField name="author" label={t('Author')} />
            <TextField name="date" label={t('Date')} />
            <TextField name="notes" label={t('Notes')} multiline />
            <TextField name="source" label={t('Source')} multiline />
          </div>
        </Section>
      )}
      <Section title={t('Texts')}>
        <TextList />
      </Section>
    </div>
  );
}

export function usePaperOptions(): Option[] {
  const { t } = useTranslation();
  return [...PAPER_SIZES.map((p) => ({ value: p.value, label: t(p.label) })), { value: CUSTOM_PAPER, label: t('Custom') }];
}

export function LayoutTab({ headings }: { headings: BookHeading[] }) {
  const { t } = useTranslation();
  const d = useBookBuilder((s) => s.collection_data);
  const papers = usePaperOptions();
  const mm = { min: CUSTOM_PAPER_MIN_MM, max: CUSTOM_PAPER_MAX_MM };
  return (
    <div className="flex flex-col gap-4">
      <Section title={t('Paper')}>
        <div className={grid}>
          <SelectField name="papersize" label={t('Please choose a paper size')} options={papers} />
          {d.papersize === CUSTOM_PAPER && (
            <>
              <NumberField name="papersize_width" label={t('Width in mm')} {...mm} />
              <NumberField name="papersize_height" label={t('Height in mm')} {...mm} />
            </>
          )}
        </div>
      </Section>
      <Section title={t('Margins')}>
        <div className={grid}>
          <SelectField
            name="division_factor"
            numeric
            label={t('Automatic margins: choose a factor. 9 has the widest margins, 15 the narrowest')}
            options={[{ value: '0', label: t('Custom') }, ...DIVISION_FACTORS.map((n) => ({ value: String(n), label: String(n) }))]}
          />
          <NumberField name="binding_correction" label={t('Binding correction in mm (additional inner margin)')} min={0} max={50} />
          {d.division_factor === 0 && (
            <>
              <NumberField name="areaset_width" label={t('Text block width in mm')} min={30} max={500} />
              <NumberField name="areaset_height" label={t('Text block height in mm')} min={30} max={500} />
              <NumberField name="geometry_outer_margin" label={t('Outer margin in mm')} hint={t('Leave blank for default (set both margins or none)')} min={0} max={500} />
              <NumberField name="geometry_top_margin" label={t('Top margin in mm')} hint={t('Leave blank for default (set both margins or none)')} min={0} max={500} />
            </>
          )}
        </div>
      </Section>
      <Section title={t('Pages')}>
        <div className={grid}>
          <div className="flex flex-col gap-3">
            <CheckField name="twoside" label={t('Two side layout')} />
            {d.twoside && (
              <SelectField
                name="opening"
                label={t('Page where to start a chapter')}
                options={[
                  { value: 'any', label: t('Any page') },
                  { value: 'right', label: t('Right page') },
                  { value: 'left', label: t('Left page') },
                ]}
              />
            )}
          </div>
          <SelectField
            name="chapter_newpage"
            label={t('Start each chapter on a new page')}
            hint={t('Automatic: yes for books, no for articles and short texts (under about 35 pages), whose chapters would leave pages mostly empty.')}
            options={[
              { value: 'auto', label: t('Automatic (by the length of the texts)') },
              { value: 'always', label: t('Yes') },
              { value: 'never', label: t('No: chapters follow on') },
            ]}
          />
          <SelectField name="headings" label={t('Running headings')} options={headings.map((h) => ({ value: h.name, label: t(h.desc) }))} />
        </div>
      </Section>
    </div>
  );
}

export function FontsTab({ fonts }: { fonts: BookFont[] }) {
  const { t } = useTranslation();
  const d = useBookBuilder((s) => s.collection_data);
  // families without some letters of the session's texts are shown apart, with the letters, and cannot be chosen
  const lacking = t('Without some letters of your texts');
  const option = (f: BookFont) =>
    f.offered ? { value: f.name, label: f.name } : { value: f.name, label: t('{{name}} (no {{letters}})', { name: f.name, letters: f.missing }), group: lacking, disabled: true };
  const all = fonts.map(option);
  const mono = fonts.filter((f) => f.type === 'mono').map(option);
  // a bundled family is offered even without some letters: the compiler sets those in another font
  const fallbackHint = (name: string) => {
    const f = fonts.find((x) => x.name === name);
    return f && f.offered && !f.covers_texts ? t('{{name}} has no {{letters}}: these letters are set in another installed font.', { name: f.name, letters: f.missing }) : undefined;
  };
  const chosen = [d.mainfont, d.monofont, ...(d.sansfontsections ? [d.sansfont] : [])]
    .map((name) => fonts.find((f) => f.name === name))
    .filter((f): f is BookFont => !!f);
  return (
    <div className="flex flex-col gap-4">
      <Section title={t('Fonts')}>
        <div className={grid}>
          <SelectField name="mainfont" label={t('Main Font')} options={all} hint={fallbackHint(d.mainfont)} />
          <SelectField name="monofont" label={t('Mono Font')} options={mono} hint={fallbackHint(d.monofont)} />
          {d.sansfontsections ? (
            <SelectField name="sansfont" label={t('Sans Font')} options={all} hint={[t('Used for the section titles.'), fallbackHint(d.sansfont)].filter(Boolean).join(' ')} />
          ) : (
            <p className="text-sm text-stone-700 sm:col-span-2">{t('A sans font for the section titles can be chosen after turning on “Use sans fonts for section titles” in Advanced.')}</p>
          )}
          <SelectField name="fontsize" numeric label={t('Font Size')} options={FONT_SIZES.map((n) => ({ value: String(n), label: `${n}pt` }))} />
        </div>
        {fonts.some((f) => !f.offered) && <p className="mt-2 text-sm text-stone-700">{t('Only the fonts that have every letter of your texts are offered, and DejaVu, which comes with the site.')}</p>}
      </Section>
      {chosen.length > 0 && (
        <Section title={t('Preview')}>
          <ul className="grid gap-3 md:grid-cols-3">
            {[...new Set(chosen)].map((f) => (
              <li key={f.name}>
                <a href={f.preview_pdf} target="_blank" rel="noopener" className="block rounded border border-stone-300 p-1 hover:border-amber-800">
                  <img src={f.preview_svg} alt={t('Sample of the font {{name}}', { name: f.name })} className="w-full" loading="lazy" />
                </a>
                <p className="mt-1 text-sm">{f.name}</p>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}

export const SCHEMA_TEXT: Record<string, { label: string; desc: string }> = {
  '2up': {
    label: 'Booklet (2up)',
    desc: 'Pages are reordered, in one or more groups (signatures), then folded in half. If you have more signatures, you will have to bind them together like a book. You may choose the size of the signatures: a fixed value (4, 8, 16, etc.), the whole book in a single signature, or an optimized size to reduce the number of blank pages.',
  },
  duplex2up: { label: 'Booklet for duplex printers (duplex2up)', desc: 'Same as 2up, but for duplex printers.' },
  '2down': { label: 'Notepad, bound on the top edge (2down)', desc: 'Same as 2up, but the pages are rotated by 90 degrees counter-clockwise, binding on the top edge.' },
  '2side': { label: 'Two pages side by side (2side)', desc: 'Pairs of consecutive pages are put on the same sheet side by side.' },
  '4up': { label: 'Two booklets per sheet (4up)', desc: 'Exactly like 2up, but the sheets are meant to be cut horizontally first and then stacked on each other. This way you can print, for example, A6 booklets on A4.' },
  '2x4x2': { label: '16-page blocks on two sheets (2x4x2)', desc: 'Blocks of 16 pages to be folded twice and then bound together.' },
  '1x4x2cutfoldbind': { label: '8-page blocks to cut, fold and bind (1x4x2cutfoldbind)', desc: 'Fixed signatures of 8 pages, to be cut horizontally, folded individually, and bound together.' },
  '2x4x1': { label: '8-page blocks on one sheet (2x4x1)', desc: 'Blocks of 8 pages to be folded twice and then bound together.' },
  ea4x4: { label: '16-page blocks, sheets folded separately (ea4x4)', desc: 'Fixed 16 pages signatures on 2 sheets, with double individual folding.' },
  '1x8x2': { label: '16-page blocks on one sheet (1x8x2)', desc: 'Fixed 16 pages signatures on a single sheet, with triple folding.' },
  '1x1': { label: 'One page per sheet (1x1)', desc: 'One page per sheet. This is useful only if you want to add the crop marks.' },
};

function signatureOptions(values: string[], t: (k: string, o?: Record<string, unknown>) => string): Option[] {
  return values.map((v) => ({
    value: v,
    label: v === '0' ? t('The whole book in a single signature') : v === '40-80' ? t('Use optimized signatures with 40-80 pages each') : t('{{n}} pages', { n: Number(v) }),
  }));
}

/** The page order of the book as last built under the chosen schema, or null (no build, no schema). */
function useBookOrder(): { pages: number; order: PageOrder } | null {
  const d = useBookBuilder((s) => s.collection_data);
  const pages = useBookBuilder((s) => s.produced?.book_pages ?? null);
  // the book's own sheets, drawn without the crop pass (as the generic example)
  const options = orderOptions(d, false);
  if (!pages || !options) return null;
  try {
    const order = pageOrder(pages, options);
    return { pages, order };
  } catch {
    return null;
  }
}

/** What the last build's page count gives with the chosen schema: sheets, blank pages, signatures, and its first sheets. */
function Arithmetic() {
  const { t } = useTranslation();
  const book = useBookOrder();
  if (!book) return null;
  const { pages, order: o } = book;
  return (
    <>
      <p className="rounded bg-amber-50 p-2 text-sm">
        {t('With the {{pages}} pages of the last build: {{sheets}} sheets of paper, {{blanks}} blank pages, {{signatures}} signatures.', {
          pages,
          sheets: o.sheets,
          blanks: o.blanks,
          signatures: o.signatures.length,
        })}
      </p>
      <BookSheets order={o} pages={pages} />
    </>
  );
}

/** The one paper thickness: creep with crop marks (always) or without (when asked), and the cover's spine. */
function PaperThickness() {
  const { t } = useTranslation();
  return (
    <NumberField
      name="crop_paper_thickness"
      label={t('Paper thickness in mm (0.10 should be appropriate for common 80g/m2 paper)')}
      hint={t('Used to shift the pages of the inner sheets against creep, and for the spine width in Covers.')}
      min={0}
      max={0.3}
      step={0.01}
    />
  );
}

/** Creep compensation without crop marks (beyond the reference): on = the paper thickness above, off = 0. */
function CreepCheck() {
  const { t } = useTranslation();
  const id = useId();
  const on = useBookBuilder((s) => s.creep_on);
  const setCreep = useBookBuilder((s) => s.setCreep);
  return (
    <div className="flex items-start gap-2">
      <input id={id} type="checkbox" className="mt-1 h-4 w-4 accent-amber-900" checked={on} onChange={(e) => setCreep(e.target.checked)} />
      <label htmlFor={id}>{t('Creep compensation for saddle stitching: shift the pages of the inner sheets by the paper thickness')}</label>
    </div>
  );
}

export function ImpositionTab() {
  const { t } = useTranslation();
  const d = useBookBuilder((s) => s.collection_data);
  const papers = usePaperOptions();
  const schema = d.imposition_schema;
  const cropAuto = useBookBuilder((s) => s.crop_paper_auto);
  const page = pageMm(d);
  const printer = page ? t(sheetLabel(homePrinterPaper(page).name)) : '';
  const original = d.papersize === CUSTOM_PAPER ? `${d.papersize_width ?? '?'}mm:${d.papersize_height ?? '?'}mm` : t(PAPER_SIZES.find((p) => p.value === d.papersize)?.label ?? d.papersize);
  return (
    <div className="flex flex-col gap-4">
      <Section title={t('Imposition')}>
        <div className="flex flex-col gap-4">
          <SelectField
            name="imposition_schema"
            label={t('Imposition Schema')}
            options={[{ value: '', label: t('None') }, ...IMPOSITION_SCHEMAS.map((s) => ({ value: s.value, label: t(SCHEMA_TEXT[s.value].label) }))]}
          />
          {isImpositionSchema(schema) && (
            <>
              <p>{t(SCHEMA_TEXT[schema].desc)}</p>
              <SchemaDiagram schema={schema} />
            </>
          )}
          {SIGNATURE_2UP_SCHEMAS.includes(schema) && <SelectField name="signature_2up" label={t('Please select the signature size')} options={signatureOptions(SIGNATURES_2UP, t)} />}
          {SIGNATURE_4UP_SCHEMAS.includes(schema) && <SelectField name="signature_4up" label={t('Please select the signature size')} options={signatureOptions(SIGNATURES_4UP, t)} />}
          {FILL_SIGNATURE_SCHEMAS.includes(schema) && <CheckField name="fill_signature" label={t('Fill with blank pages before the last page if the signature is not full.')} />}
          {(FILL_SIGNATURE_SCHEMAS.includes(schema) || d.cropmarks) && <PaperThickness />}
          {FILL_SIGNATURE_SCHEMAS.includes(schema) && !d.cropmarks && <CreepCheck />}
          <Arithmetic />
        </div>
      </Section>
      {schema !== '' && (
        <Section title={t('Crop marks')}>
          <div className="flex flex-col gap-4">
            <CheckField name="cropmarks" label={t('Add crop marks to PDF')} />
            {d.cropmarks && (
              <div className={grid}>
                <SelectField
                  name="crop_papersize"
                  label={t('Please select the size of each page including the crop marks, before the imposing.')}
                  hint={[t('(Original size is {{size}})', { size: original }), cropAuto && sheetInfo(d)?.printer.fits && t('Chosen so that the sheet stays on {{printer}}; pick another to change it.', { printer })].filter(Boolean).join(' ')}
                  options={papers}
                />
                {d.crop_papersize === CUSTOM_PAPER && (
                  <>
                    <NumberField name="crop_papersize_width" label={t('Width in mm')} min={CUSTOM_PAPER_MIN_MM} max={CUSTOM_PAPER_MAX_MM} />
                    <NumberField name="crop_papersize_height" label={t('Height in mm')} min={CUSTOM_PAPER_MIN_MM} max={CUSTOM_PAPER_MAX_MM} />
                  </>
                )}
              </div>
            )}
          </div>
        </Section>
      )}
    </div>
  );
}

export const FLAG_LABELS: Record<CollectionFlag, string> = {
  notoc: 'Never generate a table of content',
  nofinalpage: 'Never generate the final page with text details',
  nocoverpage: 'Do not create a cover page and start the text on the first page',
  body_only: 'Text body only (no title, no final pages)',
  impressum: 'Place the notes on the back of the first page, impressum-style',
  sansfontsections: 'Use sans fonts for section titles',
  nobold: 'Do not use bold fonts',
  start_with_empty_page: 'Start the document with an empty page',
  ignore_cover: 'Never display the cover image',
  continuefootnotes: 'Continuous footnote numbering across the whole document',
  centerchapter: 'Center chapter titles',
  centersection: 'Center all section titles',
};

export function AdvancedTab() {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Section title={t('Paragraph settings')}>
        <div className="flex flex-col gap-4">
          <NumberField name="linespacing" label={t('Line spacing')} min={1} max={2} step={0.1} />
          <NumberField name="parindent" label={t('Paragraph indentation in points (pt)')} min={-100} max={100} />
          <NumberField name="tex_tolerance" label={t('TeX tolerance')} hint={t('Higher values allow looser lines (wider word spaces).')} min={0} max={10000} />
          <NumberField name="tex_emergencystretch" label={t('TeX emergency stretch in pt')} hint={t('Extra stretch for lines that cannot be set otherwise.')} min={0} max={10000} />
        </div>
      </Section>
      <Section title={t('Advanced settings')}>
        <div className="flex flex-col gap-2">
          {COLLECTION_FLAGS.map((f) => (
            <CheckField key={f} name={f} label={t(FLAG_LABELS[f])} />
          ))}
        </div>
      </Section>
    </div>
  );
}
