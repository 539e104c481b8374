/**
 * The peers for the Mermaid kinds besides flowcharts (sequenceDiagram,
 * classDiagram, erDiagram), both in headless Chromium:
 * - Mermaid's renderer (the `mermaid` package's browser bundle, as in
 *   mermaid-peer.ts): its SVG at its natural size, the lines it drew for
 *   messages and relations, the boxes it drew for participants, classes and
 *   entities, and a PNG of it;
 * - Excalidraw's own Mermaid converter (@excalidraw/mermaid-to-excalidraw,
 *   what the editor's "Mermaid to Excalidraw" dialog runs, bundled for the
 *   page with esbuild at start-up), its element skeletons turned into
 *   elements by the editor's convertToExcalidrawElements, run in Node
 *   (src/render/editor-runtime.ts) so that labels are measured with
 *   Drawbridge's font metrics, as the editor does with its fonts loaded. By
 *   default it is handed class and ER drawings with the ids it expects: with
 *   the Mermaid installed here it would otherwise give up on both (see
 *   UNPREFIXED_IDS_MERMAID).
 * Kept out of the server: they are what the bench compares Drawbridge's
 * import of these kinds against. Needs Debian's chromium (CHROMIUM_PATH,
 * default /usr/bin/chromium). The first converter call loads the editor's
 * package into this process (about 1.5 s, process-wide globals).
 *
 * `node --import tsx bench/quality/kinds-peers.ts [--as-installed]` runs a
 * self-check on bench/quality/kinds/*.mmd, or on three built-in samples.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { loadExcalidraw } from '../../src/render/editor-runtime.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface PeerDrawing {
  /** Mermaid's own SVG drawing, at its natural size: width and height in px (from the SVG's viewBox). */
  width: number;
  height: number;
  /** The viewBox's top-left corner, in SVG px (a sequence diagram's is (-50, -10); class and ER diagrams' (0, 0)). */
  x: number;
  y: number;
  /** Each edge / message / relation line Mermaid drew, as a polyline in SVG px (paths sampled every ~8 px; lines as their two ends). */
  lines: Array<Array<[number, number]>>;
  /** Each box Mermaid drew for a participant, class or entity (their bounding boxes in SVG px): { x, y, width, height }. */
  boxes: Array<{ x: number; y: number; width: number; height: number }>;
  /**
   * PNG screenshot of the drawing (at most `width` px wide, never scaled up), as mermaid-peer.ts makes it,
   * but of the SVG alone, without a margin: a point (px, py) in SVG px is at ((px - x), (py - y)) × png width / width.
   */
  png: Buffer;
}

export interface KindsPeers {
  /** Mermaid's renderer (the mermaid package's browser bundle) on the text. */
  mermaid(text: string, maxWidth: number): Promise<PeerDrawing>;
  /**
   * Excalidraw's Mermaid converter on the text: its elements after the editor's
   * convertToExcalidrawElements, as plain JSON objects, or null when it gives no
   * elements but a picture (kinds it does not parse, or when its parser throws).
   */
  excalidraw(text: string): Promise<Record<string, unknown>[] | null>;
  close(): Promise<void>;
}

/** The global the converter's bundle defines in the page. */
const CONVERTER_GLOBAL = 'MermaidToExcalidraw';

/**
 * What the converter is handed in place of `mermaid`: the same module, but its
 * class and ER drawings come back with the element ids Mermaid gave them up to
 * 11.13. Since 11.14 (mermaid-js/mermaid#7526) Mermaid prefixes every id in a
 * drawing with the drawing's own id ("m3-entity-CUSTOMER-0"); the converter's
 * class and ER parsers look the unprefixed ids up ("entity-CUSTOMER-0"), fail,
 * and fall back to an image of the SVG (excalidraw/mermaid-to-excalidraw#112,
 * whose fix pins Mermaid 11.12.1, the version its lockfile is tested with).
 * Only `id` attributes change; the drawing is Mermaid's own. Other drift it
 * does not undo: a class related to itself is one path since 11.14, where the
 * converter looks for three ("…-cyclic-special-1", "-mid", "-2"), so such
 * class diagrams still come back as an image.
 */
