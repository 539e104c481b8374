/**
 * Render options (docs/rendering.md, "Options"): which go together, their
 * normalised form (what a cache key holds), and what both renderers
 * draw from them: the editor's export settings (exportLook), the part of the
 * scene drawn (exportSelection), and the size of the PNG and the SVG.
 *
 * Pure functions: no HTTP, no DOM, no editor. The editor's own export
 * functions take what exportLook and exportSelection return.
 */
import type { RenderOptionsQuery } from '../api/render-options.ts';
import { EXPORT_PADDING, type RenderOptions } from './types.ts';

/** The PNG width without `width` or `scale`. */
const DEFAULT_PNG_WIDTH = 1024;
/** A PNG is never taller than this many times its width (a tall scene is scaled down to fit, centred). */
const MAX_PNG_ASPECT = 8;
/** A PNG never holds more pixels than this (4096 × 4096): a larger one is scaled down to fit. */
const MAX_PNG_PIXELS = 4096 * 4096;

/** The editor's dark theme as a CSS filter: the editor exports dark mode by drawing the light scene through it. */
export const THEME_FILTER = 'invert(93%) hue-rotate(180deg)';
/** The background the editor's dark export shows: its white canvas seen through THEME_FILTER. */
const DARK_BACKGROUND = '#121212';
const LIGHT_BACKGROUND = '#ffffff';

/** Two options that may not be asked together: the message says which (400 bad_request at the edge). */
export class InvalidRenderOption extends Error {}

/** Ids in `elements` or `frame` that name nothing the scene draws, or a frame id that is not a frame (400 invalid_selection). */
export class InvalidSelection extends Error {}

/**
 * The options a query asks for, each already checked and converted by RenderOptionsQuery (src/api):
 * two options that exclude each other (`width` with `scale`, `elements` with `frame`) throw
 * InvalidRenderOption. Options at their default value are left out, so the same picture always
 * has the same options.
 */
export function renderOptionsOf(query: RenderOptionsQuery): RenderOptions {
  if (query.width !== undefined && query.scale !== undefined) throw new InvalidRenderOption('give width or scale, not both');
  if (query.elements !== undefined && query.frame !== undefined) throw new InvalidRenderOption('give elements or frame, not both');
  const options: RenderOptions = {};
  if (query.width !== undefined) options.width = query.width;
  if (query.scale !== undefined) options.scale = query.scale;
  if (query.padding !== undefined) options.padding = query.padding;
  if (query.theme === 'dark') options.theme = 'dark';
  if (query.background !== undefined) options.background = query.background;
  if (query.elements !== undefined) options.elementIds = query.elements;
  if (query.frame !== undefined) options.frameId = query.frame;
  return normaliseRenderOptions(options);
}

/** The options with every default left out (scale 1 included: it is the default size only for SVGs, so it stays). */
function normaliseRenderOptions(options: RenderOptions): RenderOptions {
  const normal: RenderOptions = {};
  if (options.width !== undefined) normal.width = options.width;
  if (options.scale !== undefined) normal.scale = options.scale;
  if (options.padding !== undefined && options.padding !== EXPORT_PADDING) normal.padding = options.padding;
  const dark = options.theme === 'dark';
  if (dark) normal.theme = 'dark';
  if (options.background !== undefined && options.background !== (dark ? DARK_BACKGROUND : LIGHT_BACKGROUND)) normal.background = options.background;
  if (options.elementIds !== undefined) normal.elementIds = [...new Set(options.elementIds)].sort();
  if (options.frameId !== undefined) normal.frameId = options.frameId;
  return normal;
}

/** The options as one string for a cache key: '' for the defaults, the same string for the same picture. */
export function renderOptionsKey(options: RenderOptions | undefined): string {
  const normal = normaliseRenderOptions(options ?? {});
  return Object.keys(normal).length === 0 ? '' : JSON.stringify(normal, Object.keys(normal).sort());
}

/** What the editor's export functions take for a look: their appState fields and exportPadding. */
export interface ExportLook {
  appState: { exportBackground: boolean; viewBackgroundColor: string; exportWithDarkMode: boolean; exportEmbedScene: false };
  exportPadding: number;
  /**
   * A colour to paint under the whole drawing, outside the dark theme's
   * filter: set only in the dark theme with a background asked for, so that
   * the image shows exactly that colour (the editor would draw it through the
   * filter). When set, appState.exportBackground is false.
   */
  underlay: string | null;
}

/**
 * The editor's export settings for these options: exportBackground,
 * viewBackgroundColor and exportWithDarkMode in appState, and exportPadding
 * (both renderers, and exportToSvg / exportToCanvas, take these).
 * The defaults are the editor's own: a white background, 10 px of padding,
 * the light theme; the dark theme's default background is the editor's dark
 * export (its white canvas through the theme filter, #121212).
 */
