import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIBRARY_TYPE_LABELS } from '../features/search/labels';

const ICONS: Record<string, string> = { digital: '⌨', physical: '⌂', closed: '⊘' };
const STYLES: Record<string, string> = {
  digital: 'border-sky-800 text-sky-900',
  physical: 'border-emerald-800 text-emerald-900',
  closed: 'border-stone-600 text-stone-700',
};

/** A library badge: name plus its type as an icon and (screen-reader and tooltip) text. */
export function LibraryBadge({ to, name, type }: { to: string; name: string; type: string }) {
  const { t } = useTranslation();
  const typeLabel = t(LIBRARY_TYPE_LABELS[type] ?? 'Library');
  return (
    <Link
      to={to}
      title={typeLabel}
      className={`inline-flex items-center gap-1 rounded border bg-white px-2 py-0.5 text-xs hover:underline ${STYLES[type] ?? STYLES.closed}`}
    >
      <span aria-hidden="true">{ICONS[type] ?? '•'}</span>
      <span>{name}</span>
      <span className="sr-only">({typeLabel})</span>
    </Link>
  );
}
