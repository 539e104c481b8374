import type { Direction } from '../layout/types.ts';

export const SHAPES = ['rectangle', 'ellipse', 'diamond', 'text', 'start', 'end', 'fork'] as const;
export type Shape = (typeof SHAPES)[number];

/** Shapes that mark a point of a flow and draw no label: a start dot, an end ring, a fork or join bar. */
export const MARKER_SHAPES = ['start', 'end', 'fork'] as const;
export type MarkerShape = (typeof MARKER_SHAPES)[number];
export const isMarker = (shape: Shape): shape is MarkerShape => (MARKER_SHAPES as readonly string[]).includes(shape);

export const ARROWHEADS = ['arrow', 'triangle', 'bar', 'dot', 'circle', 'diamond', 'none'] as const;
export type ArrowheadName = (typeof ARROWHEADS)[number];

export const EDGE_STYLES = ['solid', 'dashed', 'dotted'] as const;
export type EdgeStyle = (typeof EDGE_STYLES)[number];

export const FILL_STYLES = ['hachure', 'cross-hatch', 'solid', 'zigzag'] as const;
export type FillStyle = (typeof FILL_STYLES)[number];

export const DIRECTIONS: readonly Direction[] = ['TB', 'BT', 'LR', 'RL'];

/** The size caps of a spec (beyond them: SPEC_TOO_LARGE). */
export const SPEC_LIMITS = {
  nodes: 1000,
  edges: 2000,
  idLength: 100,
  labelLength: 500,
  /** A shorthand string holds two ids, an arrow and a label. */
  shorthandLength: 2 * 100 + 500 + 20,
} as const;

export interface SpecNode {
  id: string;
  /** The text shown; '' shows none. Defaults to the id. */
  label: string;
  shape: Shape;
  icon: string | null;
  strokeColor: string | null;
  backgroundColor: string | null;
  fillStyle: FillStyle | null;
  /** Extension: the id of the container node this node sits in. */
  parent: string | null;
  /** Only in edit fragments: an explicit position or size. */
  x?: number;
  y?: number;
  width?: number;
  height?: number;
}

export interface SpecEdge {
  /** The generated arrow id (`<from>-to-<to>`, `-2`, `-3`… for repeats). */
  id: string;
  from: string;
  to: string;
  label: string | null;
  startArrowhead: ArrowheadName;
  endArrowhead: ArrowheadName;
  style: EdgeStyle;
  /** Where the edge came from, for messages: `edges[7] "api -> db"`. */
  source: string;
}

export interface DiagramSpec {
  direction: Direction;
  nodes: SpecNode[];
  edges: SpecEdge[];
}
