import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SHORTHAND_PATTERN } from '../../src/domain/spec/schema.ts';
import { parseShorthand, ShorthandError } from '../../src/domain/spec/shorthand.ts';

const parses = (text: string): boolean => {
  try {
    parseShorthand(text);
    return true;
  } catch (error) {
    if (error instanceof ShorthandError) return false;
    throw error;
  }
};

/** As a JSON Schema validator reads `pattern`: an ECMAScript regex, with and without the u flag. */
const patterns = [new RegExp(SHORTHAND_PATTERN, 'u'), new RegExp(SHORTHAND_PATTERN)];

/** Pieces that make the grammar's hard cases: arrows and their prefixes, quotes, escapes, colons, spaces. */
const piece = fc.constantFrom('a', 'db', 'web app', ' ', '  ', '\t', '\n', '\u00a0', '"', '\\', '\\"', ':', '-', '<', '>', '->', '<-', '<->', '--', '-->', '>-', '=>', 'x:y', '"a b"', '"a -> b"', '""', 'é', '😀');

test('the shorthand pattern accepts exactly what parseShorthand accepts', () => {
  fc.assert(
    fc.property(fc.oneof(fc.array(piece, { maxLength: 9 }).map((parts) => parts.join('')), fc.string({ maxLength: 30 }), fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', ':', '-', '<', '>'), maxLength: 14 })), (text) => {
      const expected = parses(text);
      for (const pattern of patterns) assert.equal(pattern.test(text), expected, `${JSON.stringify(text)}: parser ${expected}, pattern ${!expected}`);
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 20000) },
  );
});

test('the shorthand pattern on the documented examples and mistakes', () => {
  for (const text of ['api -> db', 'a <- b', 'a <-> b', 'a -- b', 'a --> b', '"web app" --> api : HTTPS', 'a->b', 'web-app -> db', '"a -> b" -> "say \\"hi\\"": x: y', 'a -> b:label']) {
    assert.ok(new RegExp(SHORTHAND_PATTERN, 'u').test(text), text);
  }
  for (const text of ['', 'a', 'a ->', '-> b', 'a b', 'a => b', '"a -> b', 'a -> b extra', 'a -> b :', '"" -> b', 'a --> : x']) {
    assert.ok(!new RegExp(SHORTHAND_PATTERN, 'u').test(text), text);
  }
});
