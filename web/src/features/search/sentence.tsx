import { Fragment, type ReactNode } from 'react';

/** Placeholder value given to t() where a link goes: translations place it where their grammar wants it. */
export const MARK = '\u2060§\u2060';

/** A translated sentence with `node` (a link) in place of MARK. */
export function sentence(text: string, node: ReactNode): ReactNode {
  const parts = text.split(MARK);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && node}
    </Fragment>
  ));
}
