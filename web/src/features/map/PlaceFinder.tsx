import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { quote } from '../../lib/intl';
import type { LatLng, LibraryPublic } from '../../lib/shared';
import { libraryPlace } from '../libraries/libraryText';

/** Where "Near me" stands: not asked, asking the browser, refused, impossible, or found. */
export type NearState =
  | { status: 'idle' | 'locating' | 'denied' | 'unavailable' }
  | { status: 'found'; position: LatLng };

export interface NearLibrary {
  library: LibraryPublic;
  km: number;
}

interface Props {
  place: string;
  onPlace: (place: string) => void;
  /** The libraries matching the place search (only read while it is not empty). */
  matches: readonly LibraryPublic[];
  near: NearState;
  onNearMe: () => void;
  /** The located libraries shown, nearest first (once the position is found). */
  nearest: readonly NearLibrary[];
  onShow: (id: number) => void;
}

/** How many of the nearest libraries "Near me" lists (and the map shows around the reader: NEAREST_FITTED). */
export const NEAREST_LISTED = 5;
export const NEAREST_FITTED = 3;

/** Asks the browser for the reader's position; the answer says why when there is none. */
export function locate(onDone: (state: NearState) => void): void {
  const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
  if (!geo) {
    onDone({ status: 'unavailable' });
    return;
  }
  geo.getCurrentPosition(
    (p) => onDone({ status: 'found', position: { latitude: p.coords.latitude, longitude: p.coords.longitude } }),
    (e) => onDone({ status: e.code === e.PERMISSION_DENIED ? 'denied' : 'unavailable' }),
    { timeout: 15_000, maximumAge: 10 * 60_000 },
  );
}

/** Arrow keys walk the list of buttons; from the field, ArrowDown enters it. */
function walk(e: KeyboardEvent, list: HTMLElement | null) {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const buttons = Array.from(list?.querySelectorAll<HTMLButtonElement>('button') ?? []);
  if (buttons.length === 0) return;
  const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = e.key === 'ArrowDown' ? Math.min(i + 1, buttons.length - 1) : i - 1;
  e.preventDefault();
  if (next < 0) (e.currentTarget.closest('form')?.querySelector('input') ?? buttons[0]).focus();
  else buttons[next].focus();
}

/**
 * The map's place search (over the libraries' own names and addresses: no geocoder, no other host) and
 * "Near me" (the browser's position; the nearest libraries by great-circle distance).
 */
export function PlaceFinder({ place, onPlace, matches, near, onNearMe, nearest, onShow }: Props) {
  const { t, i18n } = useTranslation();
  const inputId = useId();
  const helpId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const lang = i18n.language;
  const km = new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 });
  const searching = place.trim() !== '';
  const found = near.status === 'found';
  // The matches (nearest first once the position is known, those without a place last), or the nearest few.
  const listed: { library: LibraryPublic; km?: number }[] = searching
    ? found
      ? [
          ...nearest.filter((n) => matches.includes(n.library)),
          ...matches.filter((m) => !nearest.some((n) => n.library === m)).map((library) => ({ library })),
        ]
      : matches.map((library) => ({ library }))
    : found
      ? nearest.slice(0, NEAREST_LISTED)
      : [];

  const item = (lib: LibraryPublic, distance?: number) => {
    const where = libraryPlace(lib, lang);
    return (
      <li key={lib.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-1">
        <span>
          <span className="font-medium">{lib.name}</span>
          {where && <span className="text-sm text-stone-700">{` · ${where}`}</span>}
          {distance !== undefined && <span className="text-sm text-stone-700">{` · ${km.format(distance)}`}</span>}
        </span>
        <button
          type="button"
          className="btn px-2 py-1 text-sm"
          aria-label={`${t('Show on the map')}: ${lib.name}`}
          onClick={() => onShow(lib.id)}
          onKeyDown={(e) => walk(e, listRef.current)}
        >
          {t('Show on the map')}
        </button>
      </li>
    );
  };

  return (
    <div className="mt-2">
      <form
        role="search"
        aria-label={t('Find libraries by place')}
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          listRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
        }}
      >
        <div className="min-w-48 flex-1">
          <label htmlFor={inputId} className="block text-sm font-medium">
            {t('Find libraries by place')}
          </label>
          <input
            id={inputId}
            type="search"
            value={place}
            autoComplete="off"
            placeholder={t('City, country or library')}
            aria-describedby={helpId}
            className="mt-1 w-full rounded border border-stone-400 bg-white px-3 py-1.5"
            onChange={(e) => onPlace(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && place) {
                e.preventDefault();
                onPlace('');
              } else walk(e, listRef.current);
            }}
          />
        </div>
        <button type="button" className="btn" onClick={onNearMe} aria-busy={near.status === 'locating'} disabled={near.status === 'locating'}>
          {/* Drawn, not a character: the target sign is missing from common fonts. */}
          <svg aria-hidden="true" viewBox="0 0 16 16" className="mr-1 inline-block h-4 w-4 align-[-2px]" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="8" cy="8" r="4.5" />
            <circle cx="8" cy="8" r="1.2" fill="currentColor" />
            <path d="M8 0.5v3M8 12.5v3M0.5 8h3M12.5 8h3" />
          </svg>
          {t('Near me')}
        </button>
      </form>
      <p id={helpId} className="mt-1 text-xs text-stone-700">
        {t('The map shows the libraries matching the place; ↓ moves to the list, Escape clears the field.')}
      </p>
      <div role="status" className="mt-1 text-sm">
        {near.status === 'locating' && t('Finding your position…')}
        {near.status === 'denied' &&
          t('Your browser did not share your position, so the nearest libraries cannot be found. You can search for a place instead.')}
        {near.status === 'unavailable' &&
          t('Sorry, your position could not be found here. You can search for a place instead.')}
        {searching &&
          (matches.length === 0
            ? t('No library matches {{place}}.', { place: quote(place.trim(), lang) })
            : t('place_matches', { count: matches.length, place: quote(place.trim(), lang) }))}
        {!searching && found && nearest.length > 0 && t('The libraries nearest to you, nearest first.')}
      </div>
      {listed.length > 0 && (
        <ul ref={listRef} aria-label={searching ? t('Libraries matching the place') : t('Nearest libraries')} className="mt-1 divide-y divide-stone-200">
          {listed.map((n) => item(n.library, n.km))}
        </ul>
      )}
    </div>
  );
}
