// Strings by integer id, held as UTF-8 in one growable buffer with an offset and a length per id: a
// million titles cost a few typed arrays instead of a million string objects and map entries. Written
// once, read rarely (a page of suggestions), so decoding on read is cheap enough.

/** Marks an id that holds no string (an empty string has length 0). */
const ABSENT = -1;

export class TextPool {
  private start: Uint32Array = new Uint32Array(0);
  private len: Int32Array = new Int32Array(0);
  private buf: Buffer = Buffer.alloc(0);
  private used = 0;
  /** Bytes of strings replaced or deleted (reclaimed when they are more than half). */
  private garbage = 0;
  size = 0;

  private ensureId(id: number) {
    if (id < this.len.length) return;
    const cap = Math.max(id + 1, this.len.length * 2, 1024);
    const s = new Uint32Array(cap);
    s.set(this.start);
    const l = new Int32Array(cap).fill(ABSENT);
    l.set(this.len);
    this.start = s;
    this.len = l;
  }

  set(id: number, text: string): void {
    this.ensureId(id);
    const old = this.len[id];
    const bytes = Buffer.byteLength(text);
    if (old === ABSENT) this.size++;
    else if (old === bytes && this.get(id) === text) return;
    else this.garbage += old;
    if (this.used + bytes > this.buf.length) this.grow(bytes);
    this.start[id] = this.used;
    this.len[id] = this.buf.write(text, this.used, 'utf8');
    this.used += bytes;
  }

  get(id: number): string | undefined {
    if (id < 0 || id >= this.len.length) return undefined;
    const n = this.len[id];
    if (n === ABSENT) return undefined;
    return this.buf.toString('utf8', this.start[id], this.start[id] + n);
  }

  has(id: number): boolean {
    return id >= 0 && id < this.len.length && this.len[id] !== ABSENT;
  }

  delete(id: number): boolean {
    if (!this.has(id)) return false;
    this.garbage += this.len[id];
    this.len[id] = ABSENT;
    this.size--;
    return true;
  }

  /** The ids holding a string, ascending. */
  *ids(): Generator<number> {
    const len = this.len;
    for (let id = 0; id < len.length; id++) if (len[id] !== ABSENT) yield id;
  }

  /**
   * Compares the strings of two ids by their bytes (the order of JavaScript's `<` for ASCII text, such
   * as title sort keys); both must be present.
   */
  compare(a: number, b: number): number {
    const buf = this.buf;
    let i = this.start[a];
    let j = this.start[b];
    const na = this.len[a];
    const nb = this.len[b];
    const end = i + Math.min(na, nb);
    for (; i < end; i++, j++) {
      const d = buf[i] - buf[j];
      if (d !== 0) return d;
    }
    return na - nb;
  }

  /** Highest id + 1 that may hold a string. */
  get capacity(): number {
    return this.len.length;
  }

  private grow(extra: number) {
    const live = this.used - this.garbage;
    // Grows by a quarter, not double: the slack of a doubled buffer was as large as the titles themselves.
    const buf = Buffer.alloc(Math.max(1 << 16, Math.ceil((live + extra) * 1.25), this.garbage > live ? 0 : Math.ceil(this.buf.length * 1.25)));
    if (this.garbage > live) {
      // Copies the live strings only (id order), leaving the garbage behind.
      let p = 0;
      for (let id = 0; id < this.len.length; id++) {
        const n = this.len[id];
        if (n === ABSENT) continue;
        this.buf.copy(buf, p, this.start[id], this.start[id] + n);
        this.start[id] = p;
        p += n;
      }
      this.used = p;
      this.garbage = 0;
    } else {
      this.buf.copy(buf, 0, 0, this.used);
    }
    this.buf = buf;
  }

  /** The pool as typed arrays (for a snapshot) and the counts to restore it with. */
  parts(): { meta: { used: number; garbage: number; size: number }; arrays: { start: Uint32Array; len: Int32Array; text: Uint8Array } } {
    return {
      meta: { used: this.used, garbage: this.garbage, size: this.size },
      arrays: { start: this.start, len: this.len, text: this.buf.subarray(0, this.used) },
    };
  }

  static from(meta: { used: number; garbage: number; size: number }, arrays: { start: Uint32Array; len: Int32Array; text: Uint8Array }): TextPool {
    const p = new TextPool();
    p.start = arrays.start;
    p.len = arrays.len;
    // A view, not a copy; the next write past its end grows into a buffer of its own.
    p.buf = Buffer.from(arrays.text.buffer, arrays.text.byteOffset, arrays.text.byteLength);
    p.used = meta.used;
    p.garbage = meta.garbage;
    p.size = meta.size;
    return p;
  }
}
