// What the Book Builder makes (issue 31): the spec's PDF for printing, or an EPUB for e-readers. The
// choice is kept in the browser beside the session; with EPUB the print options are said to be ignored.
import { useId } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useTranslation } from 'react-i18next';
import type { BookFormat } from '@uc/shared';

interface FormatState {
  /** What the next build makes. */
  format: BookFormat;
  /** What the finished build made (check_job's format), so the download says what it is. */
  produced: BookFormat;
  setFormat(format: BookFormat): void;
  setProduced(format: BookFormat): void;
}

export const useBookFormat = create<FormatState>()(
  persist(
    (set) => ({
      format: 'pdf',
      produced: 'pdf',
      setFormat: (format) => set({ format }),
      setProduced: (produced) => set({ produced }),
    }),
    { name: 'bookbuilder-format', version: 1, storage: createJSONStorage(() => localStorage) },
  ),
);

export function FormatChoice({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const format = useBookFormat((s) => s.format);
  const setFormat = useBookFormat((s) => s.setFormat);
  const noteId = useId();
  const options: { value: BookFormat; label: string }[] = [
    { value: 'pdf', label: t('PDF, for printing') },
    { value: 'epub', label: t('EPUB, for e-readers and phones') },
  ];
  return (
    <fieldset className={`min-w-0 ${className}`} aria-describedby={format === 'epub' ? noteId : undefined}>
      <legend className="font-semibold">{t('Format')}</legend>
      <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
        {options.map((o) => (
          <label key={o.value} className="flex items-center gap-2">
            <input type="radio" name="bb-format" value={o.value} checked={format === o.value} onChange={() => setFormat(o.value)} />
            {o.label}
          </label>
        ))}
      </div>
      {format === 'epub' && (
        <p id={noteId} className="mt-2 rounded border border-sky-700 bg-sky-50 p-2 text-sm text-sky-950">
          {t('An EPUB flows to fit the screen and the font each reader chooses: the paper size, the imposition and the crop marks are ignored.')}
        </p>
      )}
    </fieldset>
  );
}
