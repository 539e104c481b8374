import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { fitTextInContainer, getBoundTextMaxWidth, measureText, type ShapeContainerType, wrapText } from '../../src/domain/text/metrics.ts';
import { assertSurvivesRestore, loadExcalidraw, restoreElements } from '../helpers/excalidraw.ts';

/** The worked example of docs/notes/excalidraw-elements.md, read from the note so the two cannot drift apart. */
function workedExample(): any[] {
  const note = fs.readFileSync(new URL('../../docs/notes/excalidraw-elements.md', import.meta.url), 'utf8');
  const block = /## Worked example[\s\S]*?```json\n([\s\S]*?)\n```/.exec(note)?.[1];
  assert.ok(block, 'the note has a JSON block under "## Worked example"');
  return JSON.parse(block) as any[];
}

function variant(change: (elements: any[], byId: (id: string) => any) => void): any[] {
  const elements = workedExample();
  change(elements, (id) => elements.find((element) => element.id === id));
  return elements;
}

test('the worked example survives the editor’s restore unchanged', async () => {
  const restored = await assertSurvivesRestore(workedExample());
  assert.deepEqual(
    restored.map((element) => element.version),
    [1, 1, 1, 1, 1, 1],
    'valid fractional indices: restore bumps no version',
  );
});

test('the editor, re-wrapping and re-measuring the example’s labels itself, finds them already right', async () => {
  await assertSurvivesRestore(workedExample(), { refreshDimensions: true });
});

