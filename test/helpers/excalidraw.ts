/**
 * The Excalidraw editor's own `restore`, run in Node, as the oracle for
 * "a generated scene opens in the editor unchanged".
 *
 * @excalidraw/excalidraw is a browser bundle. Importing its main export
 * (dist/prod/index.js) in Node needs, found by elimination:
 * - a module hook sending `@excalidraw/laser-pointer` to its ESM build: the
 *   package's `main` is a CommonJS bundle whose named exports Node cannot see;
 * - globals read while the bundle loads: `window` (and `window.location`),
 *   `document`, `navigator`, `devicePixelRatio`, `Element`, taken from jsdom;
 * - a stub 2D canvas context: the bundle probes one at load time, and jsdom
 *   has none without the native `canvas` package;
 * - a stub `FontFace`, which the editor's font registry constructs the first
 *   time it is asked for a family's line height (creating text, or restoring
 *   text without a lineHeight). Nothing is ever loaded through it.
 * Text the editor measures in Node (newTextElement, wrapping, restore with
 * refreshDimensions) is measured with Drawbridge's font metrics
 * (src/domain/text/metrics.ts) through the editor's
 * setCustomTextMetricsProvider, instead of the stub.
 */
import assert from 'node:assert/strict';
import { createRequire, register } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { FONT_FAMILY, getLineWidth } from '../../src/domain/text/metrics.ts';

/** The few members of the editor's module these helpers use. */
export interface ExcalidrawModule {
  restoreElements(
    elements: readonly unknown[] | null,
    localElements: readonly unknown[] | null,
    options?: { repairBindings?: boolean; refreshDimensions?: boolean },
  ): any[];
  convertToExcalidrawElements(skeletons: readonly unknown[], options?: { regenerateIds?: boolean }): any[];
  setCustomTextMetricsProvider(provider: { getLineWidth(text: string, fontString: string): number }): void;
}

interface JsdomModule {
  JSDOM: new (html: string, options: { url: string }) => { window: any };
}

const LASER_POINTER_HOOKS = `
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (specifier !== '@excalidraw/laser-pointer') return resolved;
  return { ...resolved, url: resolved.url.replace(/cjs\\.js$/, 'esm.js'), format: 'module', shortCircuit: true };
}
export async function load(url, context, nextLoad) {
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
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    navigator: window.navigator,
    devicePixelRatio: 1,
    Element: window.Element,
    FontFace: StubFontFace,
  };
  for (const [name, value] of Object.entries(globals)) {
    // defineProperty: newer Node versions define `navigator` as a getter.
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
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
    register(`data:text/javascript,${encodeURIComponent(LASER_POINTER_HOOKS)}`);
    installBrowserGlobals();
    // A specifier in a variable: TypeScript would otherwise type-check the package's React-heavy declarations.
    const specifier = '@excalidraw/excalidraw';
    const excalidraw = (await import(specifier)) as ExcalidrawModule;
    excalidraw.setCustomTextMetricsProvider({ getLineWidth: measureFontString });
    return excalidraw;
  })();
  return editor;
}

export interface RestoreOptions {
  /**
   * Also re-wrap and re-measure every text element with the editor's own
   * algorithm (fed Drawbridge's metrics), as the editor does when a label is
   * edited. Opening a file does not do this.
   */
  refreshDimensions?: boolean;
}

/**
 * Runs the editor's restoreElements on a deep copy of the elements, the way
 * the editor restores a scene it opens from a file or from initialData
 * (repairBindings on, refreshDimensions off unless asked for).
 */
export async function restoreElements(elements: unknown[], options: RestoreOptions = {}): Promise<any[]> {
  const excalidraw = await loadExcalidraw();
  return excalidraw.restoreElements(structuredClone(elements), null, {
    repairBindings: true,
    refreshDimensions: options.refreshDimensions ?? false,
  });
}

/** Fields restore must leave alone, grouped by what they mean. */
const CHECKED_FIELDS = {
  identity: ['type', 'isDeleted', 'index'],
  geometry: ['width', 'height', 'x', 'y', 'angle', 'points'],
  bindings: ['startBinding', 'endBinding', 'boundElements', 'containerId'],
  text: ['text', 'originalText', 'fontSize', 'fontFamily', 'lineHeight', 'textAlign', 'verticalAlign', 'autoResize'],
  arrowheads: ['startArrowhead', 'endArrowhead', 'elbowed'],
} as const;

/** Compared as JSON would store them: -0 is 0, an undefined field is an absent one. */
function asStored(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function describe(element: any): string {
  return `element ${JSON.stringify(element?.id)} (${element?.type})`;
}

/**
 * The first way restore changed the scene, or null: a repeated id, an element
 * dropped or added, or a checked field (see CHECKED_FIELDS) that differs, per
 * id, in the input's order.
 */
export function firstRestoreDifference(before: readonly any[], after: readonly any[]): string | null {
  const originalIds = new Set<unknown>();
  for (const element of before) {
    if (originalIds.has(element.id)) return `${describe(element)} repeats an id: restore gives the repeat a new random id`;
    originalIds.add(element.id);
  }
  const restoredById = new Map(after.map((element) => [element.id, element]));
  for (const original of before) {
    const restored = restoredById.get(original.id);
    if (!restored) return `${describe(original)} was dropped by restore`;
    for (const [group, fields] of Object.entries(CHECKED_FIELDS)) {
      for (const field of fields) {
        const [was, is] = [asStored(original[field]), asStored(restored[field])];
        if (!isDeepStrictEqual(was, is)) {
          return `${describe(original)}: restore changed ${group} field "${field}" from ${JSON.stringify(was)} to ${JSON.stringify(is)}`;
        }
      }
    }
  }
  const added = after.find((element) => !originalIds.has(element.id));
  if (added) return `restore added ${describe(added)}`;
  if (after.length !== before.length) return `restore turned ${before.length} elements into ${after.length}`;
  return null;
}

/**
 * Asserts that the editor's restore keeps every element, adds none, and
 * changes no geometry, binding, text or arrowhead field of any of them;
 * fails with the first difference. Returns the restored elements.
 */
export async function assertSurvivesRestore(elements: any[], options: RestoreOptions = {}): Promise<any[]> {
  const restored = await restoreElements(elements, options);
  const difference = firstRestoreDifference(elements, restored);
  if (difference) assert.fail(difference);
  return restored;
}
