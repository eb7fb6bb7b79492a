// The cover builder (spec §2, §7 POST /bookcover): a cover session per visitor (the same session table
// as the Book Builder, kind 'cover'), the template's tokens, image uploads, previews drawn in the build
// thread, and builds as durable jobs polled with the Book Builder's check_job.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageSize } from 'image-size';
import {
  COVER_IMAGE_MAX_BYTES,
  COVER_IMAGE_MAX_DPI,
  COVER_IMAGE_MAX_PIXELS,
  COVER_MIN_DPI,
  coverImageMaxPixels,
  coverLayout,
  placedImageWidthMm,
  printDpi,
  type BookcoverResponse,
  type BookcoverUploadResponse,
  type CoverToken,
} from '@uc/shared';
import { HttpError, notFound } from '../http/errors.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { JobHandler } from '../jobs/worker.ts';
import type { BuildRunner } from '../bookbuilder/runner.ts';
import { BUILD_JOB_OF, type BuilderSessions } from '../bookbuilder/sessions.ts';
import { IMAGE_DECODE_BUDGET_BYTES, ImageHeaderError, readImageHeader, type ImageHeader } from '../images/image-header.ts';
import { jpegDecodeBytes } from './preview-image.ts';
import { previewImageName, type CoverRenderInput } from './render.ts';
import { STORED_IMAGE_RE, coverTokens, discoverTokens, readCoverValues, type CoverValues, type TemplateToken } from './tokens.ts';

export const COVER_BUILD_JOB = BUILD_JOB_OF.cover;
export const DEFAULT_COVER_TEMPLATE = fileURLToPath(new URL('./default-cover.typ', import.meta.url));

/** Previews drawn at once; more are refused (a preview is redrawn on the next change anyway). */
const MAX_PREVIEWS = 2;
const MiB = 1024 * 1024;
/** How long an upload waits for the image thread and its decode before it is answered 503. */
const PREVIEW_IMAGE_TIMEOUT_MS = 30_000;

/** The memory decoding this image takes, from its header: the build's full decode or the preview's jpeg-js one. */
export function imageDecodeBytes(h: ImageHeader): number {
  return h.type === 'jpg' ? Math.max(h.decodedBytes, jpegDecodeBytes(h)) : h.decodedBytes;
}

/**
 * Judges an upload from its header alone, before any decoder sees it: a PNG or JPEG we can read, no more
 * pixels than the cover can print at COVER_IMAGE_MAX_DPI, and a decode within IMAGE_DECODE_BUDGET_BYTES.
 */
export function checkCoverImage(content: Uint8Array, field: string): ImageHeader {
  let h: ImageHeader;
  try {
    h = readImageHeader(content);
  } catch (e) {
    if (e instanceof ImageHeaderError) throw new HttpError(400, e.template, { field, values: e.values });
    throw e;
  }
  // jpeg-js reads baseline, extended and progressive 8-bit Huffman JPEGs: the others would fail later
  if (h.type === 'jpg' && (h.bitDepth !== 8 || ![0xc0, 0xc1, 0xc2].includes(h.sof!))) {
    throw new HttpError(400, 'this image cannot be read (damaged or an unusual kind of {{kind}})', { field, values: { kind: 'JPEG' } });
  }
  const pixels = h.width * h.height;
  if (pixels > COVER_IMAGE_MAX_PIXELS) {
    throw new HttpError(400, 'the image has too many pixels ({{megapixels}} megapixels; at most {{max}})', { field, values: { megapixels: (pixels / 1e6).toFixed(0), max: COVER_IMAGE_MAX_PIXELS / 1e6 } });
  }
  const max = coverImageMaxPixels(h.width, h.height);
  if (h.width > max.width) {
    throw new HttpError(400, 'the image has more pixels than a cover can print ({{width}} × {{height}}): at most {{max_width}} × {{max_height}} pixels, {{dpi}} dpi on the largest cover', {
      field,
      values: { width: h.width, height: h.height, max_width: max.width, max_height: max.height, dpi: COVER_IMAGE_MAX_DPI },
    });
  }
  const bytes = imageDecodeBytes(h);
  if (bytes > IMAGE_DECODE_BUDGET_BYTES) {
    throw new HttpError(400, 'the image takes {{mb}} MB of memory to read: at most {{max}} MB (save it with fewer pixels, or 8 bits per channel)', {
      field,
      values: { mb: Math.ceil(bytes / MiB), max: IMAGE_DECODE_BUDGET_BYTES / MiB },
    });
  }
  return h;
}

