/**
 * Regenerate that keeps what a person arranged: the new spec is matched by
 * node id to the graph the stored scene draws (the spec export reads it back),
 * and only the difference is written, through the same merges as patch and
 * edit. Nodes and containers that stay keep their place and size; a changed
 * label is fitted in place as `edit` fits it, changed colours and lines are
 * restyled in place. Nodes that are gone are removed with their arrows; new
 * nodes (and those whose shape, icon or container changed) are placed beside
 * what they connect to, clear of everything, as `edit` places them; arrows
 * that are new or changed, or whose ends were placed again, are routed around
 * the shapes as they now stand; every other arrow keeps its route. A changed
 * caption is rewritten in place, a dropped one removed, a new one drawn over
 * the drawing as it stands. A new container is laid out with what it holds
 * and placed as one block (at the top, or in a container the diagram has),
 * nodes the diagram had that it now holds drawn again in it; so are a plain
 * node given members and a container moved into another. A change the merges
 * cannot make in place (a container whose icon changes, or whose new label
 * does not fit it) is null: the caller lays the whole spec out afresh.
 */
import { sceneSpec } from '../export/scene-spec.ts';
import { applyPatch } from '../patch/apply.ts';
import { MAX_PATCH_OPS, type PatchOpInput } from '../patch/schema.ts';
import { elementBox, encloses, grow, interiorsMeet, LINEAR, polylineOf } from './scene-index.ts';
import type { Box } from '../layout/types.ts';
import type { Point } from '../scene/geometry.ts';
import { captionElement, type SceneOptions, sceneFromSpec } from '../scene/from-spec.ts';
import { CAPTION_ID, checkSpec, type ParseOptions, parseSpec } from '../spec/parse.ts';
import type { DiagramSpecInput } from '../spec/schema.ts';
import type { DiagramSpec, SpecEdge, SpecNode } from '../spec/types.ts';
import { applyEdit } from './apply.ts';
import { placeNodes } from './placement.ts';
import { growContainer, indexKeysAfter, labelFitsInPlace, Merge } from './merge.ts';
import type { EditFragmentInput } from './schema.ts';
import { indexScene } from './scene-index.ts';
import type { SceneElement, WriteStamp } from './types.ts';

export interface KeptLayout {
  elements: SceneElement[];
  /** Node ids that stayed where they were (their label or style perhaps changed). */
  kept: string[];
  /** Node ids placed anew: new ones, and those whose shape, icon or container changed. */
  placed: string[];
  /** Node ids that are gone, with their arrows. */
  removed: string[];
}

const INK = '#1e1e1e';

export interface KeepOptions extends ParseOptions {
  /** Lays out a new container with what it holds, as one block. */
  layout: SceneOptions['layout'];
}
const MARKERS = new Set<SpecNode['shape']>(['start', 'end', 'fork']);
/** How far a block drawn where its node was keeps from every other shape. */
const BLOCK_CLEARANCE = 20;
/** The lines and parts Drawbridge draws beside a node's box, removed with it. */
const PARTS = ['outline', 'ring', 'top', 'left', 'right', 'dot'];

/** What a node looks like, with the spec's defaults filled in, field by field. */
function lookOf(node: SpecNode, isContainer: boolean) {
  return {
    strokeColor: node.strokeColor ?? INK,
    backgroundColor: node.backgroundColor ?? 'transparent',
    fillStyle: node.backgroundColor ? (node.fillStyle ?? 'solid') : 'solid',
    textColor: node.textColor ?? node.strokeColor ?? INK,
    bold: node.bold === true,
    italic: node.italic === true,
    strokeWidth: node.strokeWidth ?? 2,
    strokeStyle: node.strokeStyle ?? (isContainer ? 'dashed' : 'solid'),
  };
}

/** Circles and ellipses are one shape to the scene (an ellipse that came out square reads as a circle). */
const sameShape = (a: SpecNode['shape'], b: SpecNode['shape']) => a === b || ((a === 'circle' || a === 'ellipse') && (b === 'circle' || b === 'ellipse'));

/** An edge as the scene draws it: what must be equal for its arrow to stay. */
const edgeKey = (e: SpecEdge) =>
  JSON.stringify([e.from, e.to, e.label ?? '', e.startArrowhead, e.endArrowhead, e.style, e.strokeColor ?? INK, e.strokeWidth ?? 2, e.headLabel ?? '', e.tailLabel ?? '']);