const UNPREFIXED_IDS_MERMAID = `
import mermaid from 'mermaid';
const unprefixed = Object.create(mermaid);
unprefixed.render = async (id, text, container) => {
  const result = await mermaid.render(id, text, container);
  if (!/aria-roledescription="(classDiagram|er)"/.test(result.svg)) return result;
  return { ...result, svg: result.svg.replaceAll('id="' + id + '-', 'id="') };
};
export default unprefixed;
`;

/**
 * Bundles @excalidraw/mermaid-to-excalidraw (and the mermaid it imports) into
 * one browser script defining `window.MermaidToExcalidraw.parseMermaidToExcalidraw`.
 * The package ships ES modules only, for a bundler; this is that bundler. About 2 s.
 */
async function bundleConverter(directory: string, unprefixedIds: boolean): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(directory, 'mermaid-to-excalidraw.js');
  const shim = 'unprefixed-ids';
  await build({
    stdin: { contents: "export { parseMermaidToExcalidraw } from '@excalidraw/mermaid-to-excalidraw';", resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: CONVERTER_GLOBAL,
    platform: 'browser',
    minify: true,
    outfile,
    logLevel: 'error',
    plugins: unprefixedIds
      ? [
          {
            name: shim,
            setup(bundler) {
              // The converter's `mermaid` → the shim; the shim's own `mermaid` → the real one.
              bundler.onResolve({ filter: /^mermaid$/ }, (args) => (args.namespace === shim ? undefined : { path: 'mermaid', namespace: shim }));
              bundler.onLoad({ filter: /.*/, namespace: shim }, () => ({ contents: UNPREFIXED_IDS_MERMAID, resolveDir: import.meta.dirname, loader: 'js' }));
            },
          },
        ]
      : [],
  });
  return outfile;
}

/**
 * tsx compiles this file with esbuild's keepNames, which wraps named inner functions in
 * `__name(fn, "name")`; Playwright sends a function's compiled source to the page, so the page needs it.
 */
const KEEP_NAMES_SHIM = 'globalThis.__name = (target) => target';

/** What the page measures of Mermaid's drawing (everything but the PNG). */
type Measured = Omit<PeerDrawing, 'png'>;

/**
 * Runs in the page: draws `source` with Mermaid into #out at its natural width
 * (no wider than `most`) and reads its lines and boxes back, in the SVG's user
 * space (the viewBox's coordinates), whatever the scale it is shown at.
 */
