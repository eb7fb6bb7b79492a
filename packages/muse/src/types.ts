// The typed document tree produced by parseMuse and consumed by the renderers.

export type StyleName = 'em' | 'strong' | 'strike' | 'del' | 'sup' | 'sub' | 'sf' | 'sc';

export type Inline =
  | { type: 'text'; value: string }
  | { type: 'style'; style: StyleName; children: Inline[] }
  | { type: 'code'; value: string }
  | { type: 'lang'; lang: string; children: Inline[] }
  | { type: 'dir'; dir: 'rtl' | 'ltr'; children: Inline[] }
  | { type: 'ruby'; base: string; annotation: string }
  | { type: 'link'; target: string; internal: boolean; children: Inline[] | null }
  | { type: 'image'; image: ImageSpec }
  | { type: 'fnref'; secondary: boolean; n: number }
  | { type: 'br' };

export interface ImageSpec {
  src: string;
  /** Percent of the text width, when given (l/r floats default to 50). */
  width?: number;
  float?: 'l' | 'r' | 'f';
  rotate?: 90 | 180 | 270;
  caption: Inline[] | null;
}

export type ListStyle = '1' | 'a' | 'A' | 'i' | 'I';

export interface ListItem {
  /** Description-list term (dt); absent for ul/ol items. */
  term?: Inline[];
  children: Block[];
}

export type Align = 'left' | 'center' | 'right' | 'justify';

export interface TableCell {
  children: Inline[];
}

export type Block =
  | { type: 'paragraph'; anchors: string[]; children: Inline[] }
  | {
      type: 'heading';
      /** 1 = part … 5 = subsubsection */
      level: 1 | 2 | 3 | 4 | 5;
      anchors: string[];
      children: Inline[];
      /** Short form for the table of contents, when it differs from the printed title. */
      tocChildren: Inline[] | null;
    }
  | { type: 'container'; kind: 'quote' | 'center' | 'right' | 'biblio' | 'play'; children: Block[] }
  | { type: 'direction'; dir: 'rtl' | 'ltr'; children: Block[] }
  | { type: 'language'; lang: string; children: Block[] }
  | { type: 'verse'; anchors: string[]; lines: (Inline[] | null)[] }
  | { type: 'example'; anchors: string[]; text: string }
  | { type: 'comment'; text: string; inline: boolean }
  | { type: 'list'; kind: 'ul' | 'ol' | 'dl'; style?: ListStyle; start?: number; items: ListItem[] }
  | {
      type: 'table';
      anchors: string[];
      caption: Inline[] | null;
      head: TableCell[][];
      body: TableCell[][];
      foot: TableCell[][];
      /** Present for GitHub-style tables with a spec row. */
      aligns: Align[] | null;
      widths: (number | null)[] | null;
    }
  | { type: 'rule' }
  /** The page-break line's stars as written (`* * * * *`, `*****`), printed centered in HTML. */
  | { type: 'pagebreak'; text?: string }
  | { type: 'anchors'; names: string[] };

export interface Footnote {
  n: number;
  secondary: boolean;
  anchors: string[];
  /** Paragraphs of the note. */
  paragraphs: Inline[][];
}

export interface MuseDocument {
  header: Record<string, string>;
  body: Block[];
  footnotes: Map<number, Footnote>;
  secondaryFootnotes: Map<number, Footnote>;
  /** Main language code (from #lang / #language), lowercased; '' when unset. */
  lang: string;
  /** Files referenced as images, in order of first use. */
  attachments: string[];
}
