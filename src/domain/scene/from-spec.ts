// A spec laid out, as Excalidraw elements: each node planned (node-plan.ts) and drawn at its place, each edge along
// its route, with the captions; the elements themselves come from the element factory (factory.ts).
import type { LayoutInput, LayoutResult } from '../layout/types.ts';
import { type DiagramSpec, type SpecEdge, type SpecNode } from '../spec/types.ts';
import { measureText, wrapText } from '../text/metrics.ts';
import { addBound, type ExcalidrawElement, FONT_FAMILY_EXCALIFONT, FONT_SIZE } from './elements.ts';
import { centreOn, type Point, roundPoint } from './geometry.ts';
import { CAPTION_ID, endLabelIds, generatedNodeIds } from '../spec/parse.ts';
import { type CompartmentPlan, compartmentElements, type Compartments, planCompartments } from './compartments.ts';
import { SceneObstacles } from './end-labels.ts';
import { ICON_GAP, ICON_SIZE, type NodePlan, edgeLabelBlock, planNode } from './node-plan.ts';
import { arrowElement, arrowLabelElement, attachEnds, endLabelElements, focusOf, layoutArrowheads, midpointOf, nodeElements, textElement } from './factory.ts';

/** A container's label (and icon) on one line, for the layout, when wider than its wrapped header: the scene wraps it again in the final width. */
function titleWidthOf(plan: NodePlan): { titleWidth?: number } {
  if (!plan.isContainer || !plan.label) return {};
  const oneLine = measureText(plan.label.original, FONT_SIZE, FONT_FAMILY_EXCALIFONT).width;
  return oneLine > plan.label.width + 0.5 ? { titleWidth: Math.ceil(oneLine + (plan.node.icon ? ICON_SIZE + ICON_GAP : 0)) } : {};
}

/** An invisible node draws no outline, label or icon; it keeps a transparent shape only when an arrow must bind to it. */
const touched = (spec: DiagramSpec) => new Set(spec.edges.filter((e) => e.style !== 'invisible').flatMap((e) => [e.from, e.to]));

export interface SceneOptions {
  /** The `updated` stamp of every element (ms since epoch). */
  updated: number;
  /** The layout engine; injected so this module stays pure and testable. */
  layout: (input: LayoutInput) => LayoutResult;
  /** Nodes drawn as boxes in compartments (a class, an entity), by id: their name on top, their sections below. */
  compartments?: ReadonlyMap<string, Compartments>;
}

/**
 * Turns a validated DiagramSpec into editor elements: shapes sized to their
 * labels (measured with the editor's font), laid out, with labels bound to
 * their shapes and arrows bound at both ends, with deterministic ids
 * (docs/spec.md, "Generated ids"). Pure and
 * deterministic for a given layout function.
 */
