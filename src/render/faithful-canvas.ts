/**
 * The faithful renderer's PNG and PDF: the editor's own canvas exporter
 * (`exportToCanvas`: the same roughjs strokes, seeds and fonts as its SVG
 * export, drawn straight onto the context) running on a Skia canvas from
 * @napi-rs/canvas, in the faithful render worker. For a PNG it draws onto a
 * raster canvas; for a PDF onto the page of a Skia PDF document, so shapes
 * stay vector and text stays text.
 */
import { type Canvas, createCanvas, PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import { registerFonts } from './canvas-fonts.ts';
import { fontFilesFor } from './fonts/index.ts';
import { type ExcalidrawModule, withCanvasFactory } from './editor-runtime.ts';
import type { FaithfulScene } from './faithful-scene.ts';
import type { BinaryFile } from './image-files.ts';
import { exportLook, type ExportLook, pngSize } from './options.ts';
import type { RenderJob } from './types.ts';
import type { TextRun } from './embed-fonts.ts';
import { encodeCanvasPng } from './png-encode.ts';
import { keepVector, RecordingCanvas, replayingRecordings } from './pdf-page.ts';

/** The editor's font strings: its family, then its fallbacks (Xiaolai after Excalifont only, the emoji font after all). */
const FONT_STACKS: Readonly<Record<number, string>> = {
  1: 'Virgil, Segoe UI Emoji',
  2: 'Helvetica, Segoe UI Emoji',
  3: 'Cascadia, Segoe UI Emoji',
  5: 'Excalifont, Xiaolai, Segoe UI Emoji',
  6: 'Nunito, Segoe UI Emoji',
  7: 'Lilita One, Segoe UI Emoji',
  8: 'Comic Shanns, Segoe UI Emoji',
  9: 'Liberation Sans, Segoe UI Emoji',
};
const HELVETICA_STACK = FONT_STACKS[2]!;

/** A 1×1 transparent PNG: what an image whose file is not in the scene draws (the SVG export leaves such images out). */
const NOTHING_TO_DRAW = createCanvas(1, 1).toDataURL('image/png');

/** The text the exporter will draw, with the font stack it draws it in: labels, frame names, embed placeholders. */
function textRuns(elements: readonly any[]): TextRun[] {
  const runs: TextRun[] = [];
  for (const element of elements) {
    if (element.isDeleted) continue;
    if (element.type === 'text') runs.push({ fontFamily: FONT_STACKS[element.fontFamily] ?? FONT_STACKS[5]!, text: String(element.text) });
    else if (element.type === 'frame' || element.type === 'magicframe') {
      runs.push({ fontFamily: HELVETICA_STACK, text: element.name ?? (element.type === 'frame' ? 'Frame' : 'AI Frame') });
    } else if (element.type === 'iframe' || element.type === 'embeddable') {
      runs.push({ fontFamily: HELVETICA_STACK, text: element.type === 'iframe' ? 'IFrame element' : element.link || 'Empty Web-Embed' });
    }
  }
  return runs;
}

/** Every image's file, an empty one for those whose file is not in the scene (drawn as nothing, as in the SVG). */
function filesForCanvas(elements: readonly any[], files: Record<string, BinaryFile>): Record<string, BinaryFile> {
  const all = { ...files };
  for (const element of elements) {
    if (element.type !== 'image' || element.isDeleted || typeof element.fileId !== 'string' || element.fileId in all) continue;
    all[element.fileId] = { id: element.fileId, mimeType: 'image/png', dataURL: NOTHING_TO_DRAW, created: 1 };
  }
  return all;
}

/** A Skia canvas that passes for the DOM's: the exporter sets `dir` on it and checks whether it is in the document. */
function domCanvas(width = 300, height = 150): Canvas {
  return Object.assign(createCanvas(width, height), { setAttribute: () => undefined, isConnected: true, remove: () => undefined });
}

/**
 * Bold and italic labels (customData fontWeight "bold" / fontStyle "italic",
 * which the editor's text has no field for): the exporter sets the context's
 * font from a text's size and family only, so a marked text's size is nudged
 * by 1/1024 px (bold), 2/1024 (italic) or 3/1024 (both) and the font string
 * of that size is drawn with the weight and slant.
 */
const FACE_STEP = 1 / 1024;
function markFaces(elements: readonly any[]): any[] {
  return elements.map((e) => {
    if (e.type !== 'text' || typeof e.fontSize !== 'number') return e;
    const mark = (e.customData?.fontWeight === 'bold' ? 1 : 0) + (e.customData?.fontStyle === 'italic' ? 2 : 0);
    return mark === 0 ? e : { ...e, fontSize: e.fontSize + mark * FACE_STEP };
  });
}
function withFace(font: string): string {
  const size = /^(\d+(?:\.\d+)?)px /.exec(font);
  if (!size) return font;
  const steps = Number(size[1]) / FACE_STEP;
  if (Math.abs(steps - Math.round(steps)) > 1e-6) return font;
  const mark = Math.round(steps) % 4;
  if (mark === 0) return font;
  return `${mark & 2 ? 'italic ' : ''}${mark & 1 ? 'bold ' : ''}${font}`;
}

/** Makes the context draw the editor's font strings with the fonts registered for this render. */
function withFontResolution(context: SKRSContext2D, resolveFont: (font: string) => string): SKRSContext2D {
  const font = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(context), 'font')!;
  Object.defineProperty(context, 'font', {
    configurable: true,
    get: () => font.get!.call(context),
    set: (value: string) => font.set!.call(context, resolveFont(value)),
  });
  // The language picks glyph variants and fallbacks; fixed, so the output does not follow the host's locale.
  context.lang = 'en';
  return context;
}

