import type { Direction } from '../layout/types.ts';

export const SHAPES = ['rectangle', 'ellipse', 'diamond', 'text', 'cylinder', 'stadium', 'circle', 'doublecircle', 'hexagon', 'parallelogram', 'subroutine', 'document', 'start', 'end', 'fork'] as const;
export type Shape = (typeof SHAPES)[number];

/** Shapes that mark a point of a flow and draw no label: a start dot, an end ring, a fork or join bar. */
const MARKER_SHAPES = ['start', 'end', 'fork'] as const;
export type MarkerShape = (typeof MARKER_SHAPES)[number];
export const isMarker = (shape: Shape): shape is MarkerShape => (MARKER_SHAPES as readonly string[]).includes(shape);

export const ARROWHEADS = ['arrow', 'triangle', 'bar', 'dot', 'circle', 'diamond', 'none'] as const;
export type ArrowheadName = (typeof ARROWHEADS)[number];

export const EDGE_STYLES = ['solid', 'dashed', 'dotted', 'invisible'] as const;
export type EdgeStyle = (typeof EDGE_STYLES)[number];

/** A node's outline: solid (the default), dashed or dotted. */
export const STROKE_STYLES = ['solid', 'dashed', 'dotted'] as const;
type StrokeStyle = (typeof STROKE_STYLES)[number];

/** The range of a node's or an edge's strokeWidth. */
export const STROKE_WIDTH_RANGE = [0.5, 16] as const;
/** The range of an edge's minLength (ranks it spans at least). */
export const MIN_LENGTH_RANGE = [0, 10] as const;

export const FOLDS = ['auto', 'off'] as const;
type Fold = (typeof FOLDS)[number];
export const CAPTION_PLACES = ['top', 'bottom'] as const;
export type CaptionPlace = (typeof CAPTION_PLACES)[number];

export const FILL_STYLES = ['hachure', 'cross-hatch', 'solid', 'zigzag'] as const;
type FillStyle = (typeof FILL_STYLES)[number];

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
  /** The label's colour (default: strokeColor). Set only when given. */
  textColor?: string | null;
  /** The whole label bold / italic (recorded on the text's customData; the editor shows regular text). */
  bold?: boolean;
  italic?: boolean;
  /** The outline's width (0.5–16) and style. Set only when given. */
  strokeWidth?: number | null;
  strokeStyle?: StrokeStyle | null;
  /** A container that draws nothing (no outline, no label); its members are still laid out together. */
  invisible?: boolean;
  /** A container's own flow direction (default: the diagram's). */
  direction?: Direction | null;
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
  /** Text beside the end at the target and at the source (DOT's headlabel and taillabel), drawn as free texts. Set only when given. */
  headLabel?: string;
  tailLabel?: string;
  startArrowhead: ArrowheadName;
  endArrowhead: ArrowheadName;
  /** `invisible`: laid out, but drawn as nothing (no arrow, no label). */
  style: EdgeStyle;
  /** The line's width (0.5–16) and colour (line and arrowheads). Set only when given. */
  strokeWidth?: number | null;
  strokeColor?: string | null;
  /** false: the edge does not decide ranks (default true). Set only when given. */
  constraint?: boolean;
  /** Ranks the edge spans at least, 0–10 (default 1). Set only when given. */
  minLength?: number;
  /** Where the edge came from, for messages: `edges[7] "api -> db"`. */
  source: string;
}

export interface DiagramSpec {
  direction: Direction;
  nodes: SpecNode[];
  edges: SpecEdge[];
  /** layout.fold: auto (default) or off. Set only when given. */
  fold?: Fold;
  /** layout.sameRank: lists of node ids kept on one rank each. Set only when given. */
  sameRank?: string[][];
  /** A title drawn on the diagram, above it or (layout.captionAt) below. Set only when given. */
  caption?: string;
  captionAt?: CaptionPlace;
}
