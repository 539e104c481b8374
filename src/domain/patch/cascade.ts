/**
 * What follows when an element moves or changes size: what it carries (labels,
 * icons, a frame's members) goes with it, its label is re-wrapped, and the
 * arrows bound to it are re-routed, moved whole, or unbound. Shared by the
 * move, resize, update and restyle ops, and by add for a new label.
 */
import { isClearOfIcon } from '../edit/label-fit.ts';
import { ICON_GAP } from '../scene/node-plan.ts';
import { boundTextArea } from '../scene/factory.ts';
import type { Outline, Point } from '../scene/geometry.ts';
import { containerSizeForText, wrapText } from '../text/metrics.ts';
import { attachEnd, reroute } from './arrow-routing.ts';
import type { Draft } from './draft.ts';
import { absolutePoints, bindingOf, centreOf, type End, ENDS, FRAMES, isFiniteNumber, num, outlineOf, sameBox, setAbsolutePoints } from './element-geometry.ts';
import { fitLabel, measure, refitArrowLabel, textContainerType, textStyleOf } from './label-layout.ts';
import { arrowsBoundTo, iconsOf, labelOf, labelsOf, partsOf, removeBoundRef } from './references.ts';

/**
 * The map from one box to another: a point inside keeps its place relative to
 * the box; a point outside keeps its distance from the nearest side (so an
 * arrow end keeps its gap and a self-loop its reach).
 */
function boxMap(from: Outline, to: Outline): (p: Point) => Point {
  const coordinate = (v: number, start: number, size: number, newStart: number, newSize: number) => {
    if (v < start) return newStart + (v - start);
    if (v > start + size) return newStart + newSize + (v - start - size);
    return newStart + (size > 0 ? ((v - start) * newSize) / size : 0);
  };
  return ([x, y]) => [coordinate(x, from.x, from.width, to.x, to.width), coordinate(y, from.y, from.height, to.y, to.height)];
}

/** Moves an element so its x/y become those given (either may be absent). */
export function moveTo(draft: Draft, id: string, x: unknown, y: unknown): void {
  const element = draft.get(id)!;
  const dx = isFiniteNumber(x) ? x - num(element.x) : 0;
  const dy = isFiniteNumber(y) ? y - num(element.y) : 0;
  if (dx !== 0 || dy !== 0) translate(draft, id, dx, dy);
}

/**
 * Moves an element with what it carries (its labels, the icons grouped
 * inside it, a frame's members), re-routes the arrows bound to any of those,
 * moves arrows bound at both ends within them, and unbinds the ends of moved
 * arrows whose shapes stay behind.
 */
export function translate(draft: Draft, id: string, dx: number, dy: number): void {
  const carried = carriedWith(draft, id);
  for (const member of carried) shift(draft, member, dx, dy);
  const shiftPoint = ([x, y]: Point): Point => [x + dx, y + dy];
  for (const arrowId of arrowsBoundTo(draft, carried)) {
    const arrow = draft.get(arrowId)!;
    const inside = (end: End) => {
      const binding = bindingOf(arrow, end);
      return binding !== null && carried.has(binding.elementId);
    };
    if (carried.has(arrowId)) {
      for (const end of ENDS) if (bindingOf(arrow, end) && !inside(end)) unbind(draft, arrowId, end);
    } else if (inside('start') && inside('end')) {
      shift(draft, arrowId, dx, dy);
      const label = labelOf(draft, arrowId);
      if (label && !carried.has(label.id)) shift(draft, label.id, dx, dy);
    } else {
      reroute(draft, arrowId, ENDS.filter(inside), shiftPoint);
    }
  }
}

function shift(draft: Draft, id: string, dx: number, dy: number): void {
  const element = draft.edit(id);
  element.x = num(element.x) + dx;
  element.y = num(element.y) + dy;
}

/** The element and everything that moves with it. */
function carriedWith(draft: Draft, id: string): Set<string> {
  const carried = new Set([id]);
  const queue = [id];
  const take = (member: string) => {
    if (carried.has(member)) return;
    carried.add(member);
    queue.push(member);
  };
  while (queue.length > 0) {
    const element = draft.get(queue.pop()!)!;
    for (const label of labelsOf(draft, element.id)) take(label.id);
    if (FRAMES.has(element.type)) for (const member of draft.relations().members.get(element.id) ?? []) if (draft.get(member)?.frameId === element.id) take(member);
    for (const icon of iconsOf(draft, element)) take(icon);
    for (const part of partsOf(draft, element)) take(part);
  }
  return carried;
}

function unbind(draft: Draft, arrowId: string, end: End): void {
  const arrow = draft.edit(arrowId);
  const targetId = bindingOf(arrow, end)!.elementId;
  arrow[`${end}Binding`] = null;
  draft.relationsChanged();
  const other = bindingOf(arrow, end === 'start' ? 'end' : 'start');
  if (other?.elementId !== targetId) removeBoundRef(draft, targetId, arrowId);
}

/**
 * Gives a shape a new size, top-left corner fixed; its label is re-wrapped in
 * it as the editor does (the shape grows when the label cannot fit), its
 * icons keep their place unless the label would cover them, and its arrows
 * are re-attached to the new outline.
 */
export function reshape(draft: Draft, id: string, width: number, height: number): void {
  const before = outlineOf(draft.get(id)!);
  const icons = iconsOf(draft, draft.get(id)!);
  const parts = partsOf(draft, draft.get(id)!);
  const shape = draft.edit(id);
  shape.width = width;
  shape.height = height;
  const label = labelOf(draft, id);
  if (label) fitLabel(draft, label.id);
  followBox(draft, id, before, icons, parts);
  if (label) keepIconsClearOfLabel(draft, id, label.id, icons);
}