/**
 * Runs the editor's canvas exporter. `target(width, height, created, adopt)`
 * answers, for a drawing of that many scene pixels, the size of the canvas
 * to draw on and the scale; `created` is the canvas the exporter made for it
 * and `adopt` readies a context for the render's fonts. The canvases the
 * exporter makes while it draws (an arrow with a label is drawn on one first,
 * the label's place cleared out of it) are RecordingCanvases (pdf-page.ts),
 * replayed where they are drawn: no bitmap the size of an arrow at the
 * exporter's scale 1, which for a long arrow of a large scene shrunk to a PNG
 * was tens of thousands of pixels across. With `recordAll`, the target is one
 * too (the PDF page takes its place).
 */
async function drawScene(
  editor: ExcalidrawModule,
  scene: FaithfulScene,
  fontsDirectory: string,
  look: ExportLook,
  recordAll: boolean,
  target: (width: number, height: number, created: unknown, adopt: (context: SKRSContext2D) => SKRSContext2D) => { width: number; height: number; scale: number },
): Promise<void> {
  const registered = registerFonts(await fontFilesFor(textRuns(scene.elements), fontsDirectory));
  const resolveFont = (font: string) => withFace(registered(font));
  const adopt = (context: SKRSContext2D) => withFontResolution(context, resolveFont);
  scene = { ...scene, elements: markFaces(scene.elements) };
  let lastCreated: unknown;
  let targetMade = false;
  const createCanvas = () => {
    if (recordAll || targetMade) return (lastCreated = new RecordingCanvas(adopt));
    const canvas = domCanvas();
    const getContext = canvas.getContext.bind(canvas);
    let context: SKRSContext2D | undefined;
    canvas.getContext = ((kind: string) => (kind === '2d' ? (context ??= replayingRecordings(adopt(getContext('2d')))) : null)) as Canvas['getContext'];
    return (lastCreated = canvas);
  };
  await withCanvasFactory(createCanvas, () =>
    editor.exportToCanvas({
      elements: scene.elements,
      appState: look.appState,
      exportPadding: look.exportPadding,
      ...(scene.exportingFrame ? { exportingFrame: scene.exportingFrame } : {}),
      files: filesForCanvas(scene.elements, scene.files),
      // Called right after the exporter creates its canvas: that one is the target.
      getDimensions: (width, height) => {
        targetMade = true;
        return target(width, height, lastCreated, adopt);
      },
    }),
  );
}

/** The scene as a PNG, sized for the options (options.ts, pngSize). */
export async function renderCanvasPng(editor: ExcalidrawModule, scene: FaithfulScene, job: RenderJob): Promise<Buffer> {
  const look = exportLook(job.options);
  let drawn: Canvas | undefined;
  let size = { width: 0, height: 0 };
  await drawScene(editor, scene, job.fontsDirectory, look, false, (width, height, created) => {
    size = pngSize(width, height, job.options);
    const scale = Math.min(size.width / width, size.height / height);
    drawn = created as Canvas;
    // A scene scaled down to fit the height is drawn narrower than the PNG, then centred across it.
    return { width: Math.min(size.width, Math.max(1, Math.round(width * scale))), height: size.height, scale };
  });
  let png = drawn!;
  if (png.width !== size.width) {
    png = createCanvas(size.width, size.height);
    png.getContext('2d').drawImage(drawn!, Math.floor((size.width - drawn!.width) / 2), 0);
  }
  if (look.underlay !== null) {
    const context = png.getContext('2d');
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.filter = 'none';
    context.globalCompositeOperation = 'destination-over';
    context.fillStyle = look.underlay;
    context.fillRect(0, 0, png.width, png.height);
    context.restore();
  }
  return encodeCanvasPng(png);
}

/**
 * The scene as a PDF of one page the size of the drawing (1 scene pixel = 1
 * point), drawn by the same exporter onto the page's canvas: vector shapes,
 * text as text.
 */
export async function renderCanvasPdf(editor: ExcalidrawModule, scene: FaithfulScene, job: RenderJob): Promise<Buffer> {
  const document = new PDFDocument({ creator: 'Drawbridge', producer: 'Drawbridge (Skia/PDF)' });
  const look = exportLook(job.options);
  await drawScene(editor, scene, job.fontsDirectory, look, true, (width, height, created, adopt) => {
    // The exporter sizes its canvas, then asks it for its context: the page, begun at the drawing's size.
    const canvas = created as RecordingCanvas;
    let page: SKRSContext2D | undefined;
    canvas.getContext = (kind: string) => {
      if (kind !== '2d') return null;
      if (!page) {
        page = keepVector(adopt(document.beginPage(canvas.width, canvas.height) as unknown as SKRSContext2D));
        Object.defineProperty(page, 'canvas', { value: canvas, configurable: true });
        // Without a background the exporter first clears the canvas: a new page is clear already, and
        // clearing would paint it. The dark theme's underlay goes there instead, outside the theme filter.
        const clearRect = page.clearRect.bind(page);
        let cleared = false;
        page.clearRect = (x: number, y: number, w: number, h: number) => {
          if (cleared) return clearRect(x, y, w, h);
          cleared = true;
          if (look.underlay === null) return;
          page!.save();
          page!.filter = 'none';
          page!.fillStyle = look.underlay;
          page!.fillRect(x, y, w, h);
          page!.restore();
        };
      }
      return page;
    };
    return { width, height, scale: 1 };
  });
  document.endPage();
  return document.close();
}
