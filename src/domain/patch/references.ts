/**
 * Who refers to whom in the draft, as the cascades ask it: a container's
 * labels, a shape's icons, the arrows bound to a set of elements; and the
 * boundElements back-references kept in step with bindings and labels.
 */
import type { SceneElement } from '../edit/types.ts';
import { isPlainObject } from '../payload.ts';
import type { BoundRef } from '../scene/elements.ts';
import type { Draft } from './draft.ts';
import { absolutePoints, bindingOf, boundRefs, centreOf, ENDS, hasPoints, isInside, isLinear, outlineOf } from './element-geometry.ts';

/** The live text bound to a container: the one its boundElements lists, else any naming it. */
export function labelOf(draft: Draft, containerId: string): SceneElement | undefined {
  const container = draft.get(containerId);
  if (!container) return undefined;
  for (const ref of boundRefs(container)) {
    const text = ref.type === 'text' ? draft.get(ref.id) : undefined;
    if (text?.type === 'text' && text.containerId === containerId) return text;
  }
  return labelsOf(draft, containerId)[0];
}

/** Every live text whose containerId names the element. */
export function labelsOf(draft: Draft, containerId: string): SceneElement[] {
  const ids = draft.relations().labels.get(containerId) ?? [];
  return ids.map((id) => draft.get(id)).filter((text): text is SceneElement => text?.type === 'text' && text.containerId === containerId);
}

/**
 * The images drawn as a shape's icon: grouped with it and centred inside it
 * (sceneFromSpec's icons). They move, resize and delete with the shape.
 */
export function iconsOf(draft: Draft, shape: SceneElement): string[] {
  if (shape.type === 'text' || shape.type === 'image' || hasPoints(shape) || !Array.isArray(shape.groupIds) || shape.groupIds.length === 0) return [];
  const box = outlineOf(shape);
  const icons = new Set<string>();
  for (const group of shape.groupIds as unknown[]) {
    for (const id of draft.relations().images.get(group as string) ?? []) {
      const image = draft.get(id);
      if (image && (image.groupIds as unknown[]).includes(group) && isInside(centreOf(outlineOf(image)), box)) icons.add(id);
    }
  }
  return [...icons];
}

/** Live linear elements bound at an end to one of `ids`, or among them and bound at all. */
export function arrowsBoundTo(draft: Draft, ids: Set<string>): string[] {
  const arrows = new Set<string>();
  const index = draft.relations().arrows;
  for (const id of ids) {
    for (const arrowId of index.get(id) ?? []) {
      const arrow = draft.get(arrowId);
      if (arrow && ENDS.some((end) => bindingOf(arrow, end)?.elementId === id)) arrows.add(arrowId);
    }
    const element = draft.get(id)!;
    if (isLinear(element) && ENDS.some((end) => bindingOf(element, end) !== null)) arrows.add(id);
  }
  return [...arrows];
}

export function addBoundRef(draft: Draft, targetId: string, ref: BoundRef): void {
  const target = draft.get(targetId)!;
  if (boundRefs(target).some((r) => r.id === ref.id)) return;
  const edited = draft.edit(targetId);
  edited.boundElements = [...(Array.isArray(edited.boundElements) ? edited.boundElements : []), ref];
}

export function removeBoundRef(draft: Draft, targetId: string, refId: string): void {
  const target = draft.get(targetId);
  if (!target || !boundRefs(target).some((r) => r.id === refId)) return;
  const edited = draft.edit(targetId);
  edited.boundElements = (edited.boundElements as unknown[]).filter((r) => !(isPlainObject(r) && r.id === refId));
}

/**
 * The lines and dots drawn as part of a shape: in its innermost group and
 * inside its box (sceneFromSpec's outline lines of a cylinder, a hexagon…,
 * and an end marker's dot). They move, resize and delete with the shape, as
 * the editor moves a group together.
 */
export function partsOf(draft: Draft, shape: SceneElement): string[] {
  if (shape.type === 'text' || shape.type === 'image' || hasPoints(shape) || !Array.isArray(shape.groupIds) || typeof shape.groupIds[0] !== 'string') return [];
  const box = outlineOf(shape);
  return (draft.relations().parts.get(shape.groupIds[0]) ?? []).filter((id) => {
    const part = draft.get(id);
    if (id === shape.id || part === undefined) return false;
    // A line's x and y are its first point's, not its box's corner: its extent is its points'.
    const points = hasPoints(part) ? absolutePoints(part) : [];
    const [x1, y1, x2, y2] = points.length > 0
      ? [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[0])), Math.max(...points.map((p) => p[1]))]
      : [outlineOf(part).x, outlineOf(part).y, outlineOf(part).x + outlineOf(part).width, outlineOf(part).y + outlineOf(part).height];
    const inside = x1 >= box.x - 1 && y1 >= box.y - 1 && x2 <= box.x + box.width + 1 && y2 <= box.y + box.height + 1;
    return inside && (x2 - x1) * (y2 - y1) <= box.width * box.height;
  });
}