export function exportLook(options: RenderOptions = {}): ExportLook {
  const dark = options.theme === 'dark';
  const exportPadding = options.padding ?? EXPORT_PADDING;
  const appState = (exportBackground: boolean, viewBackgroundColor: string) => ({ exportBackground, viewBackgroundColor, exportWithDarkMode: dark, exportEmbedScene: false as const });
  const background = options.background;
  if (background === 'transparent') return { appState: appState(false, LIGHT_BACKGROUND), exportPadding, underlay: null };
  if (!dark) return { appState: appState(true, background ?? LIGHT_BACKGROUND), exportPadding, underlay: null };
  if (background === undefined || background === DARK_BACKGROUND) return { appState: appState(true, LIGHT_BACKGROUND), exportPadding, underlay: null };
  // The canvas colour (outlined arrowheads are filled with it) is the one that looks like `background` through the filter.
  return { appState: appState(false, colourBeforeThemeFilter(background)), exportPadding, underlay: background };
}

/** An `#rrggbb` colour through THEME_FILTER, as browsers compute it (sRGB, the Filter Effects matrices). */
export function throughThemeFilter(colour: string): string {
  return toHex(hueRotate180(rgbOf(colour).map((c) => 0.93 * (1 - c) + 0.07 * c) as Rgb));
}

/** The colour that THEME_FILTER turns into `colour` (as close as the filter can reach). */
export function colourBeforeThemeFilter(colour: string): string {
  // hue-rotate(180deg) is its own inverse; invert(93%) maps c to 0.93 - 0.86 c.
  return toHex(hueRotate180(rgbOf(colour)).map((c) => (0.93 - c) / 0.86) as Rgb);
}

type Rgb = [number, number, number];

function rgbOf(colour: string): Rgb {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1] ?? 'ffffff';
  return [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}

/** feColorMatrix type="hueRotate" values="180" (cos = -1, sin = 0). */
function hueRotate180([r, g, b]: Rgb): Rgb {
  return [-0.574 * r + 1.43 * g + 0.144 * b, 0.426 * r + 0.43 * g + 0.144 * b, 0.426 * r + 1.43 * g - 0.856 * b];
}

/**
 * THEME_FILTER as SVG filter primitives (the Filter Effects spec defines
 * invert() and hue-rotate() as exactly these), so the dark theme looks the
 * same in every browser and in resvg, which draw a CSS filter on an SVG's root
 * differently or not at all. `id` names the filter; its region is the
 * whole document, `width` × `height` (the viewBox's size, at 0 0).
 */
export function themeFilter(id: string, width: number, height: number): SvgNode {
  const invert = ['R', 'G', 'B'].map((channel) => ({ name: `feFunc${channel}`, attributes: { type: 'table', tableValues: '0.93 0.07' }, children: [] }));
  return {
    name: 'filter',
    attributes: { id, x: '0', y: '0', width: String(width), height: String(height), filterUnits: 'userSpaceOnUse', 'color-interpolation-filters': 'sRGB' },
    children: [
      { name: 'feComponentTransfer', attributes: {}, children: invert },
      { name: 'feColorMatrix', attributes: { type: 'hueRotate', values: '180' }, children: [] },
    ],
  };
}

/** An SVG element as data: written as markup by the fast writer, built as elements on the editor's export. */
export interface SvgNode {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: readonly SvgNode[];
}

/** themeFilter as markup (its values are Drawbridge's own: nothing to escape). */
export function themeFilterMarkup(id: string, width: number, height: number): string {
  const write = ({ name, attributes, children }: SvgNode): string => {
    const written = Object.entries(attributes).map(([key, value]) => ` ${key}="${value}"`).join('');
    return children.length === 0 ? `<${name}${written}/>` : `<${name}${written}>${children.map(write).join('')}</${name}>`;
  };
  return write(themeFilter(id, width, height));
}

/** What a selection is made of: the fields of a stored (or restored) element it reads. */
export interface SelectableElement {
  id: string;
  type: string;
  isDeleted?: boolean;
  containerId?: string | null;
  frameId?: string | null;
}

export interface ExportSelection<E> {
  /** The elements to hand to the exporter. */
  elements: E[];
  /** The frame to export as the editor exports a frame (exportToSvg's and exportToCanvas's `exportingFrame`); null for none. */
  exportingFrame: E | null;
}

const isFrameType = (type: string) => type === 'frame' || type === 'magicframe';

/**
 * The part of the scene to draw (non-deleted elements only):
 * - no `elementIds` nor `frameId`: everything, as today;
 * - `elementIds`: those elements, the text bound to them, and what the frames
 *   among them hold (as the editor exports a selection);
 * - `frameId`: the frame as the editor exports a frame: `exportingFrame` is
 *   set, and the exporter crops to the frame (no padding, no frame outline or
 *   name, its children clipped).
 * An id that names no drawn element (unknown, deleted), or a frame id that is
 * not a frame, throws InvalidSelection naming it.
 */
