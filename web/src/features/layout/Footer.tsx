import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFooterPages } from '../../api/hooks';
import { BugReport } from './BugReport';

export function Footer() {
  const { t, i18n } = useTranslation();
  const { data: pages } = useFooterPages(i18n.language || 'en');
  return (
    <footer className="mt-10 border-t border-stone-300 bg-stone-100">
      <div className="mx-auto max-w-screen-2xl px-4 py-6">
        {pages && pages.length > 0 && (
          <nav aria-label={t('Site pages')}>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {pages.map((p) => (
                <li key={p.id}>
                  <Link to={`/page/${p.id}`} className="block rounded p-2 hover:bg-white">
                    <span className="block font-semibold text-amber-900 underline underline-offset-2">{p.title}</span>
                    {p.summary && <span className="mt-1 block text-sm text-stone-800">{p.summary}</span>}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="mt-4 flex flex-wrap justify-center gap-3">
          <BugReport />
          <Link to="/contact" className="btn">
            {t('Contacts')}
          </Link>
        </div>
      </div>
    </footer>
  );
}
