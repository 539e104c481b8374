/**
 * The container model the layout works with: a node whose `parent` is set is
 * laid out inside that parent (see clustered.ts for how), and the container's
 * box takes its children plus padding, with its header strip on top.
 */
import type { Point } from '../routing/routing.ts';
import type { Arrowheads, Box } from '../types.ts';

/** Room between a container's border and what it holds. */
export const CONTAINER_PADDING = 20;

export interface NestedNode {
  width: number;
  height: number;
  /** Index of the containing node, or -1 at the top level. */
  parent: number;
  /** A container's label on one line, when wider than its header (LayoutNode's). */
  titleWidth?: number;
  /** A circle or an ellipse (LayoutNode's). */
  round?: boolean;
}

export interface NestedEdge {
  from: number;
  to: number;
  labelWidth: number;
  labelHeight: number;
  /** Layers the edge spans at least (the spec's `minLength`; 0: its ends may share one); absent: 1. */
  minLength?: number;
  /** false: the edge takes no part in ranking (the spec's `constraint`); absent: true. */
  constraint?: boolean;
  /** true: the edge is not drawn (it only shapes the layout). */
  invisible?: boolean;
  /** The ends that carry an arrowhead (LayoutEdge's); absent: the `to` end. */
  arrowheads?: Arrowheads;
}

export interface NestedLayout {
  /** Absolute box of every node. */
  boxes: Box[];
  /** Route of each edge; null for one left to the cross-edge router (routed afterwards, around the boxes). */
  routes: Array<Point[] | null>;
  labels: Array<Point | null>;
  /** Where along its top side each container's header label goes. */
  headerAlign: Array<HeaderAlign | null>;
}

export type HeaderAlign = 'left' | 'center' | 'right';

/** Ancestors of a node from its parent outwards. */
export function ancestorChain(parent: ArrayLike<number>, v: number): number[] {
  const chain: number[] = [];
  for (let p = parent[v]!; p !== -1; p = parent[p]!) chain.push(p);
  return chain;
}
