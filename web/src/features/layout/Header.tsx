import { useId } from 'react';
import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES, type UiLanguage } from '../../lib/shared';
import { useGeneral } from '../../api/hooks';
import { LANGUAGE_NAMES, changeLanguage, isUiLanguage } from '../../i18n';
import { BookBuilderLink } from '../bookbuilder/BookBuilderLink';
import { UserArea } from '../account/UserArea';

export function LanguageSelector() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = (isUiLanguage(i18n.language) ? i18n.language : 'en') as UiLanguage;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm">
        {t('UI language')}
      </label>
      <select
        id={id}
        value={current}
        onChange={(e) => {
          const v = e.target.value;
          if (isUiLanguage(v) && v !== current) changeLanguage(v);
        }}
        className="rounded border border-stone-500 bg-white px-2 py-1 text-sm text-stone-900"
      >
        {UI_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-3 py-1.5 hover:bg-amber-50 ${isActive ? 'font-semibold underline underline-offset-4' : ''}`;

export function Header() {
  const { t } = useTranslation();
  const { data: general } = useGeneral();
  const siteName = general?.site_name || t('Home');
  return (
    <header className="border-b border-stone-300 bg-white">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="flex items-center gap-3 text-xl font-semibold text-stone-900">
          {general?.site_logo ? (
            <img src={general.site_logo} alt={siteName} className="h-10 w-auto max-w-64" />
          ) : (
            <span>{siteName}</span>
          )}
        </Link>
        <nav aria-label={t('Main navigation')}>
          <ul className="flex flex-wrap items-center gap-1">
            <li>
              <NavLink to="/map" className={navClass}>
                {t('Map')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/search" className={navClass}>
                {t('Search')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/library" className={navClass}>
                {t('Libraries')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/agent" className={navClass}>
                {t('Authors')}
              </NavLink>
            </li>
            <BookBuilderLink className={navClass} />
          </ul>
        </nav>
        <LanguageSelector />
        <UserArea />
      </div>
    </header>
  );
}
