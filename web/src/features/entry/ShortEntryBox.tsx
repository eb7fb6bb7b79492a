import { Link } from 'react-router';
import type { ShortEntry } from '../../lib/shared';
import { LanguageTags } from '../../components/LanguageTags';

/** 'Part of:' / 'Contains:' box: one link (the title) and plain text, no nested links. */
export function ShortEntryBox({ entry }: { entry: ShortEntry }) {
  return (
    <article className="rounded border border-stone-300 bg-white p-3 font-serif">
      {entry.authors.length > 0 && (
        <p className="text-sm text-stone-700">{entry.authors.map((a) => a.value).join(', ')}</p>
      )}
      <h3 className="font-semibold">
        <Link to={`/entry/${entry.entry_id}`} className="link">
          {entry.title}
        </Link>{' '}
        <LanguageTags languages={entry.languages} />
      </h3>
      {entry.subtitle && <p className="italic">{entry.subtitle}</p>}
    </article>
  );
}