/**
 * The stored scene changed to draw `input` (a spec as sent, already checked:
 * `spec` is its checked form), keeping what stays; null when that cannot be
 * done in place (see above, or a scene whose graph is no valid spec).
 */
export function regenerateKeeping(stored: SceneElement[], input: DiagramSpecInput, spec: DiagramSpec, stamp: WriteStamp, options: KeepOptions): KeptLayout | null {
  const read = sceneSpec(stored);
  const was = checkSpec(read.spec, options).spec;
  if (was === null) return null;
  const scene = indexScene(stored);
  const before = new Map(was.nodes.map((n) => [n.id, n]));
  const containersBefore = new Set(was.nodes.map((n) => n.parent).filter((p): p is string => p !== null));
  const containersAfter = new Set(spec.nodes.map((n) => n.parent).filter((p): p is string => p !== null));

  // A new container (at the top, or in a container the diagram has) is laid out with what it holds on its own and
  // placed as one block; nodes the diagram had that it now holds are drawn again in it.
  const childrenOf = new Map<string, SpecNode[]>();
  for (const node of spec.nodes) if (node.parent !== null) childrenOf.set(node.parent, [...(childrenOf.get(node.parent) ?? []), node]);
  const subtree = (id: string): string[] => [id, ...(childrenOf.get(id) ?? []).flatMap((child) => subtree(child.id))];
  const parentNow = new Map(spec.nodes.map((n) => [n.id, n.parent]));
  /** A container drawn again with what it holds: a new one, a plain node given members, a container moved to another; in a container that stays where it is. */
  const isRoot = (n: SpecNode) => {
    const settled = n.parent === null || (containersBefore.has(n.parent) && before.get(n.parent)!.parent === (parentNow.get(n.parent) ?? null));
    if (!settled || !containersAfter.has(n.id)) return false;
    const old = before.get(n.id);
    return old === undefined || !containersBefore.has(n.id) || old.parent !== n.parent;
  };
  const rootIds = new Set(spec.nodes.filter(isRoot).map((n) => n.id));
  const outermost = (id: string) => {
    for (let at = parentNow.get(id) ?? null; at !== null; at = parentNow.get(at) ?? null) if (rootIds.has(at)) return false;
    return true;
  };
  const blocks = [...rootIds].filter(outermost).map((id) => subtree(id));
  const inBlock = new Set(blocks.flat());
  const redrawn = [...inBlock].filter((id) => before.has(id));

  // Nodes: kept (perhaps relabelled or restyled), placed anew, removed.
  const kept: string[] = [];
  const placed: SpecNode[] = [];
  const updates: NonNullable<EditFragmentInput['updateNodes']> = [];
  const restyles: PatchOpInput[] = [];
  for (const node of spec.nodes) {
    const old = before.get(node.id);
    if ((node.invisible && !old) || inBlock.has(node.id)) continue;
    if (!old) {
      // edit puts a new node only into a container the diagram has.
      if (containersAfter.has(node.id) || (node.parent !== null && !containersBefore.has(node.parent))) return null;
      placed.push(node);
      continue;
    }
    // A marker draws no label.
    const relabelled = old.label !== node.label && !MARKERS.has(node.shape);
    // A node whose new label does not fit it in place (even smaller, as updateNodes shrinks it) is drawn anew, sized to it.
    if (!sameShape(old.shape, node.shape) || old.icon !== node.icon || old.parent !== node.parent || (node.label === '' && old.label !== '') || (relabelled && !labelFitsInPlace(scene, node.id, node.label))) {
      if (containersBefore.has(node.id) || containersAfter.has(node.id) || (node.parent !== null && !containersBefore.has(node.parent))) return null;
      placed.push(node);
      continue;
    }
    kept.push(node.id);
    const [a, b] = [lookOf(old, containersBefore.has(node.id)), lookOf(node, containersAfter.has(node.id))];
    const update: (typeof updates)[number] = { id: node.id };
    if (relabelled) update.label = node.label;
    if (a.strokeColor !== b.strokeColor) update.strokeColor = b.strokeColor;
    if (a.backgroundColor !== b.backgroundColor || a.fillStyle !== b.fillStyle) Object.assign(update, { backgroundColor: b.backgroundColor, fillStyle: b.fillStyle });
    if (Object.keys(update).length > 1) updates.push(update);
    restyles.push(...restyleOps(scene, node.id, a, b));
  }
  const placedIds = new Set(placed.map((n) => n.id));
  const keptIds = new Set(kept);
  const removed = was.nodes.map((n) => n.id).filter((id) => !keptIds.has(id) && !parentNow.has(id));

  // Edges: an arrow stays when an edge of the new spec draws exactly it between two nodes that stayed.
  const unmatched = new Map<string, string[]>();
  was.edges.forEach((edge, i) => {
    if (!keptIds.has(edge.from) || !keptIds.has(edge.to)) return;
    const key = edgeKey(edge);
    unmatched.set(key, [...(unmatched.get(key) ?? []), read.edgeIds[i]!]);
  });
  const keptArrows = new Set<string>();
  /** The new spec's edge each kept arrow draws. */
  const edgeOfArrow = new Map<string, number>();
  const addEdges: NonNullable<EditFragmentInput['addEdges']> = [];
  // An invisible edge draws nothing, and neither does an edge to an invisible node the scene does not hold.
  const drawn = (id: string) => keptIds.has(id) || placedIds.has(id) || inBlock.has(id);
  const blockOf = (id: string) => blocks.findIndex((block) => block.includes(id));
  spec.edges.forEach((edge, i) => {
    if (edge.style === 'invisible' || !drawn(edge.from) || !drawn(edge.to)) return;
    // An edge within a block is drawn with it.
    if (inBlock.has(edge.from) && blockOf(edge.from) === blockOf(edge.to)) return;
    const arrow = unmatched.get(edgeKey(edge))?.shift();
    if (arrow === undefined) addEdges.push((input.edges ?? [])[i]!);
    else {
      keptArrows.add(arrow);
      edgeOfArrow.set(arrow, i);
    }
  });

  // Removed first: gone and replaced nodes with their parts, and every arrow that does not stay, with its end labels.
  const doomed: string[] = [...removed, ...placedIds, ...redrawn].filter((id) => scene.live.has(id));
  for (const arrowId of read.edgeIds) {
    if (keptArrows.has(arrowId)) continue;
    doomed.push(arrowId, ...['head', 'tail'].map((end) => `${arrowId}-${end}-label`).filter((text) => scene.live.has(text)));
  }
  // The caption: changed in place, or gone (a new one is drawn at the end, over the drawing as it then stands).
  const caption = scene.live.get(CAPTION_ID);
  const captionText = caption ? String(caption.originalText ?? caption.text ?? '') : undefined;
  if (caption !== undefined && spec.caption === undefined) doomed.push(CAPTION_ID);
  if (caption !== undefined && spec.caption !== undefined && spec.caption !== captionText) restyles.push({ op: 'update', id: CAPTION_ID, set: { text: spec.caption, originalText: spec.caption } });
  let elements = patchAll(stored, doomed.map((id): PatchOpInput => ({ op: 'delete', id })), stamp, options);
  // A node's parts go with it (patch's delete); any a person took out of its group go now.
  const left = new Set(elements.filter((e) => e.isDeleted !== true).map((e) => e.id));
  const strays = [...removed, ...placedIds, ...redrawn].flatMap((id) => PARTS.map((part) => `${id}-${part}`)).filter((id) => left.has(id));
  elements = patchAll(elements, strays.map((id): PatchOpInput => ({ op: 'delete', id })), stamp, options);

  const grown: Array<{ id: string; box: Box }> = [];
  for (const block of blocks) {
    // A node the diagram had, now a container, stays where it was when the block fits there.
    const where = scene.live.get(block[0]!);
    const placedBlock = withBlock(elements, block, input, spec, stamp, options, where ? elementBox(where) : null);
    elements = placedBlock.elements;
    grown.push(...placedBlock.grown);
  }
  // An arrow that stays but now runs through a container grown to hold a block, which it does not reach, is routed again.
  const crossing = [...keptArrows].filter((id) => crossesGrown(elements, id, grown));
  if (crossing.length > 0) {
    elements = patchAll(elements, crossing.map((id): PatchOpInput => ({ op: 'delete', id })), stamp, options);
    for (const id of crossing) addEdges.push((input.edges ?? [])[edgeOfArrow.get(id)!]!);
  }

  const inputNodes = new Map((input.nodes ?? []).map((n) => [n.id, n]));
  const fragment: EditFragmentInput = {
    ...(placed.length > 0 ? { addNodes: placed.map((n) => inputNodes.get(n.id)!) } : {}),
    ...(addEdges.length > 0 ? { addEdges } : {}),
    ...(updates.length > 0 ? { updateNodes: updates } : {}),
  };
  if (Object.keys(fragment).length > 0) elements = applyEdit(elements, fragment, stamp, options).elements;
  elements = patchAll(elements, restyles, stamp, options);
  // A caption where there was none: centred above (or below) the drawing as it now stands, as the spec draws one.
  if (spec.caption !== undefined && caption === undefined) {
    const live = elements.filter((e) => e.isDeleted !== true);
    elements = [...elements, { ...captionElement(spec.caption, spec.captionAt ?? 'top', live, 0, stamp.now), index: indexKeysAfter(elements)(CAPTION_ID) }];
  }
  return { elements, kept, placed: [...placed.map((n) => n.id), ...inBlock], removed };
}

