/**
 * Containers with a flow of their own: a container whose `direction` differs
 * from the flow it sits in is laid out on its own, in its direction, when no
 * edge links a node inside it to a node outside (Mermaid's rule for a
 * subgraph's direction, so a diagram reads as Mermaid draws it); the drawing
 * around it then treats it as one box of that size, and edges to or from the
 * container itself end on that box. A container linked through its border
 * keeps the drawing's flow.
 */
import { CONTAINER_PADDING } from './containers.ts';
import { headerAlign } from './headers.ts';
import type { Point } from '../routing/routing.ts';
import type { Box, Direction, LayoutInput, LayoutNode, LayoutResult } from '../types.ts';

const PAD = CONTAINER_PADDING;

type Layout = (input: LayoutInput) => LayoutResult;

interface Boxed {
  node: LayoutNode;
  members: Set<string>;
}

/** The outermost containers whose own direction is honoured (see the top of this file), with their members at any depth. */
function boxedContainers(input: LayoutInput): Boxed[] {
  const byId = new Map(input.nodes.map((node) => [node.id, node]));
  const parentOf = (node: LayoutNode): LayoutNode | undefined => (node.parent != null && node.parent !== node.id ? byId.get(node.parent) : undefined);
  const children = new Map<string, LayoutNode[]>();
  for (const node of input.nodes) {
    const parent = parentOf(node);
    if (parent) children.set(parent.id, [...(children.get(parent.id) ?? []), node]);
  }
  const inside = (root: string): Set<string> => {
    const members = new Set<string>();
    const stack = [...(children.get(root) ?? [])];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (members.has(node.id) || node.id === root) continue;
      members.add(node.id);
      stack.push(...(children.get(node.id) ?? []));
    }
    return members;
  };
  const boxed: Boxed[] = [];
  for (const node of input.nodes) {
    if (!node.direction || !children.has(node.id)) continue;
    const members = inside(node.id);
    const isolated = input.edges.every((edge) => members.has(edge.from) === members.has(edge.to) && !(edge.from === node.id && members.has(edge.to)) && !(edge.to === node.id && members.has(edge.from)));
    if (isolated) boxed.push({ node, members });
  }
  // The outermost only: one inside another is laid out with it.
  return boxed.filter(({ node }) => !boxed.some((other) => other.node !== node && other.members.has(node.id)));
}

/** What a boxed container's members are laid out from: its members in its direction, its own children at the top level. */
function innerInput(input: LayoutInput, { node, members }: Boxed): LayoutInput {
  return {
    direction: node.direction!,
    nodes: input.nodes.filter((n) => members.has(n.id)).map((n) => (n.parent === node.id ? { ...n, parent: null } : n)),
    edges: input.edges.filter((edge) => members.has(edge.from)),
    ...(input.sameRank ? { sameRank: input.sameRank.filter((group) => group.every((id) => members.has(id))) } : {}),
    ...(input.fold ? { fold: input.fold } : {}),
  };
}

/** The direction each edge is drawn in: that of the innermost container around both its ends whose own direction is honoured, else the drawing's. */
export function edgeDirections(input: LayoutInput): Map<string, Direction> {
  const directions = new Map(input.edges.map((edge) => [edge.id, input.direction]));
  for (const boxed of boxedContainers(input)) for (const [id, direction] of edgeDirections(innerInput(input, boxed))) directions.set(id, direction);
  return directions;
}

/**
 * The drawing laid out with each outermost such container laid out on its own
 * (by `layout`, which recurses into containers nested inside it), or null
 * when the drawing has none.
 */
export function layoutOwnDirections(input: LayoutInput, layout: Layout): LayoutResult | null {
  const outermost = boxedContainers(input);
  if (outermost.length === 0) return null;

  const hidden = new Set(outermost.flatMap(({ members }) => [...members]));
  const inner = outermost.map((boxed) => {
    const laid = layout(innerInput(input, boxed));
    return { node: boxed.node, laid, extent: extentOf(laid, input.edges) };
  });
  const sizes = new Map(inner.map(({ node, extent }) => [node.id, { width: Math.max(node.width, extent.width + 2 * PAD), height: node.height + extent.height + 2 * PAD }]));
  const outer = layout({
    ...input,
    nodes: input.nodes.filter((n) => !hidden.has(n.id)).map((n) => (sizes.has(n.id) ? { ...n, ...sizes.get(n.id)!, direction: undefined } : n)),
    edges: input.edges.filter((edge) => !hidden.has(edge.from)),
    ...(input.sameRank ? { sameRank: input.sameRank.filter((group) => !group.some((id) => hidden.has(id))) } : {}),
  });

  const result: LayoutResult = { nodes: { ...outer.nodes }, edges: { ...outer.edges } };
  for (const { node, laid, extent } of inner) {
    const box = outer.nodes[node.id]!;
    // The contents below the header, centred across the box.
    const dx = box.x + (box.width - extent.width) / 2 - extent.x;
    const dy = box.y + node.height + PAD - extent.y;
    for (const [id, b] of Object.entries(laid.nodes)) result.nodes[id] = { ...b, x: round(b.x + dx), y: round(b.y + dy) };
    const routes: Point[][] = [];
    for (const [id, e] of Object.entries(laid.edges)) {
      const points = e.points.map(([x, y]): [number, number] => [round(x + dx), round(y + dy)]);
      routes.push(points);
      result.edges[id] = e.label ? { points, label: { x: round(e.label.x + dx), y: round(e.label.y + dy) } } : { points };
    }
    const membersTop = Math.min(...Object.values(laid.nodes).map((b) => b.y + dy));
    result.nodes[node.id] = { ...box, labelAlign: headerAlign(box, node, membersTop, routes) };
  }
  return result;
}

/** The box around every node, route and label of a layout. */
function extentOf(laid: LayoutResult, edges: LayoutInput['edges']): Box {
  const labelSize = new Map(edges.map((edge) => [edge.id, [edge.labelWidth ?? 0, edge.labelHeight ?? 0] as const]));
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number) => {
    x1 = Math.min(x1, x);
    y1 = Math.min(y1, y);
    x2 = Math.max(x2, x);
    y2 = Math.max(y2, y);
  };
  for (const b of Object.values(laid.nodes)) {
    add(b.x, b.y);
    add(b.x + b.width, b.y + b.height);
  }
  for (const [id, e] of Object.entries(laid.edges)) {
    for (const [x, y] of e.points) add(x, y);
    const [w, h] = labelSize.get(id) ?? [0, 0];
    if (e.label) {
      add(e.label.x - w / 2, e.label.y - h / 2);
      add(e.label.x + w / 2, e.label.y + h / 2);
    }
  }
  if (x1 === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

const round = (value: number) => Math.round(value * 100) / 100 + 0;
