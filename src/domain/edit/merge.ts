/**
 * Building the merged scene: a copy-on-write view of the scene that existing
 * elements are copied into the first time they change and new elements are
 * appended to, with the changes `updateNodes` makes to existing nodes and the
 * elements of each new node.
 */
import type { Box } from '../layout/types.ts';
import { planNode } from '../scene/node-plan.ts';
import { boundTextArea, labelPosition, nodeElements, textElement } from '../scene/factory.ts';
import type { Point } from '../scene/geometry.ts';
import { isPlainObject } from '../payload.ts';
import { type ExcalidrawElement, FONT_FAMILY_EXCALIFONT, FONT_SIZE, indexKeyFor, isIndexKey } from '../scene/elements.ts';
import { getLineHeight, isKnownFontFamily, measureText, wrapText } from '../text/metrics.ts';
import { type BoxShape, fail, type NewNode, type NodeUpdate } from './fragment.ts';
import { fitLabelInContainer, type LabelMisfit, type TextAlign, type VerticalAlign } from './label-fit.ts';
import { elementBox, nearestSide, num, polylineOf, type Scene } from './scene-index.ts';
import { type SceneElement, touch, type WriteStamp } from './types.ts';

/** Keys after every index in the scene, one per element appended (indexKeyFor), so appended elements sort last. */
/** Index keys for new elements, each after the last key the scene holds and the one given before it. */
export function indexKeysAfter(elements: readonly SceneElement[]): (id: string) => string {
  let last: string | null = null;
  for (const element of elements) if (isIndexKey(element.index) && (last === null || element.index > last)) last = element.index;
  return (id) => (last = indexKeyFor(id, last));
}

/** Copy-on-write view of the scene: existing elements are copied the first time they change. */
export class Merge {
  private readonly changed = new Map<string, SceneElement>();
  private readonly createdById = new Map<string, ExcalidrawElement>();
  readonly created: ExcalidrawElement[] = [];
  private readonly nextIndex: (id: string) => string;

  private readonly scene: Scene;
  readonly now: number;
  constructor(scene: Scene, now: number) {
    this.scene = scene;
    this.now = now;
    this.nextIndex = indexKeysAfter(scene.elements);
  }

  get(id: string): SceneElement | undefined {
    return this.createdById.get(id) ?? this.changed.get(id) ?? this.scene.live.get(id);
  }

  /** The element to change: a new element itself, or a copy of an existing one. */
  edit(id: string): SceneElement {
    const own = this.createdById.get(id) ?? this.changed.get(id);
    if (own) return own;
    const copy = { ...this.scene.live.get(id)! };
    this.changed.set(id, copy);
    return copy;
  }

  create(element: ExcalidrawElement): ExcalidrawElement {
    element.index = this.nextIndex(element.id);
    this.created.push(element);
    this.createdById.set(element.id, element);
    return element;
  }

  bind(id: string, ref: { id: string; type: 'text' | 'arrow' }): void {
    const element = this.edit(id);
    element.boundElements = [...(Array.isArray(element.boundElements) ? element.boundElements : []), ref];
  }

  result(stamp: WriteStamp): { elements: SceneElement[]; merged: number } {
    const elements = this.scene.elements.map((element) => {
      const copy = this.changed.get(element.id);
      return copy && this.scene.live.get(element.id) === element ? touch(copy, stamp) : element;
    });
    return { elements: [...elements, ...this.created], merged: this.created.length + this.changed.size };
  }
}

const VERTICAL_ALIGNS = new Set(['top', 'middle', 'bottom']);
const TEXT_ALIGNS = new Set(['left', 'center', 'right']);

