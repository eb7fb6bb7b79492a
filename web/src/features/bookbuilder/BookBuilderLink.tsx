// The header link to the Book Builder, always shown so readers find it before adding a text (issue 32
// point 13; the spec's header shows it only with a session), with the count of texts once there are any.
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBookBuilder } from './store';

export function BookBuilderLink({ className }: { className: (p: { isActive: boolean }) => string }) {
  const { t } = useTranslation();
  const count = useBookBuilder((s) => s.text_list.length);
  return (
    <li>
      <NavLink to="/bookbuilder" className={(p) => `${className(p)} whitespace-nowrap`}>
        {t('Book Builder')}
        {count > 0 && (
          <span className="ml-1.5 rounded-full bg-amber-900 px-1.5 text-xs text-white" aria-label={t('Texts in the Book Builder: {{count}}', { count })}>
            {count}
          </span>
        )}
      </NavLink>
    </li>
  );
}
