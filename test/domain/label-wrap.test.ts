/**
 * Labels wrap between words only: a word is never broken inside a lower-case
 * run. An identifier widens its box (up to a maximum); one wider than that is
 * broken only after / _ . - : or before a capital that follows a lower-case letter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { sceneFromSpec } from '../../src/domain/scene/from-spec.ts';
import { WIDEN_FOR_WORD, wordSafeWrap } from '../../src/domain/scene/label-wrap.ts';
import { parseSpec } from '../../src/domain/spec/parse.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';

const textOf = (elements: Array<{ type: string; containerId?: string | null; text?: string }>, owner: string) => elements.find((e) => e.type === 'text' && e.containerId === owner)?.text;

/** Every line break the drawn text has that its label did not, as the two characters around it. */
function breaksInside(drawn: string, label: string): string[] {
  const found: string[] = [];
  let at = 0;
  for (let i = 0; i < drawn.length; i++) {
    if (drawn[i] === '\n' && label[at] !== '\n') {
      if (label[at - 1] && label[at] && /\S/.test(label[at - 1]!) && /\S/.test(label[at]!)) found.push(`${label[at - 1]}|${label[at]}`);
      if (label[at] === ' ') at++;
      continue;
    }
    at++;
  }
  return found;
}

test('identifiers in nodes, containers and on edges are never broken inside a word', () => {
  const spec = parseSpec(
    {
      nodes: [
        { id: 'a', label: 'setupConfigurationComponents' },
        { id: 'b', label: 'TerminationPendingImmediate', shape: 'ellipse' },
        { id: 'g', label: 'CompositePodGroupTemplateReconciler' },
        { id: 'c', label: 'A rather long label made of ordinary words that must wrap' },
        { id: 'k', label: 'kube-controller-manager' },
        { id: 'x', parent: 'g' },
      ],
      edges: [{ from: 'a', to: 'b', label: '/refresh_configuration' }, 'b -> c', 'c -> k'],
    },
    { isIcon: isCatalogIcon },
  );
  const elements = sceneFromSpec(spec, { updated: 1, layout: layoutGraph }) as Array<{ id: string; type: string; containerId?: string | null; text?: string }>;
  for (const node of spec.nodes) {
    const text = textOf(elements, node.id);
    if (text !== undefined) assert.deepEqual(breaksInside(text, node.label), [], `${node.id}: ${JSON.stringify(text)}`);
  }
  assert.equal(textOf(elements, 'a'), 'setupConfigurationComponents', 'the box widened to hold it');
  assert.equal(textOf(elements, 'a-to-b'), '/refresh_\nconfiguration', 'wider than an arrow label may be: broken after the underscore');
  assert.match(textOf(elements, 'c')!, /\n/, 'ordinary words still wrap');
});

test('a word wider than the widest box breaks only at its break places', () => {
  const { label, wrapAt } = wordSafeWrap('io.opentelemetry.collector.service.internal.graph.BuildComponentsFromPipelineConfiguration', 240);
  assert.equal(wrapAt, Math.round(240 * WIDEN_FOR_WORD));
  for (const line of label.split('\n').slice(0, -1)) assert.match(line, /[/_.\-:]$|[a-z0-9]$/, `a piece ends at a break place: ${line}`);
  for (const line of label.split('\n').slice(1)) assert.match(line, /^[A-Za-z]/, line);
  assert.equal(label.replace(/\n/g, ''), 'io.opentelemetry.collector.service.internal.graph.BuildComponentsFromPipelineConfiguration');
  assert.ok(label.split('\n').every((piece, i, all) => i === all.length - 1 || /[.]$/.test(piece) || /^[A-Z]/.test(all[i + 1]!)), label);
  assert.deepEqual(wordSafeWrap('short words only', 240), { label: 'short words only', wrapAt: 240 });
});

test('a wrapped label keeps 6 px from its box on each side, even when the editor\'s wrap fills the text area to its edge', () => {
  // terminal's atlas renderer: an identifier widens the box, and the rest of the label, wrapped in it, ran 5 px from both sides.
  const label = '_drawTextOverlapSplit\nsplits overly wide glyphs up into smaller chunks to support\nforeground color changes within the ligature';
  const elements = sceneFromSpec(parseSpec({ nodes: [{ id: 'split', label }] }, { isIcon: isCatalogIcon }), { updated: 1, layout: layoutGraph }) as Array<Record<string, any>>;
  const box = elements.find((e) => e.id === 'split')!;
  const text = elements.find((e) => e.id === 'split-label')!;
  assert.ok(text.x - box.x >= 6 && box.x + box.width - (text.x + text.width) >= 6, `${(text.x - box.x).toFixed(2)} px and ${(box.x + box.width - text.x - text.width).toFixed(2)} px`);
  assert.deepEqual(lintScene(elements as never).filter((issue) => issue.kind === 'label_near_outline'), []);
});
