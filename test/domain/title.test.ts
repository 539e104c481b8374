import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sanitizeTitle, TITLE_MAX_LENGTH } from '../../src/domain/title.ts';

test('sanitizeTitle removes controls, collapses whitespace and trims', () => {
  assert.equal(sanitizeTitle('  a\u0000b\u001f c\t\td\r\n '), 'ab c d');
  assert.equal(sanitizeTitle('\u202Egnp.exe\u202C'), 'gnp.exe');
  assert.equal(sanitizeTitle('\u0085x\u2028y'), 'x y');
  assert.equal(sanitizeTitle('\ud800lone'), '\ufffdlone');
  assert.equal(sanitizeTitle('👩‍💻 dev'), '👩‍💻 dev', 'zero-width joiners in emoji stay');
});

test('sanitizeTitle never exceeds the limit, never splits a surrogate pair, and is idempotent', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (input) => {
      const once = sanitizeTitle(input);
      assert.ok(Array.from(once).length <= TITLE_MAX_LENGTH);
      assert.equal(once, once.toWellFormed());
      assert.equal(once, once.trim());
      assert.ok(!/\p{Cc}|\s{2}/u.test(once));
      assert.equal(sanitizeTitle(once), once);
    }),
  );
});
