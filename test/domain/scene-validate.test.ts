import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ApiError } from '../../src/errors.ts';
import { linkScheme, validateScene } from '../../src/domain/scene/validate.ts';

const isIcon = (id: string) => id === "icon-database";
const codeOf = (scene: unknown) => {
  try {
    validateScene(scene, { isIcon });
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.code;
  }
};

test('a valid scene keeps its elements as supplied', () => {
  const elements = [{ id: 'a', type: 'rectangle', link: 'https://x.test', extra: { z: 1 } }, { id: 'b', type: 'text', link: null }];
  assert.equal(validateScene({ elements, appState: { x: 1 } }, { isIcon }).elements, elements);
});

test('link schemes are read as a browser would', () => {
  assert.equal(linkScheme('HTTPS://x'), 'https');
  assert.equal(linkScheme('  javascript:alert(1)'), 'javascript');
  assert.equal(linkScheme('jav\nascript:alert(1)'), 'javascript');
  assert.equal(linkScheme('\u0000javascript:x'), 'javascript');
  assert.equal(linkScheme('/path'), null);
  assert.equal(linkScheme('mailto:a@b.c'), 'mailto');
});

test('every input yields a scene or a content-model code, never a crash', () => {
  fc.assert(
    fc.property(fc.anything(), (value) => {
      assert.ok(['ok', 'NOT_A_SCENE', 'BAD_LINK_SCHEME', 'SCENE_TOO_LARGE'].includes(codeOf(value)));
    }),
  );
  fc.assert(
    fc.property(fc.array(fc.record({ id: fc.string(), type: fc.string(), link: fc.option(fc.string()) }, { requiredKeys: [] })), (elements) => {
      assert.ok(['ok', 'NOT_A_SCENE', 'BAD_LINK_SCHEME'].includes(codeOf({ elements })));
    }),
  );
});
