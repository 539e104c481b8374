/**
 * `npm run gallery`: draws every corpus spec twice, with our layout and with
 * dot's (same sceneFromSpec, same faithful renderer), and writes
 * docs/gallery/<spec>-drawbridge.png, docs/gallery/<spec>-dot.png and
 * docs/gallery.md with both pictures side by side and each one's measures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type CorpusEntry, drawBoth, loadCorpus } from './corpus.ts';
import { ensureDot } from './dot-layout.ts';
import { defectCount, measureScene, type SceneMeasures } from './measure.ts';
import { startPngRenderer } from './render-png.ts';
import { edgeDirections } from '../../src/domain/layout/containers/own-direction.ts';

const DOCS = path.join(import.meta.dirname, '..', '..', 'docs');
const IMAGES = path.join(DOCS, 'gallery');

const describeLint = (m: SceneMeasures) =>
  defectCount(m) === 0
    ? 'none'
    : [...m.lint.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ');
const describeFlow = (m: SceneMeasures) => (m.againstFlow.length === 0 ? '0' : `${m.againstFlow.length} (${m.againstFlow.join(', ')})`);
const size = (m: SceneMeasures) => `${Math.round(m.width)} × ${Math.round(m.height)}`;

function section(entry: CorpusEntry, direction: string, counts: { nodes: number; edges: number }, ours: SceneMeasures, dot: SceneMeasures): string {
  const image = (engine: string) => `gallery/${entry.name}-${engine}.png`;
  return [
    `## ${entry.name}`,
    '',
    `${direction} · ${counts.nodes} nodes · ${counts.edges} edges · [spec](../bench/quality/corpus/${entry.name}.json)`,
    '',
    '| | Drawbridge | Graphviz dot |',
    '|---|---|---|',
    `| crossings | ${ours.crossings} | ${dot.crossings} |`,
    `| lint issues | ${describeLint(ours)} | ${describeLint(dot)} |`,
    `| arrows against the flow | ${describeFlow(ours)} | ${describeFlow(dot)} |`,
    `| size (px) | ${size(ours)} | ${size(dot)} |`,
    '',
    '| Drawbridge | Graphviz dot |',
    '|---|---|',
    `| ![Drawbridge's drawing of ${entry.name}](${image('drawbridge')}) | ![dot's drawing of ${entry.name}](${image('dot')}) |`,
    '',
  ].join('\n');
}

const INTRO = `# Gallery: Drawbridge beside Graphviz dot

Every spec of the quality corpus (\`bench/quality/corpus/\`), drawn twice in the
editor's hand-drawn style: on the left with Drawbridge's layout, on the right
with Graphviz dot's layout of the same graph (same node sizes, clusters for
containers, the same edge labels), converted to the same geometry and built
into a scene by the same code. Beside each pair: crossings, lint issues by
kind and arrows drawn against the flow, measured the same way on both. See
[quality.md](quality.md) for what each measure means.

Regenerate with \`npm run gallery\` (it installs Debian's graphviz when \`dot\`
is missing); the pictures are 1024 px wide, so very wide drawings come out small.
`;

ensureDot();
fs.mkdirSync(IMAGES, { recursive: true });
const renderer = startPngRenderer();
const written = new Set<string>();
const sections: string[] = [];
try {
  for (const entry of loadCorpus()) {
    const drawn = drawBoth(entry.spec);
    for (const [engine, elements] of [['drawbridge', drawn.ours], ['dot', drawn.dot]] as const) {
      const file = `${entry.name}-${engine}.png`;
      fs.writeFileSync(path.join(IMAGES, file), await renderer.png(elements));
      written.add(file);
    }
    const counts = { nodes: drawn.input.nodes.length, edges: drawn.input.edges.length };
    sections.push(section(entry, drawn.direction, counts, measureScene(drawn.ours, drawn.direction, edgeDirections(drawn.input)), measureScene(drawn.dot, drawn.direction, edgeDirections(drawn.input))));
    console.log(`drew ${entry.name}`);
  }
} finally {
  await renderer.close();
}
for (const file of fs.readdirSync(IMAGES)) if (file.endsWith('.png') && !written.has(file)) fs.rmSync(path.join(IMAGES, file));
fs.writeFileSync(path.join(DOCS, 'gallery.md'), [INTRO, ...sections].join('\n'));
console.log(`wrote docs/gallery.md and ${written.size} pictures in docs/gallery/`);