async function drawAndMeasure([source, name, most]: readonly [string, string, number]): Promise<Measured> {
  const mermaid = (window as any).mermaid;
  const out = document.getElementById('out')!;
  const { svg } = await mermaid.render(name, source);
  out.innerHTML = svg;
  const drawn = out.querySelector('svg')!;
  const view = drawn.viewBox.baseVal;
  const natural = view && view.width ? view : { x: 0, y: 0, width: drawn.getBoundingClientRect().width, height: drawn.getBoundingClientRect().height };
  // As mermaid-peer.ts: Mermaid sizes its SVG to the container; fix it to its natural width, no wider than asked.
  drawn.style.maxWidth = 'none';
  drawn.setAttribute('width', String(Math.min(natural.width, most)));
  drawn.removeAttribute('height');

  // An element's own coordinates → the root SVG's user space: through the screen, which takes in
  // every transform of the groups on the way (Mermaid places class and entity nodes with translate()).
  const fromScreen = drawn.getScreenCTM()!.inverse();
  const toRoot = (element: SVGGraphicsElement) => fromScreen.multiply(element.getScreenCTM()!);
  const round = (value: number) => Math.round(value * 100) / 100;
  const at = (matrix: DOMMatrix, x: number, y: number): [number, number] => {
    const point = new DOMPoint(x, y).matrixTransform(matrix);
    return [round(point.x), round(point.y)];
  };
  const polyline = (element: SVGGeometryElement): Array<[number, number]> => {
    const matrix = toRoot(element);
    if (element instanceof SVGLineElement) {
      return [at(matrix, element.x1.baseVal.value, element.y1.baseVal.value), at(matrix, element.x2.baseVal.value, element.y2.baseVal.value)];
    }
    const length = element.getTotalLength();
    const steps = Math.max(1, Math.ceil(length / 8));
    return Array.from({ length: steps + 1 }, (_, i) => {
      const point = element.getPointAtLength((length * i) / steps);
      return at(matrix, point.x, point.y);
    });
  };
  const box = (element: SVGGraphicsElement) => {
    const b = element.getBBox();
    const matrix = toRoot(element);
    const corners = [at(matrix, b.x, b.y), at(matrix, b.x + b.width, b.y), at(matrix, b.x, b.y + b.height), at(matrix, b.x + b.width, b.y + b.height)];
    const xs = corners.map(([x]) => x);
    const ys = corners.map(([, y]) => y);
    const [x, y] = [Math.min(...xs), Math.min(...ys)];
    return { x, y, width: round(Math.max(...xs) - x), height: round(Math.max(...ys) - y) };
  };
  const all = <T extends Element>(selector: string) => [...new Set(drawn.querySelectorAll<T & Element>(selector))];
  // A class or entity node's box is its outline (the group also holds labels, which may stick out).
  const outline = (node: SVGGraphicsElement) => node.querySelector<SVGGraphicsElement>(':scope > .label-container, :scope > .outer-path') ?? node;
  const byX = (a: SVGGraphicsElement, b: SVGGraphicsElement) => box(a).x - box(b).x;

  let lines: SVGGeometryElement[] = [];
  let boxes: SVGGraphicsElement[] = [];
  switch (drawn.getAttribute('aria-roledescription')) {
    case 'sequence': {
      lines = all('.messageLine0, .messageLine1');
      // Participants are drawn at the top and again at the bottom (mirrorActors): a rect for a
      // participant, a group for the other shapes (actor's stick figure, database…), top row first.
      const row = (which: string) =>
        all<SVGGraphicsElement>(`.${which}`)
          .filter((element) => !element.parentElement?.closest('.actor-top, .actor-bottom'))
          .sort(byX);
      boxes = [...row('actor-top'), ...row('actor-bottom')];
      break;
    }
    case 'classDiagram':
      // Every edge path: relations, and the dotted links of notes.
      lines = all('.edgePaths path, path.relation');
      // Mermaid 11's nodes; notes are nodes too (ids "…-note0"), not classes.
      boxes = all<SVGGraphicsElement>('g.node[id*="classId-"]').map(outline);
      if (boxes.length === 0) boxes = all('.classGroup');
      break;
    case 'er':
      lines = all('.edgePaths path, path.relationshipLine');
      boxes = all<SVGGraphicsElement>('g.node[id*="entity-"]').map(outline);
      if (boxes.length === 0) boxes = all('.er.entityBox');
      break;
    default:
      throw new Error(`kinds-peers reads sequence, class and ER diagrams; Mermaid drew a "${drawn.getAttribute('aria-roledescription')}"`);
  }
  return { width: natural.width, height: natural.height, x: natural.x, y: natural.y, lines: lines.map(polyline), boxes: boxes.map(box) };
}

export interface KindsPeersOptions {
  /**
   * Hand the converter Mermaid's class and ER drawings with unprefixed element
   * ids, as the converter expects (see UNPREFIXED_IDS_MERMAID). Default true;
   * false runs it exactly as installed, where with Mermaid ≥ 11.14 class and ER
   * diagrams come back as an image (null).
   */
  unprefixedIds?: boolean;
}

