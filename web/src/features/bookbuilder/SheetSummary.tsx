// Before a build: which sheet the book comes out on (name and mm) and how many sheets, with what to do
// when it outgrows the home printer's paper or leaves the crop marks no room. The crop-mark paper
// follows the page size and schema (autoCropPaper) until the user picks one.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMm } from '../covers/CoverForm';
import { CROP_MARK_ROOM_MM } from '../../../../packages/imposition/src/sheet.ts';
import { autoCropPaper, estimatePages, sheetInfo, sheetLabel, sheetsFor } from './sheet';
import { useBookBuilder } from './store';

/** Keeps the crop-mark paper fitted to the printer's paper while crop marks are on and the user has not picked one. */
export function useAutoCropPaper() {
  const d = useBookBuilder((s) => s.collection_data);
  const auto = useBookBuilder((s) => s.crop_paper_auto);
  const setCropPaper = useBookBuilder((s) => s.setCropPaper);
  const { papersize, papersize_width, papersize_height, imposition_schema, cropmarks } = d;
  useEffect(() => {
    if (!auto || !cropmarks) return;
    const want = autoCropPaper({ papersize, papersize_width, papersize_height, imposition_schema });
    const now = useBookBuilder.getState().collection_data;
    if (!want) return;
    const same =
      want.crop_papersize === now.crop_papersize &&
      (want.crop_papersize !== 'custom' || (want.crop_papersize_width === now.crop_papersize_width && want.crop_papersize_height === now.crop_papersize_height));
    if (!same) setCropPaper(want, true);
  }, [auto, cropmarks, papersize, papersize_width, papersize_height, imposition_schema, setCropPaper]);
}

export function SheetSummary({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const mm = useMm();
  const d = useBookBuilder((s) => s.collection_data);
  const built = useBookBuilder((s) => s.produced?.book_pages ?? null);
  const texts = useBookBuilder((s) => s.text_list);
  const auto = useBookBuilder((s) => s.crop_paper_auto);
  const setCropPaperAuto = useBookBuilder((s) => s.setCropPaperAuto);
  const info = sheetInfo(d);
  if (!info) return null;
  const size = { width: mm(info.sheet.width), height: mm(info.sheet.height) };
  const what = info.name ? t('{{name}} ({{width}} × {{height}} mm)', { name: t(sheetLabel(info.name)), ...size }) : t('{{width}} × {{height}} mm', size);
  const estimate = built ? null : estimatePages(texts.reduce((a, x) => a + x.attributes.size, 0), texts.length, d);
  const pages = built ?? estimate;
  const sheets = pages ? sheetsFor(pages, d) : null;
  const printer = t(sheetLabel(info.printer.name));
  return (
    <div data-testid="sheet-summary" aria-live="polite" className={`rounded border border-stone-300 bg-stone-50 p-2 text-sm ${className}`}>
      <p>
        <span className="font-semibold">{info.imposed ? t('Printed sheet: {{sheet}}', { sheet: what }) : t('Page size: {{sheet}}, one page per side', { sheet: what })}</span>
        {sheets !== null &&
          ' · ' +
            (built
              ? t('{{sheets}} sheets for the {{pages}} pages of the last build', { sheets, pages })
              : t('about {{sheets}} sheets (estimated from the length of the texts; the build tells the exact number)', { sheets }))}
      </p>
      {info.imposed && !info.printer.fits && (
        <p className="mt-1 text-amber-900">
          {t('This sheet is larger than {{printer}}: print it at a print shop, or choose smaller pages.', { printer })}
          {info.crop && !auto && (
            <>
              {' '}
              <button type="button" className="underline" onClick={() => setCropPaperAuto(true)}>
                {t('Fit the crop-mark paper to {{printer}}', { printer })}
              </button>
            </>
          )}
        </p>
      )}
      {info.crop && !info.crop.marksFit && (
        <p className="mt-1 text-amber-900">
          {t('The crop marks need {{mm}} mm beside each page: on this crop-mark paper some fall off. Choose smaller pages to keep the sheet, or a larger crop-mark paper (the sheet grows).', { mm: Math.round(CROP_MARK_ROOM_MM) })}
        </p>
      )}
    </div>
  );
}
