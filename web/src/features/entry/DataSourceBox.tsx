import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { DOWNLOAD_FORMAT_LABELS, type DataSource, type Download } from '../../lib/shared';
import { downloadUrl } from '../../api/client';
import { FullText } from './FullText';
import { CiteMenu } from './CiteMenu';
import { linkLabel } from './linkLabels';
import { AddToBookBuilder } from '../bookbuilder/AddToBookBuilder';
import { ReportError, useCanReportError } from '../account/ReportError';

type View = 'none' | 'text' | 'pdf';

export function safeHref(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\/\S+$/i.test(url.trim()) ? url.trim() : undefined;
}

function Row({ label, children, mono }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <tr className="border-t border-stone-200">
      <th scope="row" className="w-px py-1 pr-4 text-left align-top font-medium whitespace-nowrap">
        {label}
      </th>
      <td className={`py-1 break-words ${mono ? 'font-mono' : ''}`}>{children}</td>
    </tr>
  );
}

/** A download's label in the interface language: known formats by their code, others as the server names them. */
export function downloadLabel(t: TFunction, d: Download): string {
  const source = DOWNLOAD_FORMAT_LABELS[d.code.toLowerCase()];
  return source ? t(source) : d.desc || d.ext.replace(/^\./, '').toUpperCase();
}

