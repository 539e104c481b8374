import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ELLIPSIS, limitSceneText, TEXT_LIMITS, type TextLimits } from '../../src/render/text-limits.ts';

const text = (id: string, value: string, extra: Record<string, unknown> = {}) => ({ id, type: 'text', text: value, originalText: value, fontSize: 20, lineHeight: 1.25, height: value.split('\n').length * 25, ...extra });
const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i}`).join('\n');
const small: TextLimits = { linesPerText: 3, charactersPerLine: 10, linesPerScene: 5, charactersPerScene: 40 };

test('a scene within the limits comes back as it is, element for element', () => {
  const elements = [text('a', lines(TEXT_LIMITS.linesPerText)), { id: 'r', type: 'rectangle' }, { id: 'f', type: 'frame', name: 'Services' }];
  const limited = limitSceneText(elements);
  assert.equal(limited.truncated, false);
  limited.elements.forEach((element, i) => assert.equal(element, elements[i]));
});

test('a text of more lines than one text may draw keeps its first lines, ends in an ellipsis line, and its box shrinks with it', () => {
  const { elements, truncated } = limitSceneText([text('a', lines(150_000))]);
  assert.equal(truncated, true);
  const drawn = (elements[0]!.text as string).split('\n');
  assert.equal(drawn.length, TEXT_LIMITS.linesPerText);
  assert.deepEqual(drawn.slice(0, 2), ['line 0', 'line 1']);
  assert.equal(drawn.at(-2), `line ${TEXT_LIMITS.linesPerText - 2}`);
  assert.equal(drawn.at(-1), ELLIPSIS);
  assert.equal(elements[0]!.originalText, elements[0]!.text);
  assert.equal(elements[0]!.height, TEXT_LIMITS.linesPerText * 25);
});

test('a line longer than a line may be is cut, ending in an ellipsis, and the lines after it stay', () => {
  const { elements, truncated } = limitSceneText([text('a', 'abcdefghijklmnop\nshort')], small);
  assert.equal(truncated, true);
  assert.equal(elements[0]!.text, `abcdefghi${ELLIPSIS}\nshort`);
  assert.equal(elements[0]!.height, 50, 'no line was left out');
});

test('a cut never splits a surrogate pair', () => {
  const { elements } = limitSceneText([text('a', `abcdefgh😀xyz`)], small);
  assert.equal(elements[0]!.text, `abcdefgh${ELLIPSIS}`);
});

test("once the scene's lines are spent, later texts are cut and then left out", () => {
  const { elements, truncated } = limitSceneText([text('a', lines(3)), text('b', lines(3)), text('c', 'late')], small);
  assert.equal(truncated, true);
  assert.equal(elements[0]!.text, lines(3));
  assert.equal(elements[1]!.text, `line 0\n${ELLIPSIS}`);
  assert.equal(elements[2]!.isDeleted, true);
});

test("once the scene's characters are spent, the line that spends them ends in an ellipsis, and later texts are left out", () => {
  const limits = { ...small, linesPerScene: 100 };
  const { elements } = limitSceneText([text('a', '123456789\n123456789'), text('b', '123456789\n123456789\n123456789'), text('c', 'late')], limits);
  assert.equal(elements[0]!.text, '123456789\n123456789');
  assert.equal(elements[1]!.text, `123456789\n123456789\n123${ELLIPSIS}`);
  assert.equal(elements[2]!.isDeleted, true);
});

test('frame names and embed links are text too; deleted elements spend nothing', () => {
  const { elements, truncated } = limitSceneText(
    [
      text('gone', lines(10), { isDeleted: true }),
      { id: 'f', type: 'frame', name: lines(5, 'n') },
      { id: 'e', type: 'embeddable', link: `https://example.com/${'x'.repeat(20)}` },
      { id: 'i', type: 'iframe', link: `https://example.com/${'x'.repeat(20)}` },
    ],
    small,
  );
  assert.equal(truncated, true);
  assert.equal(elements[0]!.text, lines(10), 'a deleted text is left as it is');
  assert.equal(elements[1]!.name, `n 0\nn 1\n${ELLIPSIS}`);
  assert.equal(elements[2]!.link, `https://e${ELLIPSIS}`);
  assert.equal(elements[3]!.link, `https://example.com/${'x'.repeat(20)}`, "an iframe's link is not drawn");
});

test('\\r\\n, \\r and \\n each end one line, as the editor splits them', () => {
  const { elements } = limitSceneText([text('a', 'a\r\nb\rc\nd')], small);
  assert.equal(elements[0]!.text, `a\nb\n${ELLIPSIS}`);
});

test('whatever the texts, what is drawn is within every limit, and is the start of each text', () => {
  const line = fc.string({ unit: fc.constantFrom('a', 'b', '😀', ' '), maxLength: 14 });
  const element = fc.record({ kind: fc.constantFrom('text', 'frame'), lines: fc.array(line, { minLength: 1, maxLength: 6 }) });
  fc.assert(
    fc.property(fc.array(element, { maxLength: 5 }), (specs) => {
      const scene: Record<string, unknown>[] = specs.map(({ kind, lines: parts }, i) => (kind === 'text' ? text(`t${i}`, parts.join('\n')) : { id: `f${i}`, type: 'frame', name: parts.join('\n') }));
      const { elements, truncated } = limitSceneText(scene, small);
      let sceneLines = 0;
      let sceneCharacters = 0;
      elements.forEach((element, i) => {
        const before = (scene[i]!.type === 'text' ? scene[i]!.text : scene[i]!.name) as string;
        const after = (element.type === 'text' ? element.text : element.name) as string;
        if (after === before) return void ((sceneLines += before === '' ? 0 : before.split('\n').length), (sceneCharacters += before.replaceAll('\n', '').length));
        assert.equal(truncated, true);
        if (after === '') return;
        const drawn = after.split('\n');
        const original = before.split('\n');
        assert.ok(drawn.length <= small.linesPerText);
        drawn.forEach((drawnLine, j) => {
          assert.ok(drawnLine.length <= small.charactersPerLine);
          assert.doesNotMatch(drawnLine, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
          const kept = drawnLine.endsWith(ELLIPSIS) ? drawnLine.slice(0, -1) : drawnLine;
          assert.ok(original[j]!.startsWith(kept), `line ${j} of ${JSON.stringify(after)} is the start of ${JSON.stringify(original[j])}`);
        });
        sceneLines += drawn.length;
        sceneCharacters += after.replaceAll('\n', '').length;
      });
      assert.ok(sceneLines <= small.linesPerScene, `${sceneLines} lines drawn`);
      assert.ok(sceneCharacters <= small.charactersPerScene, `${sceneCharacters} characters drawn`);
      if (!truncated) elements.forEach((element, i) => assert.equal(element, scene[i]));
    }),
  );
});