test('the assertion names the element and field restore changed: an arrow whose first point is not [0, 0] is moved', async () => {
  const broken = variant((_, byId) => {
    byId('api-to-db').points = [
      [2, 0],
      [152, 0],
    ];
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api-to-db" \(arrow\): restore changed geometry field "width" from 152 to 150/);
});

test('restore nulls a binding to an element that does not exist', async () => {
  const broken = variant((_, byId) => {
    byId('api-to-db').endBinding.elementId = 'nowhere';
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api-to-db" \(arrow\): restore changed bindings field "endBinding" from \{.*"nowhere".*\} to null/);
});

test('restore adds a label missing from its container’s boundElements', async () => {
  const broken = variant((_, byId) => {
    byId('api').boundElements = [{ type: 'arrow', id: 'api-to-db' }];
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api" \(rectangle\): restore changed bindings field "boundElements"/);
});

test('restore turns boundElements null into []', async () => {
  const broken = variant((_, byId) => {
    byId('api-label').boundElements = null;
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api-label" \(text\): restore changed bindings field "boundElements" from null to \[\]/);
});

test('restore fills a missing lineHeight', async () => {
  const broken = variant((_, byId) => {
    delete byId('db-label').lineHeight;
  });
  await assert.rejects(assertSurvivesRestore(broken), /"db-label" \(text\): restore changed text field "lineHeight" from undefined to 1\.25/);
});

test('restore deletes a text element with empty text, and unlists it from its container', async () => {
  const broken = variant((_, byId) => {
    byId('api-to-db-label').text = '';
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api-to-db" \(arrow\): restore changed bindings field "boundElements" from \[\{"type":"text","id":"api-to-db-label"\}\] to \[\]/);
  const label = (await restoreElements(broken)).find((element) => element.id === 'api-to-db-label');
  assert.equal(label.isDeleted, true);
});

test('restore assigns fractional indices where they are missing or out of order', async () => {
  const broken = variant((elements) => {
    for (const element of elements) element.index = null;
  });
  await assert.rejects(assertSurvivesRestore(broken), /"api" \(rectangle\): restore changed identity field "index" from null to "a0"/);
});

test('restore drops an element of zero width and height', async () => {
  const broken = variant((_, byId) => {
    Object.assign(byId('db'), { width: 0, height: 0 });
  });
  await assert.rejects(assertSurvivesRestore(broken), /"db" \(ellipse\) was dropped by restore/);
});

test('restore renames a repeated id, which the assertion reports', async () => {
  const broken = variant((elements) => {
    elements.push({ ...elements[0], index: 'a6' });
  });
  await assert.rejects(assertSurvivesRestore(broken), /element "api" \(rectangle\) repeats an id: restore gives the repeat a new random id/);
  const ids = (await restoreElements(broken)).map((element) => element.id);
  assert.equal(new Set(ids).size, ids.length);
});

test('a label sized differently from the editor’s measurement fails the refreshed restore', async () => {
  const broken = variant((_, byId) => {
    byId('api-label').width = 100;
  });
  await assertSurvivesRestore(broken);
  await assert.rejects(assertSurvivesRestore(broken, { refreshDimensions: true }), /"api-label" \(text\): restore changed geometry field "width" from 100 to 105\.7/);
});

test('restore repairs nothing geometric: an arrow far from the shape it is bound to keeps its binding', async () => {
  await assertSurvivesRestore(
    variant((_, byId) => {
      byId('db').x = 5000;
    }),
  );
});

test('restore does not add an arrow to the boundElements of the shape it is bound to', async () => {
  const oneSided = variant((_, byId) => {
    byId('db').boundElements = [{ type: 'text', id: 'db-label' }];
  });
  const restored = await assertSurvivesRestore(oneSided);
  assert.deepEqual(restored.find((element) => element.id === 'db').boundElements, [{ type: 'text', id: 'db-label' }]);
});

test('restore fills defaults the editor needs: endArrowhead "arrow", strokeWidth 2 for 0, focus 0', async () => {
  const sparse = variant((_, byId) => {
    const arrow = byId('api-to-db');
    delete arrow.endArrowhead;
    delete arrow.startBinding.focus;
    byId('api').strokeWidth = 0;
  });
  const restored = await restoreElements(sparse);
  const arrow = restored.find((element) => element.id === 'api-to-db');
  assert.equal(arrow.endArrowhead, 'arrow');
  assert.equal(arrow.startBinding.focus, 0);
  assert.equal(restored.find((element) => element.id === 'api').strokeWidth, 2);
});

test('restore drops an elbow arrow’s binding that has no fixedPoint and nudges a fixedPoint of 0.5 to 0.5001', async () => {
  const elbow = variant((_, byId) => {
    const arrow = byId('api-to-db');
    arrow.elbowed = true;
    arrow.startBinding.fixedPoint = [1, 0.5];
  });
  const arrow = (await restoreElements(elbow)).find((element) => element.id === 'api-to-db');
  assert.deepEqual(arrow.startBinding.fixedPoint, [1, 0.5001]);
  assert.equal(arrow.endBinding, null);
});

const words = ['API', 'gateway', 'orders', 'DB', 'Supercalifragilistic', 'a', 'Tî', 'L.', 'x-y', '数据库', '，', '（注）', '🚀', '👩‍💻', 'Привет', 'naïve', 'AVAT'];
const separator = fc.constantFrom(' ', ' ', ' ', '\n', '  ', '');
const label = fc
  .array(fc.tuple(fc.constantFrom(...words), separator), { minLength: 1, maxLength: 14 })
  .map((parts) => parts.flat().join('').trim())
  .filter((text) => text.length > 0);
const shape = fc.constantFrom<ShapeContainerType>('rectangle', 'ellipse', 'diamond');

test('the editor wraps and measures a label in its container exactly as metrics.ts does', async () => {
  const excalidraw = await loadExcalidraw();
  await fc.assert(
    fc.asyncProperty(label, shape, fc.integer({ min: 30, max: 400 }), async (text, type, width) => {
      const [, textElement] = excalidraw.convertToExcalidrawElements([{ type, id: 'box', x: 0, y: 0, width, height: 60, label: { text } }], {
        regenerateIds: false,
      });
      const expected = wrapText(text, 20, getBoundTextMaxWidth(type, width));
      assert.equal(textElement.text, expected, `${type} ${width}px wide, label ${JSON.stringify(text)}`);
      assert.deepEqual({ width: textElement.width, height: textElement.height }, measureText(expected, 20));
    }),
    { numRuns: 300 },
  );
});

test('the editor, binding a label to a shape sized by fitTextInContainer, wraps it the same way and grows nothing', async () => {
  const excalidraw = await loadExcalidraw();
  await fc.assert(
    fc.asyncProperty(label, shape, fc.integer({ min: 20, max: 300 }), async (text, type, maxTextWidth) => {
      const fitted = fitTextInContainer(text, type, { fontSize: 20, maxTextWidth });
      const [container, textElement] = excalidraw.convertToExcalidrawElements(
        [{ type, id: 'box', x: 0, y: 0, width: fitted.width, height: fitted.height, label: { text } }],
        { regenerateIds: false },
      );
      assert.equal(textElement.text, fitted.text, `${type}, label ${JSON.stringify(text)}`);
      assert.deepEqual({ width: container.width, height: container.height }, { width: fitted.width, height: fitted.height });
    }),
    { numRuns: 300 },
  );
});