/** Ops in batches the patch takes. */
function patchAll(elements: SceneElement[], ops: PatchOpInput[], stamp: WriteStamp, options: ParseOptions): SceneElement[] {
  let out = elements;
  for (let i = 0; i < ops.length; i += MAX_PATCH_OPS) out = applyPatch(out, ops.slice(i, i + MAX_PATCH_OPS), stamp, options).elements;
  return out;
}

/** The looks `updateNodes` cannot change, set on the node's own elements: its outline's width and dashes, its label's colour and weight. */
function restyleOps(scene: ReturnType<typeof indexScene>, id: string, a: ReturnType<typeof lookOf>, b: ReturnType<typeof lookOf>): PatchOpInput[] {
  const ops: PatchOpInput[] = [];
  const drawn = scene.live.has(`${id}-outline`) ? `${id}-outline` : id;
  const line: Record<string, unknown> = {};
  if (a.strokeWidth !== b.strokeWidth) line.strokeWidth = b.strokeWidth;
  if (a.strokeStyle !== b.strokeStyle) line.strokeStyle = b.strokeStyle;
  if (Object.keys(line).length > 0) ops.push({ op: 'update', id: drawn, set: line });
  const label = scene.labels.get(id);
  const text: Record<string, unknown> = {};
  if (a.textColor !== b.textColor || (a.strokeColor !== b.strokeColor && b.textColor !== b.strokeColor)) text.strokeColor = b.textColor;
  if (a.bold !== b.bold || a.italic !== b.italic) {
    const { fontWeight: _weight, fontStyle: _style, ...rest } = (label?.customData ?? {}) as Record<string, unknown>;
    text.customData = { ...rest, ...(b.bold ? { fontWeight: 'bold' } : {}), ...(b.italic ? { fontStyle: 'italic' } : {}) };
  }
  if (label && Object.keys(text).length > 0) ops.push({ op: 'update', id: label.id, set: text });
  return ops;
}