/** A copy's downloads as buttons (nothing without any): the entry page's box and the text's own page. */
export function DownloadList({ ds }: { ds: Pick<DataSource, 'data_source_id' | 'downloads'> }) {
  const { t } = useTranslation();
  if (ds.downloads.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap gap-2" aria-label={t('Downloads')}>
      {ds.downloads.map((d) => (
        <li key={d.ext + d.code}>
          <a href={downloadUrl(ds.data_source_id, d.ext)} className="btn text-sm" download>
            <span aria-hidden="true">⤓ </span>
            {downloadLabel(t, d)}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The address of an entry's text page (/entry/{id}/text); `dataSourceId` names the copy (default: the first with a text). */
export function entryTextHref(entryId: number | string, dataSourceId?: number): string {
  return `/entry/${entryId}/text${dataSourceId === undefined ? '' : `?data_source=${dataSourceId}`}`;
}

/** One holding of the entry: library header, metadata table, downloads, full text and PDF reader. */
/** `citeEntryId`: offer "Cite this copy" (an entry with several copies: editions differ); `entryId`: link the text's own page. */
export function DataSourceBox({ ds, anchorId, highlight, citeEntryId, entryId }: { ds: DataSource; anchorId?: string; highlight?: Set<string>; citeEntryId?: number; entryId?: number }) {
  const { t } = useTranslation();
  // Opened from a search snippet: the full text shows at once, the matched words marked.
  const [view, setView] = useState<View>(highlight && ds.has_full_text ? 'text' : 'none');
  const [textRequested, setTextRequested] = useState(Boolean(highlight && ds.has_full_text));
  const uid = useId();
  const textId = `${uid}-text`;
  const pdfId = `${uid}-pdf`;

  const year = ds.year_edition != null ? String(ds.year_edition) : '';
  const placeDate = ds.place_date_of_publication_distribution?.trim();
  const uri = safeHref(ds.uri);
  const opac = safeHref(ds.koha_url);
  const pdf = ds.downloads.find((d) => d.ext.replace(/^\./, '').toLowerCase() === 'pdf');
  const canReport = useCanReportError(ds);

  const toggle = (v: Exclude<View, 'none'>) => {
    if (v === 'text') setTextRequested(true);
    setView((cur) => (cur === v ? 'none' : v));
  };

  return (
    <article
      id={anchorId}
      aria-labelledby={`${uid}-lib`}
      className="scroll-mt-4 overflow-hidden rounded border border-stone-300 bg-white"
    >
      <h2 id={`${uid}-lib`} className="bg-amber-900 px-4 py-2 font-semibold text-white">
        <Link to={`/library/details/${ds.library_id}`} className="text-white underline underline-offset-2 hover:decoration-2">
          {ds.library_name}
        </Link>
        {ds.library_type === 'closed' && (
          // A closed library's copy cannot be visited or borrowed: said on the card, in words.
          <span className="ml-2 inline-block rounded bg-white px-1.5 py-0.5 align-middle text-xs font-medium text-amber-950">
            {t('Closed library')}
          </span>
        )}
      </h2>
      <div className="p-4">
        {ds.authors.length > 0 && (
          <ul className="mb-1 flex flex-wrap gap-1 text-sm" aria-label={t('Authors')}>
            {ds.authors.map((a, i) => (
              <li key={i} className="rounded bg-stone-100 px-2 py-0.5">
                {a}
              </li>
            ))}
          </ul>
        )}
        <h3 className="font-serif text-lg">
          <span className="font-semibold">{ds.title}</span>
          {year && <strong className="ml-2">{year}</strong>}
          {ds.languages.map((l) => (
            <span key={l} className="ml-2 rounded border border-teal-800 px-1.5 py-0.5 align-middle font-sans text-xs text-teal-900">
              {l}
            </span>
          ))}
        </h3>
        {ds.subtitle && <p className="font-serif italic">{ds.subtitle}</p>}
        {ds.description && <p className="mt-2 whitespace-pre-line">{ds.description}</p>}

        <table className="mt-3 w-full text-sm">
          <tbody>
            {ds.shelf_location_code && (
              <Row label={t('Shelf Location Code')} mono>
                {ds.shelf_location_code}
              </Row>
            )}
            {ds.material_description && <Row label={t('Material Description')}>{ds.material_description}</Row>}
            {ds.isbn && (
              <Row label={t('ISBN')} mono>
                {ds.isbn}
              </Row>
            )}
            {ds.publisher && <Row label={t('Publisher')}>{ds.publisher}</Row>}
            {ds.edition_statement && <Row label={t('Edition')}>{ds.edition_statement}</Row>}
            {placeDate && placeDate !== year && <Row label={t('Edition Place and Date')}>{placeDate}</Row>}
            {uri && (
              <Row label={linkLabel(t, ds.uri_label)}>
                <a href={uri} className="link break-all" rel="noopener noreferrer">
                  {uri}
                </a>
              </Row>
            )}
            {opac && (
              <Row label={t('OPAC page')}>
                <a href={opac} className="link break-all" rel="noopener noreferrer">
                  {opac}
                </a>
              </Row>
            )}
          </tbody>
        </table>

        <DownloadList ds={ds} />

        {(ds.has_full_text || (ds.has_pdf && pdf) || ds.can_add_to_bookbuilder || canReport || citeEntryId !== undefined) && (
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            {ds.has_full_text && (
              <button
                type="button"
                className="btn btn-primary"
                aria-expanded={view === 'text'}
                aria-controls={textId}
                onClick={() => toggle('text')}
              >
                {t('Full text')}
              </button>
            )}
            {ds.has_full_text && entryId !== undefined && (
              <Link to={entryTextHref(entryId, ds.data_source_id)} className="btn">
                {t('Open the text on its own page')}
              </Link>
            )}
            {ds.has_pdf && pdf && (
              <button
                type="button"
                className="btn btn-primary"
                aria-expanded={view === 'pdf'}
                aria-controls={pdfId}
                onClick={() => toggle('pdf')}
              >
                {t('View PDF')}
              </button>
            )}
            {ds.can_add_to_bookbuilder && <AddToBookBuilder dataSourceId={ds.data_source_id} />}
            {canReport && <ReportError ds={ds} />}
            {citeEntryId !== undefined && <CiteMenu entryId={citeEntryId} dataSourceId={ds.data_source_id} label={t('Cite this copy')} />}
          </div>
        )}

        {textRequested && <FullText dataSourceId={ds.data_source_id} id={textId} hidden={view !== 'text'} highlight={highlight} />}
        {view === 'pdf' && pdf && (
          <div id={pdfId} className="mt-4">
            <iframe
              src={downloadUrl(ds.data_source_id, pdf.ext, true)}
              title={t('PDF: {{title}}', { title: ds.title })}
              className="h-[80vh] w-full rounded border border-stone-300"
            />
          </div>
        )}

        {ds.identifier && <p className="mt-3 font-mono text-xs break-all text-stone-600">{ds.identifier}</p>}
      </div>
    </article>
  );
}