export function exportSelection<E extends SelectableElement>(elements: readonly E[], options: RenderOptions = {}): ExportSelection<E> {
  const drawn = elements.filter((element) => element.isDeleted !== true);
  if (options.frameId !== undefined) {
    const frame = drawn.find((element) => element.id === options.frameId);
    if (!frame) throw new InvalidSelection(`frame ${JSON.stringify(options.frameId)} names no element of this diagram`);
    if (!isFrameType(frame.type)) throw new InvalidSelection(`frame ${JSON.stringify(options.frameId)} is a ${frame.type}, not a frame`);
    return { elements: drawn, exportingFrame: frame };
  }
  if (options.elementIds === undefined) return { elements: drawn, exportingFrame: null };
  const ids = new Set(drawn.map((element) => element.id));
  const unknown = options.elementIds.filter((id) => !ids.has(id));
  if (unknown.length > 0) {
    const listed = unknown.slice(0, 5).map((id) => JSON.stringify(id)).join(', ');
    throw new InvalidSelection(`elements names ${unknown.length === 1 ? 'an id' : `${unknown.length} ids`} that no element of this diagram has: ${listed}${unknown.length > 5 ? ', …' : ''}`);
  }
  const selected = new Set(options.elementIds);
  const frames = new Set(drawn.filter((element) => selected.has(element.id) && isFrameType(element.type)).map((element) => element.id));
  const inFrame = (element: E) => element.frameId != null && frames.has(element.frameId);
  const chosen = new Set(drawn.filter((element) => selected.has(element.id) || inFrame(element)).map((element) => element.id));
  const boundToChosen = (element: E) => element.type === 'text' && element.containerId != null && chosen.has(element.containerId);
  return { elements: drawn.filter((element) => chosen.has(element.id) || boundToChosen(element)), exportingFrame: null };
}

/**
 * The elements to draw for the options, the stored list itself when the
 * options name no part of the scene (so a render without them is what it was).
 * A frame's cropping is the exporter's: see exportSelection.
 */
export function selectedElements<E extends SelectableElement>(elements: E[], options: RenderOptions = {}): E[] {
  if (options.elementIds === undefined && options.frameId === undefined) return elements;
  return exportSelection(elements, options).elements;
}

/**
 * The PNG's size in pixels for a drawing `width` × `height` (scene px, padding
 * included). Default: DEFAULT_PNG_WIDTH wide. `width`: that wide. `scale`: the
 * drawing's size times the scale. Then, whichever: a PNG taller than
 * MAX_PNG_ASPECT times its width, or of more than MAX_PNG_PIXELS pixels, is
 * scaled down to fit (the drawing centred across a too-tall one's width).
 * `fit` is the drawing's size within that canvas.
 */
export function pngSize(width: number, height: number, options: RenderOptions = {}): { width: number; height: number } {
  if (options.scale !== undefined) {
    const fit = Math.min(options.scale, Math.sqrt(MAX_PNG_PIXELS / (width * height)));
    return { width: Math.max(1, Math.round(width * fit)), height: Math.max(1, Math.round(height * fit)) };
  }
  const pngWidth = options.width ?? DEFAULT_PNG_WIDTH;
  const maxHeight = Math.min(MAX_PNG_ASPECT * pngWidth, Math.floor(MAX_PNG_PIXELS / pngWidth));
  return { width: pngWidth, height: Math.min(maxHeight, Math.max(1, Math.round((pngWidth * height) / width))) };
}

/**
 * The width and height attributes of an SVG's root for a drawing `width` ×
 * `height` (its viewBox, unchanged): `width` makes it that wide (the height
 * follows), `scale` multiplies both; null without either (the drawing's own size).
 */
function svgSize(width: number, height: number, options: RenderOptions = {}): { width: number; height: number } | null {
  if (options.width !== undefined) return { width: options.width, height: round2((options.width * height) / width) };
  if (options.scale !== undefined) return { width: round2(width * options.scale), height: round2(height * options.scale) };
  return null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** An SVG document with its root's width and height set for the options (svgSize); unchanged without width or scale. */
export function sizedSvg(svg: string, options: RenderOptions = {}): string {
  if (options.width === undefined && options.scale === undefined) return svg;
  const root = /<svg\b[^>]*>/.exec(svg);
  const viewBox = root && /viewBox="\s*[-\d.e]+[\s,]+[-\d.e]+[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(root[0]);
  if (!root || !viewBox) return svg;
  const size = svgSize(Number(viewBox[1]), Number(viewBox[2]), options);
  if (!size) return svg;
  const tag = root[0].replace(/\s(width|height)="[^"]*"/g, '').replace(/^<svg/, `<svg width="${size.width}" height="${size.height}"`);
  return svg.slice(0, root.index) + tag + svg.slice(root.index + root[0].length);
}