interface CoverPayload { session_id: string; values: CoverValues }
type Args = Record<string, string | number | boolean | null | undefined> & { session_id: string };

export class CoverService {
  readonly template: string;
  readonly templateTokens: TemplateToken[];
  private previewing = 0;

  constructor(
    private sessions: BuilderSessions,
    private queue: JobQueue,
    private runner: BuildRunner,
    private fonts: () => string[],
    private settings: { templatePath?: string; maxSessionBytes: number },
  ) {
    this.template = fs.readFileSync(settings.templatePath || DEFAULT_COVER_TEMPLATE, 'utf8');
    this.templateTokens = discoverTokens(this.template);
  }

  private filesDir(sessionId: string): string {
    return path.join(this.sessions.dir(sessionId), 'files');
  }

  private requireSession(id: string | null | undefined): string {
    const s = this.sessions.get(id, 'cover');
    if (!s) throw notFound('Cover session not found: it may have expired. Reload the page to start a new one.');
    return s.id;
  }

  tokens(): CoverToken[] {
    return coverTokens(this.templateTokens, this.fonts());
  }

  /** get_tokens: the given session when it is still valid (its uploads kept), else a new one. */
  getTokens(sessionId: string | null | undefined): BookcoverResponse {
    const existing = this.sessions.get(sessionId, 'cover');
    const sid = existing?.id ?? this.sessions.create('cover');
    if (existing) this.sessions.touch(sid);
    return { session_id: sid, tokens: this.tokens() };
  }

  private read(args: Args): { sid: string; values: CoverValues } {
    const sid = this.requireSession(args.session_id);
    const dir = this.filesDir(sid);
    const values = readCoverValues(args, this.templateTokens, {
      fonts: this.fonts(),
      hasFile: (name) => STORED_IMAGE_RE.test(name) && fs.existsSync(path.join(dir, name)),
    });
    return { sid, values };
  }

  private renderInput(sid: string, values: CoverValues, preview: boolean, outPath?: string): CoverRenderInput {
    return { template: this.template, templateTokens: this.templateTokens, values, filesDir: this.filesDir(sid), preview, outPath };
  }

  /** Images that would print under 300 dpi where the default layout places them. */
  private warnings(sid: string, values: CoverValues): string[] {
    const out: string[] = [];
    for (const t of this.templateTokens) {
      const file = values.tokens[t.name];
      if (t.type !== 'file' || typeof file !== 'string') continue;
      let dims: { width?: number; height?: number };
      try {
        dims = imageSize(fs.readFileSync(path.join(this.filesDir(sid), file)));
      } catch {
        continue;
      }
      if (!dims.width || !dims.height) continue;
      const widthToken = values.tokens[`${t.name.replace(/_file$/, '')}_width_in_mm_int`];
      const placed = placedImageWidthMm(values.geometry, typeof widthToken === 'number' ? widthToken : 0, dims.width, dims.height);
      const dpi = printDpi(dims.width, placed);
      if (dpi < COVER_MIN_DPI) out.push(`${t.name}: the image prints at ${Math.round(dpi)} dpi at ${Math.round(placed)} mm wide; ${COVER_MIN_DPI} dpi or more looks sharp`);
    }
    return out;
  }

  /** preview: the cover as SVG with the bleed shaded and the folds drawn. */
  async preview(args: Args): Promise<BookcoverResponse> {
    const { sid, values } = this.read(args);
    if (this.previewing >= MAX_PREVIEWS) throw new HttpError(503, 'The server is drawing other previews: try again in a moment');
    this.previewing++;
    try {
      const r = await this.runner.runCover(this.renderInput(sid, values, true)).catch((e: Error) => {
        throw new HttpError(422, 'The cover could not be drawn: {{reason}}', { values: { reason: e.message } });
      });
      const L = coverLayout(values.geometry);
      return { session_id: sid, svg: r.svg, sheet: { width_mm: L.width, height_mm: L.height }, warnings: this.warnings(sid, values) };
    } finally {
      this.previewing--;
    }
  }

