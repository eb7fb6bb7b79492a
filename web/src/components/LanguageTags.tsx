import { useTranslation } from 'react-i18next';
import { languageLabel } from '../lib/intl';

interface Props {
  languages: { id: string; value: string }[];
  /** Marks the tags of a translation or of a translated text (by text and symbol, not colour alone). */
  marker?: 'translation' | 'translated';
}

export function LanguageTags({ languages, marker }: Props) {
  const { t, i18n } = useTranslation();
  if (languages.length === 0) return null;
  const note =
    marker === 'translation'
      ? t('This text is a translation')
      : marker === 'translated'
        ? t('This text is translated')
        : undefined;
  const style =
    marker === 'translation'
      ? 'border-teal-800 bg-teal-800 text-white'
      : marker === 'translated'
        ? 'border-rose-900 bg-rose-900 text-white'
        : 'border-stone-500 text-stone-800';
  return (
    <span className="inline-flex flex-wrap gap-1 align-middle font-sans text-xs font-normal">
      {languages.map((l) => (
        <span key={l.id} title={note} className={`rounded border px-1.5 py-0.5 ${style}`}>
          <abbr title={note ? `${languageLabel(l, i18n.language)} – ${note}` : languageLabel(l, i18n.language)} className="no-underline">
            {l.id}
          </abbr>
          {marker === 'translation' && <span aria-hidden="true"> ⇠</span>}
          {marker === 'translated' && <span aria-hidden="true"> ⇢</span>}
          {note && <span className="sr-only"> ({note})</span>}
        </span>
      ))}
    </span>
  );
}
