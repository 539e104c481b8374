import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FrameAssembler, MAX_FRAME_BYTES, toFrames } from '../../src/store/live-frames.ts';

test('a notice of any size and any characters is cut into frames under the NOTIFY limit and put back exactly, whatever order other notices interleave in', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ text: fc.string({ unit: 'grapheme', maxLength: 3000 }), n: fc.integer() }), { maxLength: 12 }), fc.array(fc.string(), { maxLength: 3 }), (big, small) => {
      const notices = JSON.parse(JSON.stringify([{ big }, { small }])) as unknown[];
      const [first, second] = notices.map(toFrames);
      for (const frame of [...first!, ...second!]) assert.ok(Buffer.byteLength(frame) <= MAX_FRAME_BYTES);
      const assembler = new FrameAssembler();
      const out: unknown[] = [];
      const interleaved = first!.flatMap((frame, i) => (i === 0 ? [frame, ...second!] : [frame]));
      for (const frame of interleaved) {
        const notice = assembler.take(frame);
        if (notice !== null) out.push(notice);
      }
      assert.deepEqual(out, first!.length === 1 ? [notices[0], notices[1]] : [notices[1], notices[0]]);
    }),
    { numRuns: 50 },
  );
});