  /** build: checks the values and queues the PDF; polled with the Book Builder's check_job. */
  build(args: Args): BookcoverResponse {
    const { sid, values } = this.read(args);
    const jobId = this.queue.enqueue(COVER_BUILD_JOB, { session_id: sid, values } satisfies CoverPayload, { maxAttempts: 2 });
    this.sessions.setJob(sid, jobId);
    return { session_id: sid, job_id: jobId, status: 'inactive', warnings: this.warnings(sid, values) };
  }

  /**
   * Stores an uploaded PNG or JPEG as `<token>.<png|jpg>` in the session (content checked, not the name)
   * with a small copy for previews; an image that cannot be decoded is refused.
   */
  async upload(sessionId: string | null | undefined, token: string, content: Buffer): Promise<BookcoverUploadResponse> {
    const sid = this.requireSession(sessionId);
    const t = this.templateTokens.find((x) => x.name === token && x.type === 'file');
    if (!t) throw new HttpError(400, 'this cover has no image field of that name', { field: token });
    if (content.length === 0) throw new HttpError(400, 'the file is empty', { field: token });
    if (content.length > COVER_IMAGE_MAX_BYTES) throw new HttpError(413, 'the image is too large: at most {{mb}} MB', { field: token, values: { mb: COVER_IMAGE_MAX_BYTES / MiB } });
    const info = checkCoverImage(content, token);
    const ext = info.type;
    const dir = this.filesDir(sid);
    const file = `${token}.${ext}`;
    const others = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => STORED_IMAGE_RE.test(f) && !f.startsWith(`${token}.`)) : [];
    const used = others.reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
    if (used + content.length > this.settings.maxSessionBytes) {
      throw new HttpError(413, 'quota exceeded: the images of a cover may take at most {{mb}} MB', { field: token, values: { mb: (this.settings.maxSessionBytes / MiB).toFixed(0) } });
    }
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.${file}.tmp-${process.pid}`);
    fs.writeFileSync(tmp, content);
    try {
      await this.runner.runPreviewImage({ src: tmp, dest: path.join(dir, previewImageName(file)) }, AbortSignal.timeout(PREVIEW_IMAGE_TIMEOUT_MS));
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      if ((e as Error).name === 'TimeoutError') throw new HttpError(503, 'The server is reading other images: try again in a moment');
      // a decode that fails, or whose thread ends at its memory limit, refuses the image (never the server)
      throw new HttpError(400, 'this image cannot be read (damaged or an unusual kind of {{kind}})', { field: token, values: { kind: ext === 'png' ? 'PNG' : 'JPEG' } });
    }
    fs.renameSync(tmp, path.join(dir, file));
    for (const ext2 of ['png', 'jpg']) if (ext2 !== ext) fs.rmSync(path.join(dir, `${token}.${ext2}`), { force: true });
    this.sessions.touch(sid);
    return { session_id: sid, tokens: { [token]: file }, image: { token, file, width_px: info.width, height_px: info.height, bytes: content.length } };
  }

  /** The job handler: renders in the build thread and records the PDF as the session's output. */
  jobHandler(opts: { concurrency: number; timeoutMs: number }): JobHandler {
    return {
      concurrency: opts.concurrency,
      timeoutMs: opts.timeoutMs,
      run: async (raw, ctx) => {
        const p = raw as CoverPayload;
        const sid = this.requireSession(p.session_id);
        const file = `cover-${ctx.jobId}.pdf`;
        const result = await this.runner.runCover(this.renderInput(sid, p.values, false, path.join(this.sessions.dir(sid), file)), ctx.signal);
        this.sessions.storeOutput(sid, ctx.jobId, file, result.pages);
        return { pages: result.pages, bytes: result.bytes, width_mm: result.widthMm, height_mm: result.heightMm };
      },
    };
  }
}
