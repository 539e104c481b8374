/**
 * The faithful renderer's SVG: the editor's own SVG exporter (hand-drawn
 * strokes, its fonts, embedded icons), run in a render worker process
 * (faithful-worker.ts) since it needs the editor's browser bundle and a DOM.
 */
import { embeddedFontFaces } from './embed-fonts.ts';
import type { ExcalidrawModule } from './editor-runtime.ts';
import { editorFontFiles } from './font-files.ts';
import { faithfulScene } from './faithful-scene.ts';
import { inLightDocument } from './light-dom.ts';
import { exportLook, sizedSvg } from './options.ts';
import { sanitizeSvgTree } from './sanitize.ts';
import { serializeSvg } from './svg-xml.ts';
import { applyExportLook } from './svg-theme.ts';
import { textRunsOf } from './text-runs.ts';
import { oversizedSvgBytes, type RenderJob, type RenderOutput } from './types.ts';

/** The job's SVG (its PNG and PDF come from the canvas exporter: faithful-canvas.ts). */
export async function renderFaithful(editor: ExcalidrawModule, job: RenderJob, scene = faithfulScene(editor, job.elementsJson, job.options)): Promise<RenderOutput> {
  if (scene === null) return { empty: true };
  if ('invalidSelection' in scene) return { invalidSelection: scene.invalidSelection };
  const { elements, files, exportingFrame } = scene;
  const look = exportLook(job.options ?? {});
  // In a light document (light-dom.ts): jsdom is only for loading the editor's bundle.
  const root = await inLightDocument(() => editor.exportToSvg({
    elements,
    appState: look.appState,
    files,
    exportPadding: look.exportPadding,
    ...(exportingFrame ? { exportingFrame } : {}),
    skipInliningFonts: true,
  }));
  sanitizeSvgTree(root);
  applyFontFaces(root, elements);
  applyExportLook(root, look);
  const fonts = editorFontFiles(job.fontsDirectory);
  const output: RenderOutput = {
    ...(scene.imagesTruncated ? { imagesTruncated: true } : {}),
    ...(scene.textTruncated ? { textTruncated: true } : {}),
  };
  if (job.svg) {
    const css = await embeddedFontFaces(textRunsOf(root), fonts);
    if (css !== '') {
      let style = root.querySelector('defs > style');
      if (!style) {
        const defs = root.querySelector('defs') ?? root.insertBefore(root.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'defs'), root.firstChild);
        style = defs.appendChild(root.ownerDocument.createElementNS('http://www.w3.org/2000/svg', 'style'));
      }
      style.textContent = css;
    }
    const svg = sizedSvg(serializeSvg(root), job.options ?? {});
    const svgTooLarge = oversizedSvgBytes(svg);
    if (svgTooLarge !== null) return { svgTooLarge };
    output.svg = svg;
  }
  return output;
}

type SvgNode = { localName: string; children: SvgNode[]; textContent: string; setAttribute(name: string, value: string): void };

/**
 * Bold and italic labels: the editor's text has no weight or slant, so
 * Drawbridge records them in a text's customData (fontWeight "bold",
 * fontStyle "italic"), and the exporter's `<text>` lines of that element get
 * font-weight / font-style. The exporter writes a text element as a group of
 * `<text>` lines in drawing order; each marked element takes the next group
 * whose lines are its lines.
 */
function applyFontFaces(root: unknown, elements: readonly any[]): void {
  const marked = elements.filter((e) => e.type === 'text' && !e.isDeleted && (e.customData?.fontWeight === 'bold' || e.customData?.fontStyle === 'italic'));
  if (marked.length === 0) return;
  const groups: SvgNode[][] = [];
  const walk = (node: SvgNode) => {
    const lines = node.children.filter((child) => child.localName === 'text');
    if (lines.length > 0) groups.push(lines);
    for (const child of node.children) if (child.localName !== 'text') walk(child);
  };
  walk(root as SvgNode);
  let next = 0;
  for (const element of marked) {
    const want = String(element.text).split(/\r\n?|\n/);
    for (let g = next; g < groups.length; g++) {
      const lines = groups[g]!;
      if (lines.length !== want.length || lines.some((line, i) => line.textContent !== want[i])) continue;
      for (const line of lines) {
        if (element.customData.fontWeight === 'bold') line.setAttribute('font-weight', 'bold');
        if (element.customData.fontStyle === 'italic') line.setAttribute('font-style', 'italic');
      }
      next = g + 1;
      break;
    }
  }
}
