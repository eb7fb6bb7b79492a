// Font work off the main thread: the first font list reads every installed font file (about 3 s with
// the CJK fonts), and a specimen is a Typst compile; on the main thread both stalled every request.
import { fontIndex, lettersMissing, useFontIndex, type FontIndex } from '@uc/muse';
import { yieldToRequests } from '../jobs/thread-priority.ts';
import { renderPreview, type PreviewKind } from './fonts.ts';

export type FontTask =
  | { kind: 'index' }
  | { kind: 'preview'; family: string; ext: PreviewKind; file: string; lang?: string }
  /** Which of `letters` each family lacks (the compiler's embedded families are asked by compiling). */
  | { kind: 'missing'; index: FontIndex; letters: string[] };
export type FontTaskAnswer = { index: FontIndex } | { done: true } | { missing: [string, string[]][] } | { error: string };

export async function run(task: FontTask): Promise<FontTaskAnswer> {
  yieldToRequests();
  try {
    if (task.kind === 'index') return { index: fontIndex() };
    if (task.kind === 'missing') {
      useFontIndex(task.index);
      return { missing: task.index.families.map((f) => [f.name, lettersMissing(f.name, task.letters)]) };
    }
    renderPreview(task.family, task.ext, task.file, task.lang);
    return { done: true };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
