// Cover builder benchmark, through the HTTP API the form uses (server/src/covers/): a session with an
// uploaded 8-megapixel JPEG (timed once: checked, stored, and a small copy made for previews), then previews (POST /bookcover preview: values → Typst → SVG in the build
// thread) with a different title each time, then builds (build → job → PDF, timed until check_job says
// finished, polled every 5 ms). Prints one JSON line with median and p95 in milliseconds.
// Budgets (issue 11): a preview under 300 ms, a build under 1 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as mupdf from 'mupdf';
import { loadConfig } from '../server/src/config.ts';
import { buildApp, createJobWorker, createServices } from '../server/src/app.ts';
import { CSRF_HEADERS, multipartBody } from '../server/src/test/fixture.ts';

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const round = (x: number) => Math.round(x * 10) / 10;

/** A photo-like JPEG (gradients, so it does not compress to nothing). */
function photo(width: number, height: number): Uint8Array {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  const px = pix.getPixels();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      px[i] = (x * 7 + y) & 255;
      px[i + 1] = (y * 5 + ((x * y) >> 6)) & 255;
      px[i + 2] = ((x ^ y) * 3) & 255;
    }
  }
  try {
    return pix.asJPEG(85);
  } finally {
    pix.destroy();
  }
}

async function main() {
  const previews = Math.max(5, Number(process.env.COVER_BENCH_PREVIEWS ?? 40));
  const builds = Math.max(3, Number(process.env.COVER_BENCH_BUILDS ?? 12));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uc-bench-cover-'));
  const config = { ...loadConfig({}), dataDir: path.join(dir, 'data'), logLevel: 'silent', webDist: path.join(dir, 'no-web') };
  const services = await createServices(config);
  const app = await buildApp(config, services);
  const worker = createJobWorker({ jobConcurrency: 1, bookBuildConcurrency: 1 }, services);
  worker.start();
  try {
    const post = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url: `/collector/api${url}`, payload, headers: CSRF_HEADERS });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const { session_id } = await post('/bookcover', { action: 'get_tokens' });
    const jpeg = photo(2400, 3400);
    const { payload, contentType } = multipartBody({ session_id }, { field: 'image_file', name: 'photo.jpg', content: jpeg });
    const u0 = performance.now();
    const up = await app.inject({ method: 'POST', url: '/collector/api/bookcover/upload', headers: { ...CSRF_HEADERS, 'content-type': contentType }, payload });
    if (up.statusCode !== 200) throw new Error(`upload: ${up.body}`);
    const uploadMs = performance.now() - u0;
    const args = (i: number) => ({
      session_id, spinewidth: 14, flapwidth: 0, author_muse_str: 'Bench Writer', title_muse_str: `A Cover Numbered ${i}`,
      subtitle_muse_str: 'Measured, not guessed', image_file: 'image_file.jpg', front_footer_muse_str: 'Union Catalogue Press',
      back_text_muse_body: Array.from({ length: 6 }, (_, k) => `Paragraph ${k + 1} of the back text, with *emphasis* and **strong** words, run ${i}.`).join('\n\n'),
      isbn_isbn: '978-0-306-40615-7',
    });

    const previewMs: number[] = [];
    let svgBytes = 0;
    for (let i = 0; i < previews + 2; i++) {
      const t0 = performance.now();
      const r = await post('/bookcover', { action: 'preview', args: args(i) });
      const ms = performance.now() - t0;
      if (i >= 2) previewMs.push(ms); // the first two start the thread and load the fonts
      svgBytes = r.svg.length;
    }

    const buildMs: number[] = [];
    let pdfBytes = 0;
    for (let i = 0; i < builds + 1; i++) {
      const t0 = performance.now();
      const { job_id } = await post('/bookcover', { action: 'build', args: args(1000 + i) });
      for (;;) {
        const s = await post('/bookbuilder', { action: 'check_job', session_id, check_job_id: job_id });
        if (s.status === 'finished') break;
        if (s.status === 'failed' || s.status === 'not found') throw new Error(`build ${s.status}: ${s.error}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const ms = performance.now() - t0;
      if (i >= 1) buildMs.push(ms);
      pdfBytes = (await app.inject(`/collector/api/bookbuilder/${session_id}`)).rawPayload.length;
    }
    console.log(JSON.stringify({
      bench: 'cover',
      image: '2400x3400 JPEG',
      image_bytes: jpeg.length,
      upload_ms: round(uploadMs),
      previews: previewMs.length,
      preview_ms: { median: round(quantile(previewMs, 0.5)), p95: round(quantile(previewMs, 0.95)) },
      preview_svg_bytes: svgBytes,
      builds: buildMs.length,
      build_ms: { median: round(quantile(buildMs, 0.5)), p95: round(quantile(buildMs, 0.95)) },
      pdf_bytes: pdfBytes,
      budget: { preview_ms: 300, build_ms: 1000 },
    }));
  } finally {
    await worker.stop();
    await app.close();
    await services.buildRunner.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