/**
 * The editor knows nothing of icons, so the label it fits may cover one. Then
 * the shape grows further, until its text area holds the label and the icons
 * ICON_GAP apart, and the icons move next to the label: above it, as
 * sceneFromSpec draws them, or below a label aligned to the top.
 */
function keepIconsClearOfLabel(draft: Draft, id: string, labelId: string, icons: string[]): void {
  const labelBox = () => outlineOf(draft.get(labelId)!);
  const iconBoxes = () => icons.map((iconId) => outlineOf(draft.get(iconId)!));
  if (iconBoxes().every((icon) => isClearOfIcon(labelBox(), icon))) return;
  const align = draft.get(labelId)!.verticalAlign;
  const stackHeight = (boxes: Outline[]) => Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y));
  // A centred label needs the icons' room on both sides to keep them above it.
  const needed = labelBox().height + (ICON_GAP + stackHeight(iconBoxes())) * (align === 'top' || align === 'bottom' ? 1 : 2);
  const container = draft.get(id)!;
  const type = textContainerType(container.type);
  if (boundTextArea(type, outlineOf(container)).height < needed) {
    const before = outlineOf(container);
    const parts = partsOf(draft, container);
    draft.edit(id).height = containerSizeForText(type, 0, needed).height;
    fitLabel(draft, labelId);
    followBox(draft, id, before, icons, parts);
  }
  const label = labelBox();
  const boxes = iconBoxes();
  const top = Math.min(...boxes.map((b) => b.y));
  const dy = (align === 'top' ? label.y + label.height + ICON_GAP : label.y - ICON_GAP - stackHeight(boxes)) - top;
  for (const iconId of icons) draft.edit(iconId).y = num(draft.get(iconId)!.y) + dy;
}

/** Re-fits a container around its label after the label changed. */
function refit(draft: Draft, containerId: string): void {
  const container = draft.get(containerId)!;
  reshape(draft, containerId, num(container.width), num(container.height));
}

/** After an element's box changed: its icons keep their relative place and its arrows are re-attached. */
function followBox(draft: Draft, id: string, before: Outline, icons: string[], parts: string[] = []): void {
  const after = outlineOf(draft.get(id)!);
  if (sameBox(before, after)) return;
  const map = boxMap(before, after);
  // Outline lines stretch with the box; a marker's dot keeps its size, centred where it was.
  for (const partId of parts) {
    const part = draft.edit(partId);
    if (part.type === 'line') setAbsolutePoints(part, absolutePoints(part).map(map));
    else {
      const [cx, cy] = map(centreOf(outlineOf(part)));
      part.x = cx - num(part.width) / 2;
      part.y = cy - num(part.height) / 2;
    }
  }
  for (const iconId of icons) {
    const icon = draft.edit(iconId);
    const [cx, cy] = map(centreOf(outlineOf(icon)));
    icon.x = cx - num(icon.width) / 2;
    icon.y = cy - num(icon.height) / 2;
  }
  for (const arrowId of arrowsBoundTo(draft, new Set([id]))) {
    const arrow = draft.get(arrowId)!;
    const ends = ENDS.filter((end) => bindingOf(arrow, end)?.elementId === id);
    if (ends.length === 2) scaleLoop(draft, arrowId, map);
    else reroute(draft, arrowId, ends, map);
  }
}

/** An arrow from a shape back to itself scales with the shape, and its ends are re-attached. */
function scaleLoop(draft: Draft, arrowId: string, map: (p: Point) => Point): void {
  const arrow = draft.edit(arrowId);
  let pts = absolutePoints(arrow).map(map);
  if (pts.length < 2) return;
  for (const end of ENDS) pts = attachEnd(draft, arrow, pts, end);
  setAbsolutePoints(arrow, pts);
  refitArrowLabel(draft, arrowId);
}

/**
 * Lays a text out again after its text, font or width changed, as the
 * editor's redrawTextBoundingBox does: a label is re-wrapped in its
 * container (which grows if it must); a standalone text is re-measured,
 * keeping its aligned edge (and, for a font change, its vertical centre).
 */
export function relayoutText(draft: Draft, id: string, change: 'font' | 'content'): void {
  const text = draft.get(id)!;
  const container = typeof text.containerId === 'string' ? draft.get(text.containerId) : undefined;
  if (container) {
    if (container.type === 'arrow') fitLabel(draft, id);
    else refit(draft, container.id);
    return;
  }
  const style = textStyleOf(text);
  if (!style) return;
  const before = outlineOf(text);
  const edited = draft.edit(id);
  if (edited.autoResize === false) {
    edited.text = wrapText(style.original, style.fontSize, num(edited.width), style.fontFamily);
    edited.height = measure(edited.text as string, style.fontSize, style.fontFamily, style.lineHeight).height;
  } else {
    if (typeof edited.text !== 'string' || edited.text === '') edited.text = style.original;
    const size = measure(edited.text as string, style.fontSize, style.fontFamily, style.lineHeight);
    edited.width = size.width;
    edited.height = size.height;
    if (edited.textAlign === 'center') edited.x = before.x + (before.width - size.width) / 2;
    else if (edited.textAlign === 'right') edited.x = before.x + (before.width - size.width);
    if (change === 'font') edited.y = before.y + (before.height - size.height) / 2;
  }
  followBox(draft, id, before, []);
}
