/**
 * SVG → PNG with resvg, using the editor's own fonts (as TrueType files, see
 * font-files.ts). Each render loads only the faces its text needs: Xiaolai,
 * the CJK fallback, is some 200 files; a Latin label needs one small face per
 * family. No system font is ever loaded, so the output does not depend on the
 * machine.
 */
import { Resvg } from '@resvg/resvg-js';
import { type EditorFontFace, editorFontFaces, faceServes } from './editor-fonts.ts';
import type { EditorFontFiles, TrueTypeFace } from './font-files.ts';
import { encodePng } from './png-encode.ts';

/** Every PNG is this many pixels wide, whatever the scene's size. */
export const PNG_WIDTH = 1024;
/** Tall scenes are scaled down to fit this height (centred, 1024 wide still) rather than making a huge image. */
export const MAX_PNG_HEIGHT = 8192;

/** Names used in SVG font stacks that are not the editor's families, and the face that stands in for them. */
const FAMILY_ALIASES: Readonly<Record<string, string>> = {
  Helvetica: 'Liberation Sans',
  Arial: 'Liberation Sans',
  'sans-serif': 'Liberation Sans',
  'Cascadia Code': 'Cascadia',
  Consolas: 'Cascadia',
  'ui-monospace': 'Cascadia',
  monospace: 'Cascadia',
};
const DEFAULT_FAMILY = 'Liberation Sans';

const ENTITY: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Undoes XML escaping in text content or an attribute value. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITY[name] ?? whole;
  });
}

function canonicalFamily(name: string): string | undefined {
  const families = new Set(editorFontFaces().map((face) => face.family));
  if (families.has(name)) return name;
  return FAMILY_ALIASES[name];
}

function stackFamilies(stack: string): string[] {
  return stack
    .split(',')
    .map((name) => name.trim().replace(/^["']|["']$/g, ''))
    .flatMap((name) => canonicalFamily(name) ?? []);
}

/** The text of an SVG and the families its font stacks name (editor names, aliases resolved). */
function textAndFamilies(svg: string): { codePoints: Set<number>; families: Set<string> } {
  const codePoints = new Set<number>();
  for (const match of svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)) {
    for (const char of decodeXmlText(match[1]!.replace(/<[^>]*>/g, ''))) codePoints.add(char.codePointAt(0)!);
  }
  const families = new Set<string>();
  for (const match of svg.matchAll(/font-family="([^"]*)"/g)) for (const family of stackFamilies(decodeXmlText(match[1]!))) families.add(family);
  if (codePoints.size > 0 && [...codePoints].some((cp) => cp >= 0x2e80)) families.add('Xiaolai');
  families.add(DEFAULT_FAMILY);
  return { codePoints, families };
}

/** Rewrites the root element's size to exactly PNG_WIDTH wide, keeping the aspect ratio (capped at MAX_PNG_HEIGHT). */
function sizeForPng(svg: string): string {
  const root = /<svg\b[^>]*>/.exec(svg);
  if (!root) throw new Error('not an SVG document');
  const viewBox = /viewBox="\s*([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(root[0]);
  if (!viewBox) throw new Error('the SVG has no viewBox');
  const [width, height] = [Number(viewBox[3]), Number(viewBox[4])];
  if (!(width > 0 && height > 0)) throw new Error('the SVG has an empty viewBox');
  const pngHeight = Math.min(MAX_PNG_HEIGHT, Math.max(1, Math.round((PNG_WIDTH * height) / width)));
  const tag = root[0]
    .replace(/\s(width|height|preserveAspectRatio)="[^"]*"/g, '')
    .replace(/^<svg/, `<svg width="${PNG_WIDTH}" height="${pngHeight}" preserveAspectRatio="xMidYMin meet"`);
  return svg.slice(0, root.index) + tag + svg.slice(root.index + root[0].length);
}

/**
 * Renders an SVG document to a PNG exactly PNG_WIDTH pixels wide with the
 * editor's fonts (and no system font: the output does not depend on the machine).
 */
export async function rasterize(svg: string, fonts: EditorFontFiles): Promise<Buffer> {
  const { codePoints, families } = textAndFamilies(svg);
  // resvg takes the first loaded face of a family, and for a character that face lacks, the first loaded face
  // that has it: so families go in the order the stacks name them, and within one, the face drawing most of
  // the text goes first (the editor splits some families into faces without declaring their ranges).
  const faces: Array<{ face: EditorFontFace; ttf: TrueTypeFace; drawn: number }> = [];
  for (const family of families) {
    const ofFamily: typeof faces = [];
    for (const face of editorFontFaces().filter((candidate) => candidate.family === family)) {
      if (family !== DEFAULT_FAMILY && ![...codePoints].some((cp) => faceServes(face, cp))) continue;
      const ttf = await fonts.face(face);
      const drawn = [...codePoints].filter((cp) => faceServes(face, cp) && ttf.characters.has(cp)).length;
      if (drawn > 0 || family === DEFAULT_FAMILY) ofFamily.push({ face, ttf, drawn });
    }
    faces.push(...ofFamily.sort((a, b) => b.drawn - a.drawn));
  }
  const internalName = new Map(faces.map(({ face, ttf }) => [face.family, ttf.internalFamily]));
  const mapped = sizeForPng(svg).replace(/font-family="([^"]*)"/g, (_whole, stack: string) => {
    const names = stackFamilies(decodeXmlText(stack)).flatMap((family) => internalName.get(family) ?? []);
    return `font-family="${[...new Set(names)].join(', ') || internalName.get(DEFAULT_FAMILY)}"`;
  });
  const resvg = new Resvg(mapped, {
    font: { loadSystemFonts: false, fontFiles: faces.map(({ ttf }) => ttf.path), defaultFontFamily: internalName.get(DEFAULT_FAMILY)! },
    imageRendering: 0,
    shapeRendering: 2,
    textRendering: 1,
  });
  const image = resvg.render();
  return encodePng(image.pixels, image.width, image.height);
}