/**
 * The scene with a new container and what it holds (`block`: its id first)
 * laid out on their own, as the spec would draw them, and placed as one block
 * where edit would place a node of that size: beside what it connects to,
 * clear of everything, in its own container (which grows to hold it) when it
 * has one.
 */
function withBlock(
  elements: SceneElement[],
  block: string[],
  input: DiagramSpecInput,
  spec: DiagramSpec,
  stamp: WriteStamp,
  options: KeepOptions,
  was: Box | null,
): { elements: SceneElement[]; grown: Array<{ id: string; box: Box }> } {
  const ids = new Set(block);
  const inputNodes = (input.nodes ?? []).filter((n) => ids.has(n.id)).map((n) => (n.id === block[0] ? { ...n, parent: null } : n));
  const inside = spec.edges.flatMap((edge, i) => (ids.has(edge.from) && ids.has(edge.to) ? [(input.edges ?? [])[i]!] : []));
  const drawn = sceneFromSpec(parseSpec({ layout: { direction: spec.direction }, nodes: inputNodes, edges: inside }, options), { updated: stamp.now, layout: options.layout }) as SceneElement[];
  const container = drawn.find((e) => e.id === block[0])!;
  const own = elementBox(container);
  // Where edit would put a node of the block's size, anchored by the edges between the block and the scene.
  const scene = indexScene(elements);
  const node = spec.nodes.find((n) => n.id === block[0])!;
  const edges = spec.edges.flatMap((edge) => {
    const [from, to] = [ids.has(edge.from) ? block[0]! : edge.from, ids.has(edge.to) ? block[0]! : edge.to];
    return from !== to && (from === block[0] || to === block[0]) && (scene.live.has(from) || scene.live.has(to)) ? [{ ...edge, from, to }] : [];
  });
  const around = new Set<string>();
  const parentOf = new Map(spec.nodes.map((n) => [n.id, n.parent]));
  for (let at = node.parent; at !== null; at = parentOf.get(at) ?? null) around.add(at);
  const position = was !== null && fitsAt(scene, { x: was.x, y: was.y, width: own.width, height: own.height }, around, node.parent) ? { x: was.x, y: was.y } : null;
  const boxes = placeNodes([{ node, named: node.id, index: 0, size: { shape: 'rectangle', width: own.width, height: own.height, label: null }, position }], edges, scene);
  const placed = boxes.nodes.get(block[0]!)!;
  const [dx, dy] = [placed.x - own.x, placed.y - own.y];
  if (boxes.grown.size > 0) {
    // The containers around the block grow to hold it, as they grow for a node edit puts in them.
    const merge = new Merge(scene, stamp.now);
    for (const [id, box] of boxes.grown) growContainer(merge, scene, id, box);
    elements = merge.result(stamp).elements;
  }
  const nextIndex = indexKeysAfter(elements);
  const moved = drawn.map((element) => ({ ...element, x: Number(element.x) + dx, y: Number(element.y) + dy, index: nextIndex(element.id) }));
  return { elements: [...elements, ...moved], grown: [...boxes.grown].map(([id, box]) => ({ id, box })) };
}

