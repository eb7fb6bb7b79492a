// chapter_newpage (our addition, issue 32 point 15) travels in the build payload only when not the default.
import { describe, expect, it } from 'vitest';
import { buildPayloadSchema, defaultCollectionData, toBuildPayload } from './bookbuilder.ts';

describe('chapter_newpage in the build payload', () => {
  it('defaults to always (the reference) and is left out of the payload then', () => {
    expect(defaultCollectionData().chapter_newpage).toBe('always');
    expect(toBuildPayload(defaultCollectionData())).not.toHaveProperty('chapter_newpage');
  });

  it('auto and never are sent and read back; anything else is refused', () => {
    for (const v of ['auto', 'never'] as const) {
      const payload = toBuildPayload({ ...defaultCollectionData(), chapter_newpage: v });
      expect(payload.chapter_newpage).toBe(v);
      expect(buildPayloadSchema.parse(payload).chapter_newpage).toBe(v);
    }
    const bad = buildPayloadSchema.safeParse({ ...toBuildPayload(defaultCollectionData()), chapter_newpage: 'sometimes' });
    expect(bad.success).toBe(false);
  });
});
