// The evaluate step of a search: the query AST to a membership array over entry ids. Text subtrees go
// to the full-text index in one statement each (rank.ts, which adds their scores); filters, NOT, and the
// AND and OR of those are combined here in memory.
import type { FilterName } from '@uc/shared';
import { isPureText } from './fts.ts';
import type { QueryNode } from './parser.ts';

export interface EvaluateStep {
  /** Entry ids run below this. */
  capacity: number;
  /** The entries matching a pure text subtree (`isPureText`), adding their scores when given. */
  text(node: QueryNode, scores: Float64Array | null): Uint8Array;
  /** Marks the entries having a filter's value (nothing for a value the viewer may not name). */
  filter(name: FilterName, value: string, bits: Uint8Array): void;
}

/** Evaluates the AST to a membership array over entry ids, adding text scores (higher = better). */
export function evaluateQuery(node: QueryNode, scores: Float64Array | null, step: EvaluateStep): Uint8Array {
  const cap = step.capacity;
  if (isPureText(node)) return step.text(node, scores);
  switch (node.type) {
    case 'filter': {
      const bits = new Uint8Array(cap);
      step.filter(node.name, node.value, bits);
      return bits;
    }
    case 'empty':
      return new Uint8Array(cap);
    case 'not': {
      const inner = evaluateQuery(node.child, null, step);
      for (let i = 0; i < cap; i++) inner[i] = inner[i] ? 0 : 1;
      return inner;
    }
    case 'and': {
      // Run the text children as one full-text statement; combine the rest in memory.
      const text = node.children.filter(isPureText);
      const rest = node.children.filter((c) => !isPureText(c));
      const parts = rest.map((c) => evaluateQuery(c, scores, step));
      if (text.length) parts.unshift(step.text(text.length === 1 ? text[0]! : { type: 'and', children: text }, scores));
      const out = parts[0];
      for (let p = 1; p < parts.length; p++) {
        const b = parts[p];
        for (let i = 0; i < cap; i++) out[i] &= b[i];
      }
      return out;
    }
    case 'or': {
      const parts = node.children.map((c) => evaluateQuery(c, scores, step));
      const out = parts[0];
      for (let p = 1; p < parts.length; p++) {
        const b = parts[p];
        for (let i = 0; i < cap; i++) out[i] |= b[i];
      }
      return out;
    }
    default:
      throw new Error('unreachable');
  }
}