export function sceneFromSpec(spec: DiagramSpec, options: SceneOptions): ExcalidrawElement[] {
  const children = new Map<string, string[]>();
  for (const node of spec.nodes) if (node.parent) children.set(node.parent, [...(children.get(node.parent) ?? []), node.id]);
  const byId = new Map(spec.nodes.map((n) => [n.id, n]));
  const depthOf = (node: SpecNode): number => {
    let depth = 0;
    for (let p = node.parent; p; p = byId.get(p)!.parent) depth++;
    return depth;
  };
  const iconOnTop = spec.direction === 'LR' || spec.direction === 'RL';
  const plans = new Map(spec.nodes.map((node) => [node.id, planNode(node, children.has(node.id), depthOf(node), iconOnTop)]));
  const compartmentPlans = new Map<string, CompartmentPlan>();
  for (const [id, compartments] of options.compartments ?? []) {
    const plan = plans.get(id);
    if (!plan || plan.isContainer) continue;
    const sized = planCompartments(plan.label, compartments);
    compartmentPlans.set(id, sized);
    plans.set(id, { ...plan, width: sized.width, height: sized.height });
  }

  const edgeLabels = new Map(spec.edges.map((edge) => [edge.id, edge.label === null ? null : edgeLabelBlock(edge.label)]));
  const layout = options.layout({
    direction: spec.direction,
    nodes: spec.nodes.map((n) => ({
      id: n.id,
      width: plans.get(n.id)!.width,
      height: plans.get(n.id)!.height,
      parent: n.parent,
      ...(plans.get(n.id)!.shape === 'diamond' ? { diamond: true } : {}),
      ...(plans.get(n.id)!.shape === 'ellipse' && !children.has(n.id) ? { round: true } : {}),
      ...titleWidthOf(plans.get(n.id)!),
      ...(n.direction && children.has(n.id) ? { direction: n.direction } : {}),
    })),
    edges: spec.edges.map((e) => {
      const label = edgeLabels.get(e.id);
      return {
        id: e.id,
        from: e.from,
        to: e.to,
        ...(label ? { labelWidth: Math.ceil(label.width), labelHeight: Math.ceil(label.height) } : {}),
        ...(e.constraint === false ? { constraint: false } : {}),
        ...(e.minLength !== undefined ? { minLength: e.minLength } : {}),
        ...(e.style === 'invisible' ? { invisible: true } : {}),
        ...(layoutArrowheads(e) !== 'end' ? { arrowheads: layoutArrowheads(e) } : {}),
      };
    }),
    ...(spec.sameRank ? { sameRank: spec.sameRank } : {}),
    ...(spec.fold ? { fold: spec.fold } : {}),
  });

  const elements: ExcalidrawElement[] = [];
  const shapes = new Map<string, ExcalidrawElement>();
  let order = 0;
  const push = (element: ExcalidrawElement) => {
    elements.push(element);
    return element;
  };

  const ends = touched(spec);
  const nextOrder = () => order++;
  // Containers first, outermost first, so they sit behind what they hold.
  const drawOrder = [...plans.values()].sort((a, b) => Number(b.isContainer) - Number(a.isContainer) || (a.isContainer ? a.depth - b.depth : 0));
  for (const plan of drawOrder) {
    const box = layout.nodes[plan.node.id]!;
    const drawing = nodeElements(plan, box, { updated: options.updated, nextOrder, iconOnTop, bound: ends.has(plan.node.id) });
    for (const element of drawing.elements) push(element);
    const sized = compartmentPlans.get(plan.node.id);
    if (sized && drawing.shape) {
      const label = drawing.elements.find((e) => e.id === `${plan.node.id}-label`) ?? null;
      for (const element of compartmentElements(plan.node.id, box, sized, options.compartments!.get(plan.node.id)!, drawing.shape, label, nextOrder, options.updated)) push(element);
    }
    if (drawing.shape) shapes.set(plan.node.id, drawing.shape);
  }

  const endLabelled: Array<{ edge: SpecEdge; points: Point[] }> = [];
  for (const edge of spec.edges) {
    // An invisible edge shaped the layout and draws nothing.
    if (edge.style === 'invisible') continue;
    const route = layout.edges[edge.id]!.points.map((p) => [p[0], p[1]] as Point);
    const source = shapes.get(edge.from)!;
    const target = shapes.get(edge.to)!;
    const points = attachEnds(route, source, target);
    const startFocus = focusOf(points[1]!, points[0]!, source);
    const endFocus = focusOf(points[points.length - 2]!, points[points.length - 1]!, target);
    const label = edgeLabels.get(edge.id) ?? null;
    const labelAt = layout.edges[edge.id]!.label;
    const finalPoints = (label ? centreOn(points, labelAt ? [labelAt.x, labelAt.y] : midpointOf(points)) : points).map(roundPoint);
    const arrow = push(arrowElement(edge, finalPoints, { start: startFocus, end: endFocus }, order++, options.updated));
    addBound(source, { id: edge.id, type: 'arrow' });
    if (target !== source) addBound(target, { id: edge.id, type: 'arrow' });
    if (label) {
      const text = push(arrowLabelElement(edge.id, label, finalPoints, order++, options.updated));
      addBound(arrow, { id: text.id, type: 'text' });
    }
    if (endLabelIds(edge).length > 0) endLabelled.push({ edge, points: finalPoints });
  }
  // Head and tail labels go last, where every shape, line and label is known.
  const obstacles = endLabelled.length > 0 ? new SceneObstacles(elements) : null;
  for (const { edge, points } of endLabelled) {
    for (const text of endLabelElements(edge, points, obstacles!, order, options.updated)) {
      order++;
      push(text);
    }
  }
  if (spec.caption !== undefined) push(captionElement(spec.caption, spec.captionAt ?? 'top', elements, order++, options.updated));
  return elements;
}

/** A caption's font size: the editor's large size. */
const CAPTION_FONT_SIZE = 28;
/** Between the caption and the drawing. */
const CAPTION_GAP = 24;
/** A caption wraps at the drawing's width, but never narrower than this. */
const CAPTION_MIN_WRAP = 400;

/** The spec's caption: a free text centred above (or below) everything drawn, wrapped at the drawing's width. */
export function captionElement(caption: string, at: 'top' | 'bottom', drawn: readonly ExcalidrawElement[], order: number, updated: number): ExcalidrawElement {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const element of drawn) {
    const [x, y] = [Number(element.x), Number(element.y)];
    const points = Array.isArray(element.points) ? (element.points as Point[]) : [[0, 0] as Point, [Number(element.width), Number(element.height)] as Point];
    for (const [px, py] of points) {
      xs.push(x + px);
      ys.push(y + py);
    }
  }
  const [left, right] = xs.length > 0 ? [Math.min(...xs), Math.max(...xs)] : [0, 0];
  const [top, bottom] = ys.length > 0 ? [Math.min(...ys), Math.max(...ys)] : [0, 0];
  const wrapAt = Math.max(CAPTION_MIN_WRAP, right - left);
  const text = wrapText(caption, CAPTION_FONT_SIZE, wrapAt, FONT_FAMILY_EXCALIFONT);
  const measured = measureText(text, CAPTION_FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  // Wrapped here, it is a fixed-width text as wide as the wrap, which the editor wraps the same way (as a long text node is).
  const wrapped = text !== caption;
  const size = { width: wrapped ? wrapAt : measured.width, height: measured.height };
  const block = { text, original: caption, ...size, autoResize: !wrapped };
  const y = at === 'top' ? top - CAPTION_GAP - size.height : bottom + CAPTION_GAP;
  return textElement(CAPTION_ID, block, { x: (left + right) / 2 - size.width / 2, y }, order, updated, { containerId: null, textAlign: 'center', verticalAlign: 'top', strokeColor: null, fontSize: CAPTION_FONT_SIZE });
}

/** How many elements sceneFromSpec makes for a spec: known before any layout. */
export function generatedElementCount(spec: DiagramSpec): number {
  let count = 0;
  const ends = touched(spec);
  for (const node of spec.nodes) count += (node.invisible && !ends.has(node.id) ? 0 : 1) + generatedNodeIds(node).length;
  for (const edge of spec.edges) if (edge.style !== 'invisible') count += (edge.label === null ? 1 : 2) + endLabelIds(edge).length;
  return count + (spec.caption !== undefined ? 1 : 0);
}
