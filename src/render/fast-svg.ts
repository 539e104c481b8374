/**
 * The fast preview renderer: a stored scene (the editor's `elements`, no
 * files, no appState) to an SVG string, without the editor. Plain strokes,
 * system fonts, placeholders for images and embeds, arrows with their heads,
 * text placed as the editor's exporter places it, in a document sized like
 * exportToSvg's. A pure function: the same elements always give the same bytes.
 *
 * Everything from the scene is read through fast/element.ts (checked,
 * defaulted) and written through fast/xml.ts (escaped), so no scene string can
 * add markup, and the output never references anything outside itself.
 */
import { type FastElement, isTransparent, type Point, safeColour } from './fast/element.ts';
import { freedrawMarkup, linearMarkup } from './fast/linear.ts';
import { Defs, elementTransform } from './fast/paint.ts';
import { clippingFrame, type DrawItem, readScene, type Scene } from './fast/scene.ts';
import { embedPlaceholderMarkup, frameMarkup, imageMarkup, imagePlaceholderMarkup, shapeMarkup } from './fast/shapes.ts';
import { textMarkup } from './fast/text.ts';
import { num, tag } from './fast/xml.ts';
import { themeFilterMarkup } from './options.ts';

export interface FastSvgOptions {
  /** Default '#ffffff'; 'transparent' for none. */
  background?: string;
  /** The canvas colour outlined arrowheads are filled with (the editor's viewBackgroundColor); default the background, white when that is transparent. */
  canvas?: string;
  /** Default 10, the editor's export padding (none when exporting a frame, as the editor). */
  padding?: number;
  /** Draw through the editor's dark theme filter (exportWithDarkMode). */
  dark?: boolean;
  /** A colour painted under everything, outside the dark theme's filter (options.ts, exportLook); `background` is then the canvas colour seen through the filter. */
  underlay?: string | null;
  /** Export this frame as the editor exports a frame: cropped to it, no padding (render option `frame`). */
  exportingFrameId?: string;
  /**
   * The data: URL of an image element's file, for images to draw rather than
   * stand in for (dashboard thumbnails draw catalog icons); undefined keeps the placeholder.
   */
  imageData?: (fileId: string) => string | undefined;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const THEME_FILTER_ID = 'theme-dark';
const DEFAULT_BACKGROUND = '#ffffff';
const DEFAULT_PADDING = 10;

/** The scene bounds the editor's exporter would use: [minX, minY, maxX, maxY] of non-deleted elements (null when nothing is drawable). */
export function sceneBounds(elements: readonly Record<string, unknown>[]): [number, number, number, number] | null {
  return readScene(elements).bounds;
}

export function renderFastSvg(elements: readonly Record<string, unknown>[], options: FastSvgOptions = {}): string {
  const scene = readScene(elements, options.exportingFrameId);
  const padding = scene.exportingFrame ? 0 : typeof options.padding === 'number' && Number.isFinite(options.padding) && options.padding >= 0 ? options.padding : DEFAULT_PADDING;
  const background = safeColour(options.background, DEFAULT_BACKGROUND);
  const underlay = options.underlay ? safeColour(options.underlay, DEFAULT_BACKGROUND) : null;
  const [minX, minY, maxX, maxY] = scene.bounds ?? [0, 0, 0, 0];
  const width = maxX - minX + 2 * padding;
  const height = maxY - minY + 2 * padding;
  const context: DrawContext = {
    scene,
    offset: [padding - minX, padding - minY],
    defs: new Defs(),
    // Outlined arrowheads are filled with the canvas colour, as in the editor.
    canvas: options.canvas !== undefined ? safeColour(options.canvas, DEFAULT_BACKGROUND) : isTransparent(background) ? DEFAULT_BACKGROUND : background,
    imageData: options.imageData ?? (() => undefined),
  };
  const body = scene.items.map((item) => drawItem(item, context));
  const drawing = [isTransparent(background) ? '' : tag('rect', { x: 0, y: 0, width, height, fill: background }), ...body].filter((part) => part !== '');
  const filter = options.dark ? themeFilterMarkup(THEME_FILTER_ID, width, height) : '';
  return [
    `<svg xmlns="${SVG_NS}" version="1.1" viewBox="0 0 ${num(width)} ${num(height)}" width="${num(width)}" height="${num(height)}">`,
    context.defs.markup(filter),
    underlay ? tag('rect', { x: 0, y: 0, width, height, fill: underlay }) : '',
    ...(options.dark ? [`<g filter="url(#${THEME_FILTER_ID})">`, ...drawing, '</g>'] : drawing),
    '</svg>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

interface DrawContext {
  scene: Scene;
  /** Scene to document coordinates. */
  offset: Point;
  defs: Defs;
  canvas: string;
  imageData: (fileId: string) => string | undefined;
}

function drawItem(item: DrawItem, context: DrawContext): string {
  if (item.kind === 'frame-label') return textMarkup(item.label, context.offset);
  const { element } = item;
  const clippedBy = clippingFrame(element, context.scene.frames);
  const markup = drawElement(element, element.opacity * (clippedBy?.opacity ?? 1), context);
  if (!clippedBy || markup === '') return markup;
  // Exporting a frame, the editor clips its children with square corners.
  const corner = context.scene.exportingFrame ? undefined : 8;
  const clip = context.defs.define('clip', clippedBy.id, (id) =>
    tag('clipPath', { id }, tag('rect', { transform: elementTransform(clippedBy, context.offset), width: clippedBy.width, height: clippedBy.height, rx: corner, ry: corner })),
  );
  return tag('g', { 'clip-path': `url(#${clip})` }, markup);
}

function drawElement(element: FastElement, opacity: number, { scene, offset, defs, canvas, imageData }: DrawContext): string {
  switch (element.type) {
    case 'rectangle':
    case 'diamond':
    case 'ellipse':
      return shapeMarkup(element, offset, opacity, defs);
    case 'line':
    case 'arrow': {
      const label = scene.boundTexts.get(element.id)?.[0];
      return linearMarkup(element, { offset, opacity, defs, background: canvas, label: label ? [label.x, label.y, label.x + label.width, label.y + label.height] : null });
    }
    case 'freedraw':
      return freedrawMarkup(element, offset, opacity, defs);
    case 'text': {
      const markup = textMarkup({ ...element, color: element.strokeColor }, offset);
      return opacity === 1 || markup === '' ? markup : tag('g', { opacity }, markup);
    }
    case 'image': {
      const href = element.fileId === null ? undefined : imageData(element.fileId);
      return href === undefined ? imagePlaceholderMarkup(element, offset, opacity) : imageMarkup(element, href, offset, opacity);
    }
    case 'embeddable':
    case 'iframe':
      return embedPlaceholderMarkup(element, offset, opacity);
    case 'frame':
    case 'magicframe':
      return frameMarkup(element, offset);
  }
}
