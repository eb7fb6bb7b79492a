// The header link to the Book Builder, shown when a book session exists (spec §2 Header).
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useBookBuilder } from './store';

export function BookBuilderLink({ className }: { className: (p: { isActive: boolean }) => string }) {
  const { t } = useTranslation();
  const sessionId = useBookBuilder((s) => s.session_id);
  const count = useBookBuilder((s) => s.text_list.length);
  if (!sessionId) return null;
  return (
    <li>
      <NavLink to="/bookbuilder" className={className}>
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
