import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { libraryTypeLabel } from '../libraries/libraryText';
import { MARKER_TYPES, pinSvg } from './markerStyle';

/** Says what the map's symbols mean: a pin's colour and glyph (the library type), clusters, and (with a search) the count badge. */
export function MapLegend({ withCounts = false }: { withCounts?: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-2 text-sm text-stone-800">
      <h2 id={headingId} className="sr-only">
        {t('Map legend')}
      </h2>
      <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
        {MARKER_TYPES.map((type) => (
          <li key={type} className="flex items-center gap-1.5">
            <svg
              aria-hidden="true"
              focusable="false"
              width="17"
              height="23"
              viewBox="0 0 28 38"
              // Constant markup from markerStyle.ts (no user text).
              dangerouslySetInnerHTML={{ __html: pinSvg(type) }}
            />
            <span>{t(libraryTypeLabel(type))}</span>
          </li>
        ))}
        <li className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="inline-flex h-6 w-6 items-center justify-center rounded-full border-2 border-white bg-stone-800 text-xs font-bold text-white shadow"
          >
            3
          </span>
          <span>{t('Several libraries close together (zoom in)')}</span>
        </li>
        {withCounts && (
          <li className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className="inline-flex min-w-6 items-center justify-center rounded-full border border-white bg-amber-900 px-1.5 text-xs font-bold text-white"
            >
              12
            </span>
            <span>{t('Entries found in the library')}</span>
          </li>
        )}
      </ul>
    </section>
  );
}
