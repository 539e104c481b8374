/**
 * The container model the layout works with: a node whose `parent` is set is
 * laid out inside that parent (see clustered.ts for how), and the container's
 * box takes its children plus padding, with its header strip on top.
 */
import type { LevelEdge } from '../level.ts';
import type { Point } from '../routing/routing.ts';
import type { Box } from '../types.ts';

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

/** An edge of a nested layout: the same as a level's. */
export type NestedEdge = LevelEdge;

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
