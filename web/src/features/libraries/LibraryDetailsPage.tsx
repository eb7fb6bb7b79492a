import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useGeneral, useLibrary } from '../../api/hooks';
import { isApiError } from '../../api/client';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { LibrarySiteLink, LibraryType } from './LibraryCard';
import { addressLines, establishedYear, logoSrc, safeHttpUrl } from './libraryText';
import { languageList } from '../../lib/intl';
import { hasCoordinates } from '../map/bounds';
import { tileSetting } from '../map/settings';
import { SubscribeLinks } from '../feeds/SubscribeLinks';

// The map's own chunk (Leaflet and the basemap), loaded only for a library with a place.
const LibraryMap = lazy(() => import('../map/LibraryMap'));
const noBounds = () => {};
const SMALL_MAP = 'h-64';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-3 sm:grid sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="mt-1 sm:mt-0">{children}</dd>
    </div>
  );
}

/** Copies a text to the clipboard and says so (falls back to selecting the text). */
function CopyButton({ text, label, fallbackTarget }: { text: string; label: string; fallbackTarget: () => HTMLElement | null }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onCopy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      const node = fallbackTarget();
      const sel = window.getSelection();
      if (node && sel) {
        const range = document.createRange();
        range.selectNodeContents(node);
        sel.removeAllRanges();
        sel.addRange(range);
      }
      setState('select');
    }
    timer.current = setTimeout(() => setState('idle'), 4000);
  };
  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" className="btn" onClick={onCopy}>
        {label}
      </button>
      <span role="status" className="text-sm text-stone-700">
        {state === 'copied' ? t('Copied!') : state === 'select' ? t('The key is selected: press Ctrl+C to copy it.') : ''}
      </span>
    </span>
  );
}

/** /library/details/{id} (spec §2 Library overview, detail page). */
export default function LibraryDetailsPage() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const { data: lib, isPending, error } = useLibrary(id);
  const keyRef = useRef<HTMLPreElement>(null);
  const keyId = useId();
  const mapHeadingId = useId();
  const { data: general } = useGeneral();
  useDocumentTitle(lib?.name ?? (error || lib === null ? t('Library not found') : undefined));

  if (isPending) {
    return (
      <p role="status" className="py-10 text-center">
        {t('Loading...')}
      </p>
    );
  }
  if (error || !lib) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10 text-center">
        <h1 className="text-3xl font-semibold">{t('Library not found')}</h1>
        <p className="mt-4">
          {!error || isApiError(error, 404)
            ? t('The library does not exist or it is not public.')
            : t('The libraries could not be loaded. Please try again later.')}
        </p>
        <p className="mt-6">
          <Link to="/library" className="link">
            {t('All the libraries')}
          </Link>
        </p>
      </div>
    );
  }

  const logo = logoSrc(lib.logo_url);
  const year = establishedYear(lib);
  const address = addressLines(lib, i18n.language);
  const email = lib.email_public?.trim();
  const key = lib.pgp_public_key?.trim();
  const located = typeof lib.latitude === 'number' && typeof lib.longitude === 'number';
  const tiles = tileSetting(general);

  return (
    <div className="mx-auto max-w-4xl px-4 py-6">
      <nav aria-label={t('Breadcrumb')} className="text-sm">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link to="/library" className="link">
              {t('Libraries')}
            </Link>
            <span aria-hidden="true"> / </span>
          </li>
          <li aria-current="page">{lib.name}</li>
        </ol>
      </nav>

      <div className="mt-4 flex flex-wrap items-start gap-4">
        {logo && <img src={logo} alt={t('{{name}} logo', { name: lib.name })} className="max-h-28 w-auto" />}
        <div>
          <h1 className="text-3xl font-semibold">{lib.name}</h1>
          <p className="mt-1">
            <LibraryType type={lib.library_type} />
          </p>
        </div>
      </div>

      {(lib.catalog_is_accessible || located) && (
        <p className="mt-4 flex flex-wrap gap-3">
          {lib.catalog_is_accessible && (
            <Link to={`/library/entries/${lib.id}`} className="btn btn-primary">
              {t('See the library entries')}
            </Link>
          )}
          {located && (
            <Link to={`/map?show=${lib.id}`} className="btn">
              {t('Show on the map')}
            </Link>
          )}
        </p>
      )}
      {lib.catalog_is_accessible && <SubscribeLinks query={`library:${lib.id}`} title={lib.name} className="mt-3" />}

      <dl className="mt-4 divide-y divide-stone-200 rounded-lg border border-stone-300 bg-white px-4">
        {safeHttpUrl(lib.url) && (
          <Field label={t('Website')}>
            <LibrarySiteLink url={lib.url} />
          </Field>
        )}
        {year && <Field label={t('Year established')}>{year}</Field>}
        {lib.languages && <Field label={t('Languages')}>{languageList(lib.languages, i18n.language)}</Field>}
        {lib.description && (
          <Field label={t('Description')}>
            <span className="whitespace-pre-line">{lib.description}</span>
          </Field>
        )}
        {lib.opening_hours && (
          <Field label={t('Opening Hours')}>
            <span className="whitespace-pre-line">{lib.opening_hours}</span>
          </Field>
        )}
        {email && (
          <Field label={t('Email')}>
            <a href={`mailto:${email}`} className="link font-mono break-all">
              {email}
            </a>
          </Field>
        )}
        {address.length > 0 && (
          <Field label={t('Address')}>
            <address className="not-italic">
              {address.map((line, i) => (
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          </Field>
        )}
        {key && (
          <Field label={t('PGP Public Key')}>
            <pre
              id={keyId}
              ref={keyRef}
              tabIndex={0}
              aria-label={t('PGP Public Key')}
              className="max-h-80 overflow-auto rounded border border-stone-300 bg-stone-50 p-3 font-mono text-xs whitespace-pre"
            >
              {key}
            </pre>
            <p className="mt-2">
              <CopyButton text={key} label={t('Copy the key')} fallbackTarget={() => keyRef.current} />
            </p>
          </Field>
        )}
      </dl>

      {hasCoordinates(lib) && (
        <section aria-labelledby={mapHeadingId} className="mt-6">
          <h2 id={mapHeadingId} className="text-xl font-semibold">
            {t('On the map')}
          </h2>
          <div className="mt-2">
            <Suspense fallback={<div className={`${SMALL_MAP} w-full rounded-lg border border-stone-300 bg-[#c9dde9]`} />}>
              <LibraryMap
                libraries={[lib]}
                tiles={tiles}
                label={t('Location of {{name}}', { name: lib.name })}
                onBounds={noBounds}
                focus={null}
                sizeClass={SMALL_MAP}
                singleZoom={tiles ? 14 : 5}
              />
            </Suspense>
          </div>
        </section>
      )}
    </div>
  );
}
