// The cover form generated from the server's tokens, grouped (sheet dimensions, text, image, back
// cover) in the server's order, with the live sheet size, the spine from the built book, the book's
// font in one click, and the image upload with its print resolution.
import { useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COVER_MIN_DPI, COVER_MUSE_BODY_MAX, COVER_MUSE_STR_MAX, SPINE_TEXT_MIN_MM, printDpi, spineHasText, spineWidthMm, type CoverToken } from '@uc/shared';
import { isApiError } from '../../api/client';
import { useBookBuilder } from '../bookbuilder/store';
import { useCoverStore, type CoverValue } from './store';
import { GROUP_LEGENDS, TOKEN_LABELS, groupTokens, placedWidthMm, sheetSize } from './tokens';
import { COVER_IMAGE_TYPES, localImageProblem, uploadCoverImage } from './useCoverSession';

/** The id of a token's control (the page has one cover form), for labels, errors and focus. */
export const fieldId = (name: string) => `cover-field-${name}`;

const control =
  'w-full max-w-full rounded border border-stone-500 bg-white px-2 py-1.5 text-stone-900 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700';

export function useTokenLabel(): (token: CoverToken) => string {
  const { t } = useTranslation();
  return (token) => (TOKEN_LABELS[token.name] ? t(TOKEN_LABELS[token.name]) : token.desc || token.name);
}

/** Formats millimetres with at most one decimal in the interface language. */
export function useMm(): (mm: number) => string {
  const { i18n } = useTranslation();
  return (mm) => new Intl.NumberFormat(i18n.language || 'en', { maximumFractionDigits: 1 }).format(Math.round(mm * 10) / 10);
}

function describedBy(...ids: (string | false | undefined | null)[]) {
  return ids.filter(Boolean).join(' ') || undefined;
}

function FieldError({ id, message }: { id: string; message?: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm font-semibold break-words text-red-800">
      {message}
    </p>
  );
}

interface FieldProps {
  token: CoverToken;
  error?: string;
  ready: boolean;
}

