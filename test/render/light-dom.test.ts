/**
 * The faithful SVG is built in a light document (plain objects, src/render/light-dom.ts)
 * and written by Drawbridge's serializer (src/render/svg-xml.ts) rather than
 * in jsdom with its XMLSerializer. The rule: the same scene gives the same
 * document, byte for byte, as jsdom gives, for every kind of element the
 * exporter draws, the hostile ones included.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';
import { imageFiles } from '../../src/render/image-files.ts';
import { inLightDocument } from '../../src/render/light-dom.ts';
import { sanitizeSvgTree } from '../../src/render/sanitize.ts';
import { serializeSvg } from '../../src/render/svg-xml.ts';
import { GOLDEN_SCENES } from '../fixtures/render/scenes.ts';

const base = { x: 0, y: 0, width: 200, height: 80, angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, groupIds: [], frameId: null, roundness: null, seed: 1, version: 1, versionNonce: 1, isDeleted: false, boundElements: null, updated: 1, link: null, locked: false };
const textOf = (id: string, y: number, text: string, extra: Record<string, unknown> = {}) => ({ ...base, id, type: 'text', y, text, originalText: text, fontSize: 20, fontFamily: 5, textAlign: 'left', verticalAlign: 'top', containerId: null, autoResize: true, lineHeight: 1.25, ...extra });
const HOSTILE = '</text><script>alert(1)</script><svg onload=alert(1)>';

/** What the golden scenes do not draw: links, embeds, a frame name wider than its frame, hostile and XML-forbidden text, odd ids. */
const EDGE_CASES = [
  textOf('label', 0, HOSTILE, { link: 'https://evil.example/"><script>alert(2)</script>' }),
  textOf('controls', 40, 'a\u00a0b\u0001c\uD800d & < > " \' \t tab'),
  { ...base, id: '"><script>alert(3)</script>', type: 'rectangle', y: 120, strokeColor: 'red" onload="alert(4)', backgroundColor: 'url(https://evil.example/x.png)', link: 'mailto:x@example.com' },
  { ...base, id: 'narrow-frame', type: 'frame', y: 240, width: 40, name: 'A frame name much wider than its frame' },
  { ...base, id: 'pic"#1', type: 'image', y: 360, fileId: 'icon-not-in-the-catalog', status: 'saved', scale: [-1, 1] },
  { ...base, id: 'arrow', type: 'arrow', y: 500, points: [[0, 0], [200, 40]], startArrowhead: 'dot" onclick="alert(7)', endArrowhead: 'triangle', strokeColor: 'javascript:alert(8)' },
  { ...base, id: 'embed', type: 'embeddable', y: 600, link: 'https://www.youtube.com/watch?v=abc' },
  { ...base, id: 'pen', type: 'freedraw', y: 700, points: [[0, 0], [10, 5], [30, 2], [50, 20]], pressures: [], simulatePressure: true },
];

const SCENES: Record<string, () => unknown[]> = { ...GOLDEN_SCENES, 'edge cases': () => structuredClone(EDGE_CASES) };
const LIGHT = { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false };
const DARK = { ...LIGHT, exportWithDarkMode: true, viewBackgroundColor: '#121212' };

/** The sanitized export of `scene`, built in whichever document is global when it runs. */
async function exportOf(scene: () => unknown[], appState: Record<string, unknown>): Promise<SVGSVGElement> {
  const editor = await loadExcalidraw();
  const elements = editor.restoreElements(scene(), null, { repairBindings: true });
  const root = await editor.exportToSvg({ elements, appState, files: imageFiles(elements).files, exportPadding: 10, skipInliningFonts: true });
  sanitizeSvgTree(root);
  return root;
}

describe('the faithful SVG in a light document', () => {
  for (const [name, scene] of Object.entries(SCENES)) {
    for (const [theme, appState] of Object.entries({ light: LIGHT, dark: DARK })) {
      test(`the ${name} scene (${theme}) is the same document as jsdom builds`, async () => {
        const inJsdom = serializeSvg(await exportOf(scene, appState));
        const inLight = serializeSvg(await inLightDocument(() => exportOf(scene, appState)));
        assert.equal(inLight, inJsdom);
      });
    }
  }

  test('a copy of the export (the PNG path draws one) is the same document, namespaced attributes included', async () => {
    const root = await inLightDocument(() => exportOf(GOLDEN_SCENES.shapes!, LIGHT));
    const svg = serializeSvg(root);
    assert.match(svg, /ns1:clip-path=/, 'the shapes scene has a frame whose clip-path the exporter puts in the SVG namespace');
    assert.equal(serializeSvg(root.cloneNode(true) as Element), svg);
  });
});

describe("Drawbridge's SVG serializer", () => {
  for (const [name, scene] of Object.entries(GOLDEN_SCENES)) {
    test(`writes the ${name} scene as jsdom's XMLSerializer does`, async () => {
      const root = await exportOf(scene, LIGHT);
      const ours = serializeSvg(root);
      // The exporter sets xmlns as a plain attribute, which XMLSerializer would write twice.
      for (const element of [root, ...root.querySelectorAll('*')]) element.removeAttribute('xmlns');
      assert.equal(ours, new (root.ownerDocument.defaultView!.XMLSerializer)().serializeToString(root));
    });
  }

  test('replaces characters XML forbids, and escapes markup in text and attributes', async () => {
    const svg = serializeSvg(await inLightDocument(() => exportOf(() => structuredClone(EDGE_CASES), LIGHT)));
    assert.ok(svg.includes('a\u00a0b\uFFFDc\uFFFDd &amp; &lt; &gt; " \' \t tab'), 'text escaped, forbidden characters replaced');
    assert.ok(svg.includes('&lt;/text&gt;&lt;script&gt;'));
    assert.doesNotMatch(svg, /[\u0001\uD800](?![\uDC00-\uDFFF])/);
  });
});
