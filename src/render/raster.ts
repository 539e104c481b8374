/**
 * SVG → PNG with resvg, with the fonts src/render/fonts/ chooses for the
 * SVG's text (TrueType files, see font-files.ts): the editor's, Xiaolai for
 * CJK, the bundled script fallbacks, and Noto Emoji in one colour (resvg-js
 * 2.6 draws no colour font). Each render loads only the faces its text needs,
 * in fallback order. No system font is ever loaded, so the output does not
 * depend on the machine.
 */
import { Resvg } from '@resvg/resvg-js';
import { editorFontFaces } from './editor-fonts.ts';
import type { EditorFontFiles } from './font-files.ts';
import { chooseFonts, DEFAULT_FAMILY, editorFamilyOf, type Segment, stackNames } from './fonts/index.ts';
import { glyphAddressedCopy, glyphCodes } from './fonts/glyph-addressed.ts';
import { decodeXmlText, svgTextRuns } from './fonts/svg-text.ts';
import { pngSize } from './options.ts';
import type { RenderOptions } from './types.ts';
import { encodePng } from './png-encode.ts';

export { decodeXmlText } from './fonts/svg-text.ts';

/**
 * Rewrites the root element's size to the PNG's (options.ts, pngSize): by
 * default exactly 1024 px wide, keeping the aspect ratio (a scene taller than
 * 8 times its width is scaled down to fit, centred); `width` or `scale` when asked.
 */
function sizeForPng(svg: string, options: RenderOptions = {}): string {
  const root = /<svg\b[^>]*>/.exec(svg);
  if (!root) throw new Error('not an SVG document');
  const viewBox = /viewBox="\s*([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(root[0]);
  if (!viewBox) throw new Error('the SVG has no viewBox');
  const [width, height] = [Number(viewBox[3]), Number(viewBox[4])];
  if (!(width > 0 && height > 0)) throw new Error('the SVG has an empty viewBox');
  const png = pngSize(width, height, options);
  const tag = root[0]
    .replace(/\s(width|height|preserveAspectRatio)="[^"]*"/g, '')
    .replace(/^<svg/, `<svg width="${png.width}" height="${png.height}" preserveAspectRatio="xMidYMin meet"`);
  return svg.slice(0, root.index) + tag + svg.slice(root.index + root[0].length);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The SVG as resvg should see it: each <text>'s font stack names the faces loaded for it, and the
 * stretches another face draws (a fallback script, emoji) are tspans naming that face, so resvg shapes each
 * with its own font (Arabic joined, Devanagari reordered, an emoji sequence as one glyph) rather than
 * falling back a character at a time. Right-to-left text is anchored as browsers anchor it (resvg reads
 * text-anchor as if every text ran left to right).
 */
function forResvg(svg: string, segments: Segment[][], internalName: ReadonlyMap<string, string>): string {
  const primaryOf = (stack: string): string =>
    [...new Set(stackNames(decodeXmlText(stack)).flatMap((name) => internalName.get(editorFamilyOf(name) ?? '') ?? []))].join(', ') || internalName.get(DEFAULT_FAMILY)!;
  let at = 0;
  return svg.replace(/<text\b([^>]*)>([\s\S]*?)<\/text>/g, (_whole, attributes: string, content: string) => {
    const runSegments = segments[at++] ?? [];
    const stack = /\sfont-family="([^"]*)"/.exec(attributes)?.[1] ?? '';
    const primary = primaryOf(stack);
    let tag = attributes.replace(/\sfont-family="[^"]*"/, ` font-family="${primary}"`);
    if (!/\sfont-family=/.test(tag)) tag += ` font-family="${primary}"`;
    if (/\sdirection="rtl"/.test(tag)) {
      const anchor = /\stext-anchor="(\w+)"/.exec(tag)?.[1] ?? 'start';
      const swapped = anchor === 'end' ? 'start' : anchor === 'start' ? 'end' : anchor;
      tag = tag.replace(/\stext-anchor="\w+"/, '') + ` text-anchor="${swapped}"`;
    }
    if (/</.test(content)) return `<text${tag}>${content}</text>`;
    const primaryFirst = primary.split(', ')[0];
    const body = runSegments
      .map(({ text, face }) => {
        const family = face?.face.internalFamily;
        return family === undefined || family === primaryFirst ? escapeXml(text) : `<tspan font-family="${escapeXml(family)}">${escapeXml(text)}</tspan>`;
      })
      .join('');
    return `<text${tag}>${body}</text>`;
  });
}

/**
 * Renders an SVG document to a PNG exactly 1024 pixels wide (or as the
 * options' width or scale ask) with the chosen fonts (and no system font: the
 * output does not depend on the machine).
 */
export async function rasterize(svg: string, fonts: EditorFontFiles, options: RenderOptions = {}): Promise<Buffer> {
  // resvg takes the first loaded face of a family, and for a character that face lacks, the first loaded
  // face that has it: fontFilesFor gives the faces in exactly that order (stack families first, the face
  // drawing most of a family's text first, then the fallbacks), and the default face goes last.
  const { faces, segments } = await chooseFonts(svgTextRuns(svg), fonts.fontsDirectory, 'monochrome');
  const defaultFace = editorFontFaces().find((face) => face.family === DEFAULT_FAMILY)!;
  const defaultFile = await fonts.face(defaultFace);
  const internalName = new Map<string, string>();
  for (const { candidate, face } of faces) if (!internalName.has(candidate.family)) internalName.set(candidate.family, face.internalFamily);
  if (!internalName.has(DEFAULT_FAMILY)) internalName.set(DEFAULT_FAMILY, defaultFile.internalFamily);
  // Text in the faces resvg cannot shape becomes one private-use character per glyph (see glyph-addressed.ts).
  const glyphAddressed = new Map(faces.filter(({ candidate }) => candidate.shapedForResvg).map((face) => [face, glyphAddressedCopy(face.face.path)]));
  for (const runSegments of segments) {
    for (const segment of runSegments) {
      if (segment.face === null || !glyphAddressed.has(segment.face)) continue;
      let text = '';
      for (const word of segment.text.split(/(\s+)/)) text += word === '' || /^\s+$/.test(word) ? word : await glyphCodes(word, segment.face.face.path);
      segment.text = text;
    }
  }
  const mapped = forResvg(sizeForPng(svg, options), segments, internalName);
  const paths = [...new Set([...faces.map((face) => glyphAddressed.get(face) ?? face.face.path), defaultFile.path])];
  const resvg = new Resvg(mapped, {
    font: { loadSystemFonts: false, fontFiles: paths, defaultFontFamily: internalName.get(DEFAULT_FAMILY)! },
    imageRendering: 0,
    shapeRendering: 2,
    textRendering: 1,
  });
  const image = resvg.render();
  return encodePng(image.pixels, image.width, image.height);
}
