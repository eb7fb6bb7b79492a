import { useTranslation } from 'react-i18next';
import { useWikidata } from '../../api/hooks';
import type { WikidataStatement } from '../../api/types';
import { isLinkValue, wikidataItemUrl } from './linkedData';

/**
 * One value: a link only when it is http(s) without spaces (the server's `links` entry when given,
 * else the value itself); everything else is text.
 */
function Value({ value, link }: { value: string; link?: string | null }) {
  const href = link !== undefined ? link : value;
  if (isLinkValue(href)) {
    return (
      <a href={href} className="link break-all" target="_blank" rel="noopener noreferrer">
        {value}
      </a>
    );
  }
  return <span className="break-words">{value}</span>;
}

function Statement({ s }: { s: WikidataStatement }) {
  const values = s.values ?? [];
  return (
    <div className="py-1.5 sm:grid sm:grid-cols-[minmax(8rem,12rem)_minmax(0,1fr)] sm:gap-3">
      <dt className="font-medium text-stone-800">{s.name || s.property}</dt>
      <dd>
        {values.length === 1 ? (
          <Value value={values[0]} link={s.links?.[0]} />
        ) : (
          <ul>
            {values.map((v, i) => (
              <li key={i}>
                <Value value={v} link={s.links?.[i]} />
              </li>
            ))}
          </ul>
        )}
      </dd>
    </div>
  );
}

/** The linked-data panel of an author: loaded when first shown, in the interface language. */
export function LinkedData({ agentId, wikidataId, language, id }: { agentId: number; wikidataId: string | null; language: string; id: string }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useWikidata(agentId, language, true);
  const failure = error ? error.message : data?.error;
  const source = wikidataItemUrl(wikidataId);
  return (
    <div id={id} className="mt-3 rounded border border-stone-200 bg-stone-50 p-3 text-sm">
      {isPending ? (
        <p role="status">{t('Loading...')}</p>
      ) : failure ? (
        <div role="alert">
          <p className="text-red-800">{t('The linked data could not be loaded.')}</p>
          <p className="text-stone-800">{failure}</p>
        </div>
      ) : (
        <>
          {data?.name && (
            <h3 className="text-base font-semibold">
              {isLinkValue(data.link) ? (
                <a href={data.link} className="link" target="_blank" rel="noopener noreferrer">
                  {data.name}
                </a>
              ) : (
                data.name
              )}
            </h3>
          )}
          {data?.desc && <p className="text-stone-800">{data.desc}</p>}
          {data?.statements && data.statements.length > 0 ? (
            <dl className="mt-2 divide-y divide-stone-200">
              {data.statements.map((s, i) => (
                <Statement key={`${s.property}-${i}`} s={s} />
              ))}
            </dl>
          ) : (
            <p className="mt-2">{t('No linked data for this author.')}</p>
          )}
          {source && (
            <p className="mt-2 text-xs">
              {t('Source:')}{' '}
              <a href={source} className="link" target="_blank" rel="noopener noreferrer">
                Wikidata
              </a>
            </p>
          )}
        </>
      )}
    </div>
  );
}