/** Whether a block may sit at `box`: inside its container (if it has one), BLOCK_CLEARANCE clear of every shape but the containers around it. */
function fitsAt(scene: ReturnType<typeof indexScene>, box: Box, around: ReadonlySet<string>, parent: string | null): boolean {
  const container = parent === null ? undefined : scene.live.get(parent);
  if (container && !encloses(elementBox(container), box)) return false;
  const clear = grow(box, BLOCK_CLEARANCE);
  return ![...scene.live.values()].some((e) => !LINEAR.has(e.type) && typeof e.containerId !== 'string' && !around.has(e.id) && interiorsMeet(clear, elementBox(e)));
}

/** Whether the arrow `id` runs through one of the grown containers without an end in it. */
function crossesGrown(elements: readonly SceneElement[], id: string, grown: Array<{ id: string; box: Box }>): boolean {
  if (grown.length === 0) return false;
  const scene = indexScene(elements);
  const arrow = scene.live.get(id);
  if (!arrow) return false;
  const points = polylineOf(arrow);
  const inside = (point: Point, box: Box) => point[0] >= box.x && point[0] <= box.x + box.width && point[1] >= box.y && point[1] <= box.y + box.height;
  const ends = [points[0], points[points.length - 1]].filter((p): p is Point => p !== undefined);
  return grown.some(({ box }) => !ends.some((p) => inside(p, box)) && points.slice(1).some((b, i) => segmentEnters(points[i]!, b, box)));
}

/** Whether the segment a–b passes into the box's interior, more than a pixel in (Liang–Barsky clipping). */
function segmentEnters([ax, ay]: Point, [bx, by]: Point, box: Box): boolean {
  const [x1, y1, x2, y2] = [box.x + 1, box.y + 1, box.x + box.width - 1, box.y + box.height - 1];
  let [t0, t1] = [0, 1];
  const [dx, dy] = [bx - ax, by - ay];
  for (const [p, q] of [[-dx, ax - x1], [dx, x2 - ax], [-dy, ay - y1], [dy, y2 - ay]] as const) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

