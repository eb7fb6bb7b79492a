import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { PagerItem } from '../../lib/shared';

interface Props {
  items: PagerItem[];
  hrefFor: (page: number) => string;
  onNavigate: () => void;
  label: string;
}

const WORD_LABELS = new Set(['First', 'Previous', 'Next', 'Last']);

/** The server's pager as real links; the current page carries aria-current. */
export function Pager({ items, hrefFor, onNavigate, label }: Props) {
  const { t } = useTranslation();
  if (items.length <= 1) return null;
  return (
    <nav aria-label={label} className="my-3">
      <ul className="flex flex-wrap justify-center gap-1">
        {items.map((item) => {
          const isWord = WORD_LABELS.has(item.label);
          return (
            <li key={item.key}>
              <Link
                to={hrefFor(item.page_id)}
                aria-current={item.current ? 'page' : undefined}
                aria-label={isWord ? undefined : t('Page {{n}}', { n: item.label })}
                onClick={onNavigate}
                className={
                  'inline-block min-w-10 rounded border px-3 py-1.5 text-center ' +
                  (item.current
                    ? 'border-amber-900 bg-amber-900 font-semibold text-white'
                    : 'border-stone-400 bg-white text-stone-900 hover:bg-stone-100')
                }
              >
                {isWord ? t(item.label) : item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
