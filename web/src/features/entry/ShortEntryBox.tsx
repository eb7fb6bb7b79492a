import { Link } from 'react-router';
import { shortEntryText, type ShortEntry } from '../../lib/shared';
import { LanguageTags } from '../../components/LanguageTags';

/** 'Part of:' / 'Contains:' box: one link (the title) and plain text, no nested links. */
export function ShortEntryBox({ entry }: { entry: ShortEntry }) {
  const { title, subtitle } = shortEntryText(entry);
  return (
    <article className="rounded border border-stone-300 bg-white p-3 font-serif">
      {entry.authors.length > 0 && (
        <p className="text-sm text-stone-700">{entry.authors.map((a) => a.value).join(', ')}</p>
      )}
      <h3 className="font-semibold">
        <Link to={`/entry/${entry.entry_id}`} className="link">
          {title}
        </Link>{' '}
        <LanguageTags languages={entry.languages} />
      </h3>
      {subtitle && <p className="italic">{subtitle}</p>}
    </article>
  );
}
