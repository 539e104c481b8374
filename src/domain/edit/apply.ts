/**
 * The additive edit merge behind POST /diagrams/:id/edit (docs/editing.md).
 *
 * Pure: a scene and a fragment in, the merged scene out, or an ApiError that
 * names the offending item (and nothing changed). Existing elements keep their
 * geometry byte for byte, but for a container a new node goes into, which
 * grows to hold it (its header and the ends of its arrows with it); they only
 * gain arrow bindings, or new style and label text from `updateNodes` (a label too big for its node at its font
 * size takes a smaller one: label-fit.ts). New nodes are sized exactly as
 * sceneFromSpec sizes spec nodes and placed beside what they connect to, clear
 * of everything already drawn; new edges are routed around the boxes in their
 * way and bound at both ends.
 */
import { MAX_SCENE_ELEMENTS } from '../scene/validate.ts';
import { createdCount, type EditOptions, fail, parseFragment } from './fragment.ts';
import type { EditFragmentInput } from './schema.ts';
import { addNode, applyUpdate, growContainer, Merge } from './merge.ts';
import { placeNodes } from './placement.ts';
import { addEdges } from './routing.ts';
import { indexScene } from './scene-index.ts';
import { applySequenceEdit, isSequenceScene } from './sequence-edit.ts';
import { addBoxInCompartments, compartmentsOf, sizeInCompartments, structureKindOf } from './structure-edit.ts';
import type { SceneElement, WriteStamp } from './types.ts';

export { EDIT_LIMITS, type EditOptions } from './fragment.ts';

export interface EditResult {
  elements: SceneElement[];
  /** Ids of the new nodes and the new arrows, in fragment order. */
  added: string[];
  /** Ids of the nodes `updateNodes` changed. */
  updated: string[];
  /** How many elements this merge wrote: created plus changed (labels, icons, shapes gaining bindings included). */
  merged: number;
}

/**
 * Merges an edit fragment (`{ addNodes?, addEdges?, updateNodes? }`) that has
 * passed its schema (checkFragment finds the problems of any value) into a scene. Never mutates its input: elements it does not
 * change are returned as they are; every element it changes is a copy stamped
 * once with `touch`; new elements start at version 1. Throws an ApiError with a
 * content-model code naming the offending item (`addNodes[2] (id "db")`,
 * `addEdges[0] "api -> db"`, `updateNodes[1] (id "x")`).
 */
export function applyEdit(elements: SceneElement[], fragment: EditFragmentInput, stamp: WriteStamp, options: EditOptions): EditResult {
  const scene = indexScene(elements);
  const edit = parseFragment(fragment, scene, options);
  const sequence = isSequenceScene(elements);
  if (fragment.after !== undefined && !sequence) fail('INVALID_SPEC', 'after places new messages in a sequence diagram; this diagram is not one');
  if (sequence && (edit.nodes.length > 0 || edit.edges.length > 0)) {
    // A sequence diagram's steps go in order: what comes later moves down (sequence-edit.ts).
    const grown = applySequenceEdit(elements, edit, fragment.after, stamp, options.isIcon);
    const updates = fragment.updateNodes?.length ? applyEdit(grown.elements, { updateNodes: fragment.updateNodes }, stamp, options) : null;
    const total = (updates?.elements ?? grown.elements).length;
    if (total > MAX_SCENE_ELEMENTS) fail('SCENE_TOO_LARGE', `this edit would make the scene ${total} elements; the limit is ${MAX_SCENE_ELEMENTS}`);
    const before = new Map(elements.map((e) => [e.id, e]));
    const result = updates?.elements ?? grown.elements;
    return { elements: result, added: grown.added, updated: updates?.updated ?? [], merged: result.filter((e) => before.get(e.id) !== e).length };
  }
  const total = elements.length + createdCount(edit);
  if (total > MAX_SCENE_ELEMENTS) fail('SCENE_TOO_LARGE', `this edit would make the scene ${total} elements; the limit is ${MAX_SCENE_ELEMENTS}`);

  // In a class or ER diagram, a new node is a box in compartments and a new arrow a relation (structure-edit.ts).
  const structure = structureKindOf(elements);
  const rawNodes = (fragment.addNodes ?? []) as Array<{ attributes?: string[]; methods?: string[] }>;
  if (!structure && rawNodes.some((n) => n.attributes !== undefined || n.methods !== undefined)) fail('INVALID_SPEC', 'attributes and methods are for a new box in a class or ER diagram; this diagram is neither');
  if (structure === 'entity' && rawNodes.some((n) => n.methods !== undefined)) fail('INVALID_SPEC', 'methods are for a class; an entity has attributes only');
  const compartments = new Map(structure ? edit.nodes.map((n) => [n.node.id, compartmentsOf(structure, rawNodes[n.index] ?? {})] as const) : []);
  const planned = new Map(edit.nodes.filter((n) => compartments.has(n.node.id)).map((n) => [n.node.id, sizeInCompartments(n, compartments.get(n.node.id)!)] as const));

  const merge = new Merge(scene, stamp.now);
  for (const update of edit.updates) applyUpdate(merge, scene, update);
  const boxes = placeNodes(edit.nodes, edit.edges, scene);
  for (const [id, box] of boxes.grown) growContainer(merge, scene, id, box);
  for (const node of edit.nodes) {
    const box = boxes.nodes.get(node.node.id)!;
    const plan = planned.get(node.node.id);
    if (plan && structure) addBoxInCompartments(merge, node, box, plan, compartments.get(node.node.id)!, structure);
    else addNode(merge, node, box);
  }
  addEdges(merge, scene, edit.edges);
  if (structure) for (const edge of edit.edges) merge.edit(edge.id).customData = { structure: 'relation' };

  const { elements: merged, merged: count } = merge.result(stamp);
  return {
    elements: merged,
    added: [...edit.nodes.map((n) => n.node.id), ...edit.edges.map((e) => e.id)],
    updated: edit.updates.map((u) => u.id),
    merged: count,
  };
}
