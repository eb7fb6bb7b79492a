// Compiles the server ahead of time into one ES module, server/dist/main.js, so a production start does
// not transform TypeScript through tsx (1.5-2 s of a restart, issue 28). Packages from node_modules stay
// external (native modules, files beside them); the workspace packages (@uc/*) are bundled.
// Source files find files beside them (messages, the cover template, worker-thread entries) through
// import.meta.url: each file's own is rewritten to point back at its source file, so those keep
// resolving in server/src (worker threads still start through tsx; they are not on a search's path).
//   node scripts/build-server.mjs            (run by `npm run build`)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'server', 'src', 'main.ts');
const outfile = path.join(root, 'server', 'dist', 'main.js');

/** A source file's import.meta.url as seen from the bundle (relative, so the tree may move). */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@uc/') ? undefined : { external: true }));
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      let contents = await fs.promises.readFile(args.path, 'utf8');
      // main.ts compares its own URL with the started file's, so it keeps the bundle's.
      if (args.path !== entry && contents.includes('import.meta.url')) {
        const rel = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
        contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
      }
      return { contents, loader: 'ts' };
    });
  },
};

await esbuild.build({
  entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20',
  sourcemap: true, logLevel: 'warning', plugins: [ownUrl],
});
