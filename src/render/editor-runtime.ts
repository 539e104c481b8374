/**
 * The Excalidraw editor's package (@excalidraw/excalidraw), loaded in Node.
 * The faithful renderer runs its exporter with it; the tests use its
 * `restore` as the oracle for "opens in the editor unchanged".
 *
 * The package is a browser bundle. Importing its main export
 * (dist/prod/index.js) in Node needs, found by elimination:
 * - a module hook sending `@excalidraw/laser-pointer` to its ESM build: the
 *   package's `main` is a CommonJS bundle whose named exports Node cannot see;
 *   the same hook resolves what the bundle imports as a bundler (or tsx) would,
 *   and Node's own resolution does not when it runs compiled, without tsx:
 *   a package's file without its `.js` (`roughjs/bin/rough`), a JSON file
 *   without `with { type: 'json' }` (`open-color`);
 * - globals read while the bundle loads: `window` (and `window.location`),
 *   `document`, `navigator`, `devicePixelRatio`, `Element`, taken from jsdom;
 * - a stub 2D canvas context: the bundle probes one at load time, and jsdom
 *   has none without the native `canvas` package;
 * - `Path2D` and `Image` from @napi-rs/canvas (Skia): the editor caches a
 *   freedraw's outline as a Path2D, and its canvas exporter loads images
 *   with `new Image()` and draws both (faithful-canvas.ts);
 * - a `document.fonts` that has every font: the canvas exporter asks it to
 *   load the scene's fonts, which Drawbridge registers with Skia itself
 *   (canvas-fonts.ts);
 * - `document.createElement('canvas')` answering Skia canvases while a
 *   canvas export runs (withCanvasFactory), and jsdom's element with the
 *   stub context otherwise, so the SVG export is unchanged;
 * - a stub `FontFace`, which the editor's font registry constructs the first
 *   time it is asked for a family's line height (creating text, or restoring
 *   text without a lineHeight). Nothing is ever loaded through it.
 * Text the editor measures in Node (newTextElement, wrapping, restore with
 * refreshDimensions) is measured with Drawbridge's font metrics
 * (src/domain/text/metrics.ts) through the editor's
 * setCustomTextMetricsProvider, instead of the stub.
 *
 * Loading takes about 1.5 s and installs process-wide globals: do it in a
 * process of its own (the render workers) or in tests, never in the API server.
 */
import { createRequire, register } from 'node:module';
import { Image, Path2D } from '@napi-rs/canvas';
import { FONT_FAMILY, getLineWidth } from '../domain/text/metrics.ts';

/** The few members of the editor's module Drawbridge uses. */
export interface ExcalidrawModule {
  restoreElements(
    elements: readonly unknown[] | null,
    localElements: readonly unknown[] | null,
    options?: { repairBindings?: boolean; refreshDimensions?: boolean },
  ): any[];
  convertToExcalidrawElements(skeletons: readonly unknown[], options?: { regenerateIds?: boolean }): any[];
  setCustomTextMetricsProvider(provider: { getLineWidth(text: string, fontString: string): number }): void;
  exportToSvg(options: {
    elements: readonly unknown[];
    appState?: Record<string, unknown>;
    files: Record<string, unknown> | null;
    exportPadding?: number;
    skipInliningFonts?: boolean;
  }): Promise<SVGSVGElement>;
  /**
   * Draws the scene onto `document.createElement('canvas')`, sized by getDimensions
   * (the drawing's size in scene pixels → the canvas's size and the scene-to-canvas scale).
   */
  exportToCanvas(options: {
    elements: readonly unknown[];
    appState?: Record<string, unknown>;
    files: Record<string, unknown> | null;
    exportPadding?: number;
    exportingFrame?: unknown;
    getDimensions?: (width: number, height: number) => { width: number; height: number; scale?: number };
  }): Promise<unknown>;
}

interface JsdomModule {
  JSDOM: new (html: string, options: { url: string }) => { window: any };
}

