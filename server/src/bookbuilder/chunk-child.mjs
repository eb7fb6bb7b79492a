// One chunk of a large book (chunked.ts), in a child process of its own: the memory Typst takes for a
// layout is not given back to the system while the process lives, so each chunk's process ends with it.
// Plain JavaScript on the compiler alone (no TypeScript loader: it would double the start-up time);
// the parent sends the source and the compiler's setup (compilerSetup in packages/muse/src/pdf.ts).
// Answers { ok, pdf, pages, probe, maxRssKb, cpuSeconds } or { ok: false, error, diagnostics, maxRssKb, cpuSeconds }, then exits.
import { createRequire } from 'node:module';

function compile({ source, setup }) {
  const { NodeCompiler } = createRequire(import.meta.url)(setup.compilerModule);
  const c = NodeCompiler.create({ workspace: setup.workspace, fontArgs: [{ fontPaths: setup.fontPaths }] });
  for (const [p, data] of setup.shadows) c.mapShadow(p, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  const res = c.compile({ mainFileContent: source });
  const doc = res.result;
  if (!doc || res.hasError()) {
    const diag = (res.takeDiagnostics() ?? res.takeError())?.shortDiagnostics ?? [];
    const first = diag.map((d) => d?.message).filter(Boolean).slice(0, 2).join('; ');
    return { ok: false, error: 'Typst compilation failed', diagnostics: first };
  }
  // the probe of chunks.ts: where the chunk ends, its counters, headings and anchors
  const probe = c.query(doc, { selector: '<muse-probe>', field: 'value' })[0];
  const pdf = c.pdf(doc);
  return { ok: true, pdf: new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength), pages: doc.numOfPages, probe };
}

// a parent gone (its build thread ended) leaves nothing to do
process.once('disconnect', () => process.exit(0));
process.once('message', (msg) => {
  let reply;
  try {
    reply = compile(msg);
  } catch (e) {
    reply = { ok: false, error: e instanceof Error ? e.message : String(e), diagnostics: '' };
  }
  const ru = process.resourceUsage();
  reply.maxRssKb = ru.maxRSS;
  reply.cpuSeconds = (ru.userCPUTime + ru.systemCPUTime) / 1e6;
  process.send(reply, () => process.exit(0));
});
