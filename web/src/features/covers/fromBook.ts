// The cover starts from the book in the Book Builder: its title and author (the collection's title page
// for several texts, the text's own for one) and the spine from the last build's pages and the one paper
// thickness of the Book Builder (title and author as Muse that reads back as the plain text: museLiteral). Filled once per book, and only into fields still empty (or a spine the
// app itself filled), so what the user typed stays.
import { useEffect } from 'react';
import { museLiteral, spineWidthMm } from '@uc/shared';
import { useBookBuilder, type BookBuilderState } from '../bookbuilder/store';
import { useCoverStore, type CoverValue } from './store';

/** The book's title and author as the cover should show them. */
export function bookTitleAuthor(s: Pick<BookBuilderState, 'text_list' | 'collection_data'>): { title: string; author: string } {
  if (s.text_list.length > 1) return { title: s.collection_data.title.trim(), author: s.collection_data.author.trim() };
  const text = s.text_list[0];
  if (!text) return { title: '', author: '' };
  return { title: text.attributes.title.trim(), author: text.attributes.authors.join(', ').trim() };
}

/** The Book Builder's spine for its last build (0 without one). */
export function bookSpineMm(s: Pick<BookBuilderState, 'produced' | 'collection_data'>, allowanceMm: number): number {
  const pages = s.produced?.book_pages ?? 0;
  return pages > 0 ? spineWidthMm(pages, s.collection_data.crop_paper_thickness, allowanceMm) : 0;
}

const empty = (v: CoverValue | undefined) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** Fills the cover from the book once the cover's tokens are loaded (`ready`). */
export function useCoverFromBook(ready: boolean) {
  const texts = useBookBuilder((s) => s.text_list.map((x) => x.id).join(','));
  const pages = useBookBuilder((s) => s.produced?.book_pages ?? null);
  const headerTitle = useBookBuilder((s) => s.collection_data.title);
  useEffect(() => {
    if (!ready) return;
    const book = useBookBuilder.getState();
    const cover = useCoverStore.getState();
    if (book.text_list.length === 0) return;
    const key = `${texts}|${headerTitle}|${pages ?? ''}`;
    if (cover.book_key === key) return;
    const has = (name: string) => cover.tokens.some((t) => t.name === name);
    const { title, author } = bookTitleAuthor(book);
    const fill: Record<string, CoverValue> = {};
    if (has('title_muse_str') && title && empty(cover.values.title_muse_str)) fill.title_muse_str = museLiteral(title);
    if (has('author_muse_str') && author && empty(cover.values.author_muse_str)) fill.author_muse_str = museLiteral(author);
    const spine = bookSpineMm(book, cover.allowance_mm);
    const current = Number(cover.values.spinewidth ?? 0);
    const mine = !current || current === cover.auto_spine;
    if (has('spinewidth') && spine > 0 && mine) fill.spinewidth = spine;
    cover.fillFromBook(fill, key, spine > 0 && mine ? spine : cover.auto_spine);
  }, [ready, texts, pages, headerTitle]);
}