/** How a new label fits a node's shape as it stands (its label's font and alignment, its icon): the one rule updateNodes applies. */
function labelFitIn(scene: Scene, node: SceneElement, label: SceneElement | null, text: string) {
  const icon = scene.live.get(`${node.id}-icon`);
  // A node drawn with an icon has its label below it (sceneFromSpec's layout).
  const verticalAlign = label && VERTICAL_ALIGNS.has(label.verticalAlign as string) ? (label.verticalAlign as VerticalAlign) : icon ? 'bottom' : 'middle';
  const fontFamily = label && isKnownFontFamily(num(label.fontFamily)) ? num(label.fontFamily) : FONT_FAMILY_EXCALIFONT;
  const fontSize = label && num(label.fontSize) > 0 ? num(label.fontSize) : FONT_SIZE;
  const textAlign = label && TEXT_ALIGNS.has(label.textAlign as string) ? (label.textAlign as TextAlign) : 'center';
  const fit = fitLabelInContainer({
    label: text,
    shape: node.type as BoxShape,
    box: elementBox({ ...node, angle: 0 }),
    fontSize,
    fontFamily,
    textAlign,
    verticalAlign,
    icon: icon && icon.type === 'image' ? elementBox(icon) : null,
  });
  return { fit, fontSize, fontFamily, textAlign, verticalAlign };
}

/** Whether `text` fits the node `id` in place, as updateNodes would fit it (a free text always does). */
export function labelFitsInPlace(scene: Scene, id: string, text: string): boolean {
  const node = scene.live.get(id);
  if (!node || node.type === 'text') return true;
  return labelFitIn(scene, node, scene.labels.get(id) ?? null, text).fit.fits;
}

export function applyUpdate(merge: Merge, scene: Scene, update: NodeUpdate): void {
  const node = merge.edit(update.id);
  if (update.strokeColor !== null) node.strokeColor = update.strokeColor;
  if (update.backgroundColor !== null) node.backgroundColor = update.backgroundColor;
  if (update.fillStyle !== null) node.fillStyle = update.fillStyle;
  const existingLabel = scene.labels.get(update.id);
  if (existingLabel && update.strokeColor !== null) merge.edit(existingLabel.id).strokeColor = update.strokeColor;
  if (update.label === null) return;
  if (node.type === 'text') {
    relabelText(node, update.label);
    return;
  }
  const label = existingLabel ? merge.edit(existingLabel.id) : null;
  const shape = node.type as BoxShape;
  const { fit, fontSize, fontFamily, textAlign, verticalAlign } = labelFitIn(scene, node, label, update.label);
  if (!fit.fits) return refuseLabel(update, shape, fontSize, fit);
  const { block, position } = fit.label;
  if (!label) {
    const created = merge.create(textElement(`${update.id}-label`, block, position, 0, merge.now, { containerId: update.id, textAlign, verticalAlign, strokeColor: node.strokeColor as string }));
    // textElement draws spec labels, always at FONT_SIZE; this one may have shrunk.
    created.fontSize = fit.label.fontSize;
    merge.bind(update.id, { id: created.id, type: 'text' });
    return;
  }
  Object.assign(label, {
    text: block.text,
    originalText: block.original,
    fontSize: fit.label.fontSize,
    width: block.width,
    height: block.height,
    ...position,
    lineHeight: getLineHeight(fontFamily),
  });
}

/** `updateNodes[0] (id "db").label does not fit the ellipse even at the smallest font size, 12 px (shrunk from 20 px): it needs …` */
function refuseLabel(update: NodeUpdate, shape: BoxShape, fontSize: number, { floor, room }: LabelMisfit): never {
  const sizes = floor.fontSize === fontSize ? `its font size, ${fontSize} px, the smallest it may take` : `the smallest font size, ${floor.fontSize} px (shrunk from ${fontSize} px)`;
  return fail(
    'INVALID_SPEC',
    `${update.named}.label does not fit the ${shape} even at ${sizes}: it needs ${Math.ceil(floor.block.width)} × ${Math.ceil(floor.block.height)} px ` +
      `and the ${shape} leaves ${Math.floor(room.width)} × ${Math.floor(room.height)} px for its label${room.belowIcon ? ' below its icon' : ''}; ` +
      'an edit never resizes a node: shorten the label, or resize the node with patch first',
  );
}