export async function startKindsPeers(options: KindsPeersOptions = {}): Promise<KindsPeers> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Mermaid's renderer runs in chromium, expected at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const mermaidBundle = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-kinds-peers-'));
  // Bundling (~2 s) runs while Chromium starts and loads Mermaid (~2 s); each page takes ~1 s to load its 3 MB script.
  const bundling = bundleConverter(scratch, options.unprefixedIds ?? true);
  bundling.catch(() => undefined); // awaited below; not unhandled if the launch fails first
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const opening = browser;
    // One page each: the converter initializes its own Mermaid with its own settings (font size 20 px).
    const [renderer, converter] = await Promise.all([
      (async () => {
        const page = await opening.newPage({ viewport: { width: 2400, height: 1600 } });
        await page.setContent('<!doctype html><html><body style="margin:0;background:#fff"><div id="out" style="display:inline-block"></div></body></html>');
        await page.evaluate(KEEP_NAMES_SHIM);
        await page.addScriptTag({ path: mermaidBundle });
        await page.evaluate(() => (window as any).mermaid.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict' }));
        return page;
      })(),
      (async () => {
        const page = await opening.newPage({ viewport: { width: 2400, height: 1600 } });
        await page.setContent('<!doctype html><html><body style="margin:0;background:#fff"></body></html>');
        await page.evaluate(KEEP_NAMES_SHIM);
        await page.addScriptTag({ path: await bundling });
        return page;
      })(),
    ]);

    const opened = browser;
    let sequence = 0;
    // The renderer draws into one #out: a call's drawing must stay there until its screenshot is taken.
    let drawing: Promise<unknown> = Promise.resolve();
    return {
      mermaid(text, maxWidth) {
        const draw = async () => {
          const measured = await renderer.evaluate(drawAndMeasure, [text, `k${++sequence}`, maxWidth] as const);
          const png = await renderer.locator('#out > svg').screenshot({ type: 'png' });
          return { ...measured, png };
        };
        const drawn = drawing.then(draw, draw);
        drawing = drawn;
        return drawn;
      },
      async excalidraw(text) {
        const result = await converter.evaluate(
          async ([source, global]) => {
            const { parseMermaidToExcalidraw } = (window as any)[global];
            let parsed;
            // As the editor's "Mermaid to Excalidraw" dialog: on failure, once more with " turned into '.
            try {
              parsed = await parseMermaidToExcalidraw(source);
            } catch {
              parsed = await parseMermaidToExcalidraw(source.replace(/"/g, "'"));
            }
            const { elements, files } = parsed as { elements: Array<{ type: string }>; files?: Record<string, unknown> };
            // Kinds it does not parse (or whose parser throws) come back as one image of Mermaid's SVG.
            const picture = Object.keys(files ?? {}).length > 0 || elements.some((element) => element.type === 'image');
            return picture ? null : elements;
          },
          [text, CONVERTER_GLOBAL] as const,
        );
        if (result === null || result.length === 0) return null;
        const excalidraw = await loadExcalidraw();
        const elements = excalidraw.convertToExcalidrawElements(result, { regenerateIds: false });
        return JSON.parse(JSON.stringify(elements)) as Record<string, unknown>[];
      },
      async close() {
        await opened.close();
        fs.rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await bundling.catch(() => undefined); // let esbuild finish writing before its directory goes
    fs.rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

// ─── Self-check ──────────────────────────────────────────────────────────────

const SAMPLES = [
  'sequenceDiagram\n  Alice->>+Bob: Hi\n  loop every minute\n    Bob-->>Alice: ok\n  end\n  Note over Alice,Bob: done',
  'classDiagram\n  Animal <|-- Dog\n  class Animal{\n    +String name\n    +eat() void\n  }\n  Car "1" *-- "4" Wheel',
  'erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  CUSTOMER {\n    string name PK\n  }',
];

/** bench/quality/kinds/*.mmd when there are any, else the built-in samples. */
function selfCheckSources(): Array<{ name: string; text: string }> {
  const directory = path.join(import.meta.dirname, 'kinds');
  const files = fs.existsSync(directory) ? fs.readdirSync(directory).filter((file) => file.endsWith('.mmd')).sort() : [];
  if (files.length > 0) return files.map((file) => ({ name: file, text: fs.readFileSync(path.join(directory, file), 'utf8') }));
  return SAMPLES.map((text) => ({ name: text.split('\n')[0]!, text }));
}

async function selfCheck(): Promise<void> {
  let started = performance.now();
  const peers = await startKindsPeers({ unprefixedIds: !process.argv.includes('--as-installed') });
  const ms = () => {
    const now = performance.now();
    const spent = Math.round(now - started);
    started = now;
    return `${spent} ms`;
  };
  console.log(`started in ${ms()}`);
  try {
    for (const { name, text } of selfCheckSources()) {
      const drawing = await peers.mermaid(text, 800);
      const drawn = ms();
      const elements = await peers.excalidraw(text);
      const converted = ms();
      const types = new Map<string, number>();
      for (const element of elements ?? []) types.set(String(element.type), (types.get(String(element.type)) ?? 0) + 1);
      const tally = [...types].map(([type, count]) => `${type} ${count}`).join(', ');
      console.log(`${name}
  mermaid (${drawn}): ${drawing.width} × ${drawing.height}, ${drawing.lines.length} lines, ${drawing.boxes.length} boxes, png ${drawing.png.length} bytes
  converter (${converted}): ${elements === null ? 'an image (null)' : `${elements.length} elements: ${tally}`}`);
    }
  } finally {
    await peers.close();
  }
}

// import.meta.main is Node 24's (22.18+); the project's @types/node (20) does not declare it yet.
if ((import.meta as ImportMeta & { main?: boolean }).main) await selfCheck();
