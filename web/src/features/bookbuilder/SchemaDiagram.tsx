// Imposition pictures drawn by the app: the sheet sides of a small example book, computed with the
// imposition package's own page order (so the picture is what the server will do), in SVG with a text
// alternative per side.
import { useTranslation } from 'react-i18next';
import { pageOrder, type PageOrder } from '../../../../packages/imposition/src/order.ts';
import type { ImpositionSchema } from '../../../../packages/imposition/src/schemas.ts';

/** A small book that shows the schema's pattern: one signature or block, two for the single-page schema. */
export function exampleFor(schema: ImpositionSchema): { pages: number; signature?: number } {
  switch (schema) {
    case '2up':
    case 'duplex2up':
    case '2down':
      return { pages: 8, signature: 8 };
    case '4up':
      return { pages: 16, signature: 16 };
    case '2side':
      return { pages: 8 };
    case '1x1':
      return { pages: 2 };
    case '2x4x1':
    case '1x4x2cutfoldbind':
      return { pages: 8 };
    default:
      return { pages: 16 };
  }
}

export function exampleOrder(schema: ImpositionSchema): PageOrder {
  const ex = exampleFor(schema);
  return pageOrder(ex.pages, { schema, signature: ex.signature });
}

const CELL = { w: 34, h: 48 };

function Side({ order, index }: { order: PageOrder; index: number }) {
  const { t } = useTranslation();
  const side = order.sides[index];
  const { rows, cols } = order.grid;
  const cw = order.sideways ? CELL.h : CELL.w;
  const ch = order.sideways ? CELL.w : CELL.h;
  const sheet = Math.floor(index / 2) + 1;
  const label = index % 2 === 0 ? t('Sheet {{n}}, front', { n: sheet }) : t('Sheet {{n}}, back', { n: sheet });
  const pages = side.slots.map((p) => (p === null ? t('blank') : String(p))).join(', ');
  const W = cols * cw;
  const H = rows * ch;
  return (
    <figure className="flex flex-col items-center gap-1">
      <svg viewBox={`-1 -1 ${W + 2} ${H + 2}`} width={W * 1.6} height={H * 1.6} role="img" aria-label={`${label}: ${pages}`} className="max-w-full">
        <rect x={0} y={0} width={W} height={H} fill="white" stroke="#44403c" strokeWidth={1} />
        {side.slots.map((p, i) => {
          const r = Math.floor(i / cols);
          const c = i % cols;
          const x = c * cw;
          const y = r * ch;
          const rot = side.rotations[i] ?? 0;
          return (
            <g key={i}>
              <rect x={x} y={y} width={cw} height={ch} fill={p === null ? '#f5f5f4' : 'white'} stroke="#78716c" strokeWidth={0.6} strokeDasharray={p === null ? '2 2' : undefined} />
              {p !== null && (
                <text
                  x={x + cw / 2}
                  y={y + ch / 2}
                  fontSize={14}
                  fontFamily="sans-serif"
                  textAnchor="middle"
                  dominantBaseline="central"
                  fill="#1c1917"
                  transform={rot ? `rotate(${-rot} ${x + cw / 2} ${y + ch / 2})` : undefined}
                >
                  {p}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="text-xs text-stone-700">{label}</figcaption>
    </figure>
  );
}

/** The first sheets (front and back) of the book as last built, with its real page numbers. */
export function BookSheets({ order, pages }: { order: PageOrder; pages: number }) {
  const { t } = useTranslation();
  return (
    <div>
      <p className="text-sm text-stone-700">{t('The first sheets of this book ({{pages}} pages, as last built):', { pages })}</p>
      <div className="mt-2 flex flex-wrap gap-4">
        {order.sides.slice(0, 4).map((_, i) => (
          <Side key={i} order={order} index={i} />
        ))}
      </div>
    </div>
  );
}

export function SchemaDiagram({ schema }: { schema: ImpositionSchema }) {
  const { t } = useTranslation();
  const order = exampleOrder(schema);
  const ex = exampleFor(schema);
  const shown = order.sides.slice(0, 4);
  return (
    <div>
      <p className="text-sm text-stone-700">{t('Example: a book of {{pages}} pages.', { pages: ex.pages })}</p>
      <div className="mt-2 flex flex-wrap gap-4">
        {shown.map((_, i) => (
          <Side key={i} order={order} index={i} />
        ))}
      </div>
    </div>
  );
}