/** A standalone text keeps its top-left corner; an auto-sized one takes its text's width, a fixed-width one wraps in its width. */
function relabelText(element: SceneElement, label: string): void {
  const fontSize = num(element.fontSize) > 0 ? num(element.fontSize) : FONT_SIZE;
  const fontFamily = isKnownFontFamily(num(element.fontFamily)) ? num(element.fontFamily) : FONT_FAMILY_EXCALIFONT;
  const fixedWidth = element.autoResize === false && num(element.width) > 0;
  const text = fixedWidth ? wrapText(label, fontSize, num(element.width), fontFamily) : label;
  const measured = measureText(text, fontSize, fontFamily);
  Object.assign(element, { text, originalText: label, width: fixedWidth ? element.width : measured.width, height: measured.height, lineHeight: getLineHeight(fontFamily) });
}

/** A new node's elements, drawn as sceneFromSpec draws a spec node in its layout box (an icon beside a text node on its left). */
export function addNode(merge: Merge, { node, size }: NewNode, box: Box): void {
  const plan = { ...planNode(node, false, 0), shape: size.shape, width: size.width, height: size.height, label: size.label };
  const drawing = nodeElements(plan, box, { updated: merge.now, nextOrder: () => 0, iconOnTop: false, bound: true });
  for (const element of drawing.elements) merge.create(element);
}

/**
 * A container grown to `box` to hold a new member: its header (a top-aligned
 * label, placed where the scene places it; its icon, beside the label) follows its top edge,
 * and each arrow end on one of its sides moves with that side.
 */
export function growContainer(merge: Merge, scene: Scene, id: string, box: Box): void {
  const container = merge.edit(id);
  const before = elementBox(container);
  Object.assign(container, { x: box.x, y: box.y, width: box.width, height: box.height });
  const label = scene.labels.get(id);
  // The icon sits beside the label (after it, or before it on the right): it moves as the label does, or with the box's corner.
  let shift = { x: box.x - before.x, y: box.y - before.y };
  if (label) {
    const text = merge.edit(label.id);
    const [oldX, oldY] = [num(text.x), num(text.y)];
    const verticalAlign = VERTICAL_ALIGNS.has(text.verticalAlign as string) ? (text.verticalAlign as VerticalAlign) : 'middle';
    const textAlign = TEXT_ALIGNS.has(text.textAlign as string) ? (text.textAlign as TextAlign) : 'center';
    const block = { text: String(text.text ?? ''), original: String(text.originalText ?? ''), width: num(text.width), height: num(text.height) };
    Object.assign(text, labelPosition(boundTextArea('rectangle', box), block, verticalAlign, textAlign));
    shift = { x: num(text.x) - oldX, y: num(text.y) - oldY };
  }
  const icon = scene.live.get(`${id}-icon`);
  if (icon) {
    const moved = merge.edit(icon.id);
    moved.x = num(icon.x) + shift.x;
    moved.y = num(icon.y) + shift.y;
  }
  for (const element of scene.live.values()) {
    if (element.type !== 'arrow') continue;
    const ends = [element.startBinding, element.endBinding].map((binding) => isPlainObject(binding) && binding.elementId === id);
    if (!ends[0] && !ends[1]) continue;
    const points = polylineOf(element);
    for (const [end, index] of [[ends[0], 0], [ends[1], points.length - 1]] as const) {
      const point = points[index];
      if (!end || !point) continue;
      const side = nearestSide(before, point);
      if (side === 'left') point[0] += box.x - before.x;
      else if (side === 'right') point[0] += box.x + box.width - (before.x + before.width);
      else if (side === 'top') point[1] += box.y - before.y;
      else point[1] += box.y + box.height - (before.y + before.height);
    }
    setPolyline(merge.edit(element.id), points);
  }
}

/** An arrow or line along absolute `points`: its origin at the first, its size their extent, as the editor keeps them. */
function setPolyline(element: SceneElement, points: Point[]): void {
  const [x0, y0] = points[0]!;
  const relative = points.map(([x, y]) => [x - x0, y - y0]);
  const xs = relative.map((p) => p[0]!);
  const ys = relative.map((p) => p[1]!);
  Object.assign(element, { x: x0, y: y0, points: relative, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) });
}
