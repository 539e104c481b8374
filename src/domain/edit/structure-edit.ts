/**
 * New boxes in a class or ER diagram: drawn in compartments as the diagram's
 * own (a class's attributes and methods, an entity's attributes as a table),
 * placed beside what they connect to as any new node is; new arrows between
 * boxes become relations. The diagram's kind is read from its boxes.
 */
import { type CompartmentPlan, compartmentElements, type Compartments, planCompartments } from '../scene/compartments.ts';
import type { ExcalidrawElement } from '../scene/elements.ts';
import { nodeElements } from '../scene/factory.ts';
import { planNode } from '../scene/node-plan.ts';
import { generics } from '../structure/class-spec.ts';
import { attributeRow } from '../structure/er-spec.ts';
import type { NewNode } from './fragment.ts';
import type { Merge } from './merge.ts';
import type { SceneElement } from './types.ts';

/** What kind of boxes a scene's diagram is made of: `class`, `entity`, or null for neither. */
export function structureKindOf(elements: readonly SceneElement[]): 'class' | 'entity' | null {
  for (const e of elements) {
    const kind = (e.customData as { structure?: unknown } | undefined)?.structure;
    if (!e.isDeleted && (kind === 'class' || kind === 'entity')) return kind;
  }
  return null;
}

/** A new box's compartments, from the edit's attributes and methods. */
export function compartmentsOf(kind: 'class' | 'entity', raw: { attributes?: string[]; methods?: string[] }): Compartments {
  if (kind === 'class') return { sections: [(raw.attributes ?? []).map((a) => [generics(a)]), (raw.methods ?? []).map((m) => [generics(m)])] };
  const rows = (raw.attributes ?? []).map((a) => attributeRow(a) ?? [a]);
  return { sections: rows.length === 0 ? [] : [rows] };
}

/** Sizes a new node to its compartments (before it is placed). */
export function sizeInCompartments(node: NewNode, compartments: Compartments): CompartmentPlan {
  const plan = planCompartments(node.size.label, compartments);
  node.size = { ...node.size, shape: 'rectangle', width: plan.width, height: plan.height };
  return plan;
}

/** Draws a new box in compartments at its place, tagged as the diagram's boxes are. */
export function addBoxInCompartments(merge: Merge, { node, size }: NewNode, box: { x: number; y: number; width: number; height: number }, plan: CompartmentPlan, compartments: Compartments, kind: 'class' | 'entity'): void {
  const nodePlan = { ...planNode(node, false, 0), shape: size.shape, width: size.width, height: size.height, label: size.label };
  const drawing = nodeElements(nodePlan, box, { updated: merge.now, nextOrder: () => 0, iconOnTop: false, bound: true });
  const shape = drawing.shape as ExcalidrawElement;
  const label = drawing.elements.find((e) => e.id === `${node.id}-label`) ?? null;
  const parts = compartmentElements(node.id, box, plan, compartments, shape, label, () => 0, merge.now);
  shape.customData = { ...(shape.customData as object | undefined), structure: kind };
  for (const element of [...drawing.elements, ...parts]) merge.create(element);
}