const EDITOR_IMPORT_HOOKS = `
export async function resolve(specifier, context, nextResolve) {
  let resolved;
  try {
    resolved = await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/\\/node_modules\\//.test(context.parentURL ?? '') || /\\.[cm]?js$/.test(specifier)) throw error;
    return nextResolve(specifier + '.js', context);
  }
  if (specifier !== '@excalidraw/laser-pointer') return resolved;
  return { ...resolved, url: resolved.url.replace(/cjs\\.js$/, 'esm.js'), format: 'module', shortCircuit: true };
}
export async function load(url, context, nextLoad) {
  if (url.endsWith('.json') && /\\/node_modules\\//.test(url) && context.importAttributes?.type !== 'json') {
    const loaded = await nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    if (loaded.format !== 'json') return loaded;
    return { format: 'module', source: 'export default ' + String(loaded.source), shortCircuit: true };
  }
  if (!url.endsWith('/@excalidraw/laser-pointer/dist/esm.js')) return nextLoad(url, context);
  return { ...(await nextLoad(url, { ...context, format: 'module' })), format: 'module', shortCircuit: true };
}
`;

class StubFontFace {
  readonly status = 'unloaded';
  readonly family: string;
  readonly unicodeRange: string;
  constructor(family: string, _source: string, descriptors: { unicodeRange?: string } = {}) {
    this.family = family;
    this.unicodeRange = descriptors.unicodeRange ?? 'U+0-10FFFF';
  }
  load(): Promise<this> {
    return Promise.resolve(this);
  }
}

function installBrowserGlobals(): void {
  // jsdom ships no type declarations; the constructor is typed above.
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as JsdomModule;
  const { window } = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/' });
  window.HTMLCanvasElement.prototype.getContext = () => ({ measureText: () => ({ width: 0 }) });
  const document = window.document;
  const createElement = document.createElement.bind(document);
  document.createElement = (name: string, options?: unknown) =>
    canvasFactory !== undefined && String(name).toLowerCase() === 'canvas' ? canvasFactory() : createElement(name, options);
  const everyFontLoaded = { has: () => true, add: () => undefined, check: () => true, load: () => Promise.resolve([]) };
  Object.defineProperty(document, 'fonts', { value: everyFontLoaded, configurable: true });
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    navigator: window.navigator,
    devicePixelRatio: 1,
    Element: window.Element,
    FontFace: StubFontFace,
    Path2D,
    Image,
  };
  for (const [name, value] of Object.entries(globals)) {
    // defineProperty: newer Node versions define `navigator` as a getter.
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
}

let canvasFactory: (() => unknown) | undefined;

/**
 * Runs `draw` with `document.createElement('canvas')` answering `createCanvas()`
 * (a render worker draws one scene at a time; the previous factory is put back after).
 */
export async function withCanvasFactory<T>(createCanvas: () => unknown, draw: () => Promise<T>): Promise<T> {
  const previous = canvasFactory;
  canvasFactory = createCanvas;
  try {
    return await draw();
  } finally {
    canvasFactory = previous;
  }
}

/** "20px Excalifont, Xiaolai, Segoe UI Emoji" → measured with that family's metrics. */
function measureFontString(text: string, fontString: string): number {
  const match = /^([\d.]+)px ([^,]+)/.exec(fontString);
  const family = match ? FONT_FAMILY[match[2] as keyof typeof FONT_FAMILY] : undefined;
  if (!match || family === undefined) throw new Error(`no metrics for the editor's font "${fontString}"`);
  return getLineWidth(text, Number(match[1]), family);
}

let editor: Promise<ExcalidrawModule> | undefined;

/** Imports the editor's package once per process, after setting up what it needs. */
export function loadExcalidraw(): Promise<ExcalidrawModule> {
  editor ??= (async () => {
    // jsdom first: the hooks run on a thread of their own, and every module loaded after them (jsdom's few
    // hundred included) would wait on a round trip to it. The editor's bundle needs them; jsdom does not.
    installBrowserGlobals();
    register(`data:text/javascript,${encodeURIComponent(EDITOR_IMPORT_HOOKS)}`);
    // A specifier in a variable: TypeScript would otherwise type-check the package's React-heavy declarations.
    const specifier = '@excalidraw/excalidraw';
    const excalidraw = (await import(specifier)) as ExcalidrawModule;
    excalidraw.setCustomTextMetricsProvider({ getLineWidth: measureFontString });
    return excalidraw;
  })();
  return editor;
}
