/**
 * A stored scene as the editor's exporter sees it: the drawable elements in
 * z-order, each bound text right after its container, embeds last, a name
 * label before each frame, and the bounds of what is not clipped to a frame
 * (exportToSvg: prepareElementsForRender, getRootElements, getCommonBounds).
 */
import { type FastElement, isFrameLike, isIframeLike, readElement } from './element.ts';
import { type Bounds, elementBounds, isFiniteBounds, unionBounds } from './geometry.ts';
import { frameLabel, type TextBlock, textBounds } from './text.ts';

export type DrawItem = { kind: 'element'; element: FastElement } | { kind: 'frame-label'; label: TextBlock };

export interface Scene {
  items: DrawItem[];
  bounds: Bounds | null;
  /** Frames by id: their children are clipped to them and take on their opacity. */
  frames: Map<string, FastElement>;
  /** Texts bound to each container, by container id. */
  boundTexts: Map<string, FastElement[]>;
  /** The frame exported on its own (render option `frame`): the document is cropped to it, frames are neither outlined nor named, and clips have square corners. */
  exportingFrame: FastElement | null;
}

/** The stored order, or the order of the fractional indices when every element has one (the editor's z-order). */
function inZOrder(elements: FastElement[]): FastElement[] {
  if (!elements.every((e) => e.index !== null)) return elements;
  // A stable sort by code units, as fractional indices compare.
  return [...elements].sort((a, b) => (a.index! < b.index! ? -1 : a.index! > b.index! ? 1 : 0));
}

/**
 * `exportingFrameId` exports that frame as the editor does (exportToSvg's
 * `exportingFrame`): what is in it or outside every frame, cropped to it.
 */
export function readScene(raw: readonly unknown[], exportingFrameId?: string): Scene {
  const read: FastElement[] = [];
  for (const candidate of Array.isArray(raw) ? raw : []) {
    const element = readElement(candidate);
    // An element whose geometry overflows to Infinity is dropped rather than stretching the document.
    if (element && isFiniteBounds(elementBounds(element))) read.push(element);
  }
  const all = inZOrder(read);
  const exportingFrame = exportingFrameId === undefined ? null : (all.findLast((e) => e.id === exportingFrameId && isFrameLike(e)) ?? null);
  const elements = exportingFrame ? inFrameExport(all, exportingFrame) : all;
  // As the editor's arrayToMap: the last element with an id wins.
  const byId = new Map(elements.map((e) => [e.id, e]));
  const frames = exportingFrame ? new Map([[exportingFrame.id, exportingFrame]]) : new Map([...byId].filter(([, e]) => isFrameLike(e)));
  const isBoundText = (e: FastElement) => e.type === 'text' && e.containerId !== null && byId.has(e.containerId);
  const boundTexts = new Map<string, FastElement[]>();
  for (const text of elements.filter(isBoundText)) boundTexts.set(text.containerId!, [...(boundTexts.get(text.containerId!) ?? []), text]);

  const items: DrawItem[] = [];
  const labels: TextBlock[] = [];
  // The exporter draws embeds after everything else.
  for (const element of [...elements.filter((e) => !isIframeLike(e)), ...elements.filter(isIframeLike)]) {
    if (isBoundText(element)) continue;
    if (isFrameLike(element)) {
      const label = frameLabel(element);
      labels.push(label);
      items.push({ kind: 'frame-label', label });
    }
    items.push({ kind: 'element', element });
    if (byId.get(element.id) !== element) continue;
    for (const text of boundTexts.get(element.id) ?? []) items.push({ kind: 'element', element: text });
  }

  const bounds = exportingFrame
    ? elementBounds(exportingFrame)
    : unionBounds([...elements.filter((e) => !clippingFrame(e, frames)).map(elementBounds), ...labels.map(textBounds)]);
  return { items, bounds, frames, boundTexts, exportingFrame };
}

/**
 * What the editor draws exporting one frame (getElementsOverlappingFrame):
 * its children, and what overlaps it in no other frame, each with its label
 * or container; no frame itself (the editor's frameRendering.outline is off).
 */
function inFrameExport(elements: FastElement[], frame: FastElement): FastElement[] {
  const [left, top, right, bottom] = elementBounds(frame);
  const overlaps = (e: FastElement) => {
    const [x1, y1, x2, y2] = elementBounds(e);
    return x1 <= right && x2 >= left && y1 <= bottom && y2 >= top;
  };
  const chosen = new Set(elements.filter((e) => !isFrameLike(e) && (e.frameId === frame.id || (e.frameId === null && overlaps(e)))).map((e) => e.id));
  for (const e of elements) if (e.type === 'text' && e.containerId !== null && chosen.has(e.id)) chosen.add(e.containerId);
  return elements.filter((e) => !isFrameLike(e) && (chosen.has(e.id) || (e.type === 'text' && e.containerId !== null && chosen.has(e.containerId))));
}

/** The frame an element is clipped to, if any: its frameId names a frame in the scene (frames themselves are never clipped). */
export function clippingFrame(element: FastElement, frames: Map<string, FastElement>): FastElement | undefined {
  return isFrameLike(element) || element.frameId === null ? undefined : frames.get(element.frameId);
}
