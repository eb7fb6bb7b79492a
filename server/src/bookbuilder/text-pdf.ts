// A single text's PDF for the downloads (beside its Muse source and zip): the Book Builder's own build of
// one text with the default options, run in its worker threads so the event loop stays free.
import { defaultCollectionData } from '@uc/shared';
import { CONTENT_TYPES } from '../catalogue/files.ts';
import type { Deriver } from '../catalogue/derived-files.ts';
import type { BuildRunner } from './runner.ts';

export function textPdfDeriver(runner: Pick<BuildRunner, 'run'>): Deriver {
  return {
    ext: '.pdf',
    contentType: CONTENT_TYPES['.pdf'],
    from: '.muse',
    alsoReads: ['.zip'],
    async build({ sources, outPath, signal }) {
      await runner.run({ texts: [{ musePath: sources['.muse']!, zipPath: sources['.zip'] ?? null }], data: defaultCollectionData(), outPath }, signal);
    },
  };
}