function TokenField({ token, error, ready }: FieldProps) {
  const { t } = useTranslation();
  const label = useTokenLabel()(token);
  const id = fieldId(token.name);
  const value = useCoverStore((s) => s.values[token.name]);
  const setValue = useCoverStore((s) => s.setValue);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hint =
    token.type === 'muse_str' || token.type === 'muse_body'
      ? t('Muse markup: *italics*, **bold**.')
      : token.type === 'isbn'
        ? t('ISBN-13 or ISBN-10; hyphens are allowed.')
        : null;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(hint && hintId, error && errorId),
  };
  const str = (v: CoverValue | undefined) => (v === null || v === undefined ? '' : String(v));

  if (token.type === 'file') return <FileField token={token} label={label} error={error} ready={ready} />;
  if (token.type === 'bool') {
    return (
      <div className="flex flex-col gap-1 sm:col-span-2">
        <div className="flex items-start gap-2">
          <input {...common} type="checkbox" className="mt-1 h-4 w-4 shrink-0 accent-amber-900" checked={value === true} onChange={(e) => setValue(token.name, e.target.checked)} />
          <label htmlFor={id}>{label}</label>
        </div>
        <FieldError id={errorId} message={error} />
      </div>
    );
  }
  let input: ReactNode;
  switch (token.type) {
    case 'int':
      input = (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={1}
          min={token.min}
          max={token.max}
          className={`${control} sm:w-40`}
          value={str(value)}
          onChange={(e) => {
            const raw = e.target.value;
            setValue(token.name, raw === '' || !Number.isFinite(Number(raw)) ? null : Number(raw));
          }}
        />
      );
      break;
    case 'select': {
      const options = token.options ?? [];
      const current = str(value);
      input = (
        <select {...common} className={control} value={current} onChange={(e) => setValue(token.name, e.target.value)}>
          {!options.some((o) => o.value === current) && <option value={current}>{current || '—'}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    case 'muse_body':
      input = <textarea {...common} rows={6} maxLength={COVER_MUSE_BODY_MAX} className={control} value={str(value)} onChange={(e) => setValue(token.name, e.target.value)} />;
      break;
    case 'isbn':
      input = (
        <input {...common} type="text" inputMode="text" autoComplete="off" spellCheck={false} className={control} value={str(value)} onChange={(e) => setValue(token.name, e.target.value)} />
      );
      break;
    default:
      input = <input {...common} type="text" maxLength={COVER_MUSE_STR_MAX} className={control} value={str(value)} onChange={(e) => setValue(token.name, e.target.value)} />;
  }
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${token.type === 'muse_body' ? 'sm:col-span-2' : ''}`}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {input}
      {hint && (
        <p id={hintId} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
      {token.name === 'font_name' && token.type === 'select' && <BookFontButton token={token} />}
    </div>
  );
}

/** "Use the book's font (X)" when the Book Builder's main font is one of the cover's fonts. */
function BookFontButton({ token }: { token: CoverToken }) {
  const { t } = useTranslation();
  const mainfont = useBookBuilder((s) => s.collection_data.mainfont);
  const setValue = useCoverStore((s) => s.setValue);
  if (!mainfont) return null;
  if (!(token.options ?? []).some((o) => o.value === mainfont)) {
    return <p className="text-sm text-stone-700">{t('The book’s font ({{font}}) is not available for covers.', { font: mainfont })}</p>;
  }
  return (
    <button type="button" className="btn self-start" onClick={() => setValue(token.name, mainfont)}>
      {t('Use the book’s font ({{font}})', { font: mainfont })}
    </button>
  );
}

function FileField({ token, label, error, ready }: { token: CoverToken; label: string; error?: string; ready: boolean }) {
  const { t } = useTranslation();
  const mm = useMm();
  const id = fieldId(token.name);
  const value = useCoverStore((s) => s.values[token.name]);
  const image = useCoverStore((s) => s.images[token.name]);
  const values = useCoverStore((s) => s.values);
  const removeImage = useCoverStore((s) => s.removeImage);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const shown = problem ?? error;
  const errorId = `${id}-error`;
  const infoId = `${id}-info`;

  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setProblem(null);
    const local = localImageProblem(file);
    if (local) {
      setProblem(t(local));
    } else {
      setUploading(true);
      try {
        await uploadCoverImage(token.name, file);
      } catch (err) {
        const msg = isApiError(err) ? err.message : String(err);
        setProblem(msg.startsWith(`${token.name}: `) ? msg.slice(token.name.length + 2) : msg);
      } finally {
        setUploading(false);
      }
    }
    // The same file may be chosen again after a removal or a failure.
    if (input.current) input.current.value = '';
  };

  const current = typeof value === 'string' && value !== '' ? value : null;
  const info = image && image.file === current ? image : null;
  const placed = info ? placedWidthMm(token.name, values, info.width_px, info.height_px) : 0;
  const dpi = info ? printDpi(info.width_px, placed) : Infinity;

  return (
    <div className="flex min-w-0 flex-col gap-1 sm:col-span-2">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={COVER_IMAGE_TYPES.join(',')}
        className="max-w-full text-sm file:mr-3 file:rounded file:border file:border-stone-500 file:bg-stone-50 file:px-3 file:py-1.5"
        disabled={!ready || uploading}
        aria-invalid={shown ? true : undefined}
        aria-describedby={describedBy(current && infoId, shown && errorId)}
        onChange={(e) => void onChange(e)}
      />
      <div aria-live="polite" className="flex flex-col gap-1">
        {uploading && <p className="text-sm">{t('Uploading the image…')}</p>}
        {current && (
          <div id={infoId} className="flex flex-col gap-1">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="break-all">
                {t('Image: {{name}}', { name: info?.name ?? current })}
                {info ? ` (${t('{{width}} × {{height}} pixels', { width: info.width_px, height: info.height_px })})` : ''}
              </span>
              <button
                type="button"
                className="btn"
                aria-label={t('Remove the image {{name}}', { name: info?.name ?? current })}
                onClick={() => {
                  setProblem(null);
                  removeImage(token.name);
                }}
              >
                {t('Remove')}
              </button>
            </p>
            {info && dpi < COVER_MIN_DPI && (
              <p className="rounded border border-amber-700 bg-amber-50 p-2 text-sm text-amber-950">
                {t('Low resolution: at {{mm}} mm wide this image prints at {{dpi}} dpi, below the {{min}} dpi a sharp print needs. Use a larger image or make it narrower.', {
                  mm: mm(placed),
                  dpi: Math.round(dpi),
                  min: COVER_MIN_DPI,
                })}
              </p>
            )}
          </div>
        )}
      </div>
      <FieldError id={errorId} message={shown} />
    </div>
  );
}

/** The total sheet size from the dimension fields (coverLayout, the server's rule too). */
export function SheetSize() {
  const { t } = useTranslation();
  const mm = useMm();
  const values = useCoverStore((s) => s.values);
  const { width, height } = sheetSize(values);
  return (
    <p aria-live="polite" className="rounded bg-stone-100 p-2 font-semibold sm:col-span-2">
      {t('Sheet: {{width}} × {{height}} mm', { width: mm(width), height: mm(height) })}
    </p>
  );
}

/** A spine too narrow to read carries no text (the server leaves it blank): said before the preview shows it. */
function SpineTextNote({ widthMm }: { widthMm: number }) {
  const { t } = useTranslation();
  if (widthMm <= 0 || spineHasText(widthMm)) return null;
  return (
    <p data-testid="spine-no-text" className="text-sm text-amber-900">
      {t('A spine narrower than {{min}} mm is too narrow to read: it is left without text.', { min: SPINE_TEXT_MIN_MM })}
    </p>
  );
}

/** The spine's width as typed, with the note when it is too narrow for text. */
function SpineWidthNote() {
  const value = useCoverStore((s) => s.values.spinewidth);
  return (
    <div className="sm:col-span-2">
      <SpineTextNote widthMm={Number(value ?? 0) || 0} />
    </div>
  );
}

/** The spine from the last built book's pages, paper thickness and board allowance. */
function SpineFromBook() {
  const { t } = useTranslation();
  const pages = useBookBuilder((s) => s.produced?.book_pages ?? null);
  // the one paper thickness: the Book Builder's (its Imposition tab shows the same figure)
  const paper = useBookBuilder((s) => s.collection_data.crop_paper_thickness);
  const setBookField = useBookBuilder((s) => s.setField);
  const allowance = useCoverStore((s) => s.allowance_mm);
  const setSpineInputs = useCoverStore((s) => s.setSpineInputs);
  const setValue = useCoverStore((s) => s.setValue);
  const [paperText, setPaperText] = useState(String(paper));
  const [allowanceText, setAllowanceText] = useState(String(allowance));
  const paperId = useId();
  const allowanceId = useId();
  const headingId = useId();
  const spine = pages ? spineWidthMm(pages, paper, allowance) : 0;
  const numberInput = 'w-full rounded border border-stone-500 bg-white px-2 py-1.5 sm:w-32';

  if (!pages) {
    return (
      <div className="rounded border border-stone-300 bg-amber-50 p-3 text-sm sm:col-span-2">
        <p>{t('Build your book first: the spine width can then be computed from its pages.')}</p>
        <Link to="/bookbuilder" className="link">
          {t('Go to the Book Builder')}
        </Link>
      </div>
    );
  }
  const onNumber = (key: 'paper_mm' | 'allowance_mm', setText: (s: string) => void) => (e: ChangeEvent<HTMLInputElement>) => {
    setText(e.target.value);
    const n = Number(e.target.value);
    if (e.target.value === '' || !Number.isFinite(n) || n < 0) return;
    if (key === 'paper_mm') setBookField('crop_paper_thickness', n);
    else setSpineInputs({ [key]: n });
  };
  return (
    <div role="group" aria-labelledby={headingId} className="flex flex-col gap-3 rounded border border-stone-300 bg-amber-50 p-3 sm:col-span-2">
      <p id={headingId} className="font-medium">
        {t('Your book has {{n}} pages', { n: pages })}
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={paperId}>{t('Paper thickness (mm), the same as in the Book Builder')}</label>
          <input id={paperId} type="number" inputMode="decimal" min={0} max={0.3} step={0.01} className={numberInput} value={paperText} onChange={onNumber('paper_mm', setPaperText)} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={allowanceId}>{t('Board allowance (mm)')}</label>
          <input id={allowanceId} type="number" inputMode="decimal" min={0} max={50} step={0.5} className={numberInput} value={allowanceText} onChange={onNumber('allowance_mm', setAllowanceText)} />
        </div>
        <button type="button" className="btn" onClick={() => setValue('spinewidth', spine)}>
          {t('Use for the spine')}
        </button>
      </div>
      <p className="text-sm text-stone-700">{t('Spine width for these pages: {{mm}} mm', { mm: spine })}</p>
    </div>
  );
}

export function CoverForm({ errors, ready }: { errors: Record<string, string>; ready: boolean }) {
  const { t } = useTranslation();
  const tokens = useCoverStore((s) => s.tokens);
  const hasSpine = tokens.some((x) => x.name === 'spinewidth');
  return (
    <div className="flex flex-col gap-4">
      {groupTokens(tokens).map(([group, list]) => (
        <fieldset key={group} className="min-w-0 rounded border border-stone-300 p-4">
          <legend className="px-1 font-semibold">{t(GROUP_LEGENDS[group])}</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {group === 'sheet' && <SheetSize />}
            {list.map((token) => (
              <TokenField key={token.name} token={token} error={errors[token.name]} ready={ready} />
            ))}
            {group === 'sheet' && hasSpine && <SpineWidthNote />}
            {group === 'sheet' && hasSpine && <SpineFromBook />}
          </div>
        </fieldset>
      ))}
    </div>
  );
}
