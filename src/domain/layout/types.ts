/**
 * The layout engine's contract: boxes and links in, positions and routes out.
 * Pure data; no Excalidraw, no HTTP. Coordinates are in scene pixels, y down.
 */
export type Direction = 'TB' | 'BT' | 'LR' | 'RL';

export interface LayoutNode {
  id: string;
  /** Size of the node's own shape. For a container: the size of its label header (the box grows to fit its children). */
  width: number;
  height: number;
  /** Id of the container node this node is nested in, if any. */
  parent?: string | null;
  /** A diamond (a decision): its branches leave from distinct points of its outline. */
  diamond?: boolean;
  /**
   * A circle or an ellipse: its self-loops keep their legs near the middle of
   * its side, where the outline faces that side (further round, they would
   * meet it among the arrow ends of the next side).
   */
  round?: boolean;
  /** A container's own flow direction (its members'), when it differs from the diagram's. */
  direction?: Direction;
  /**
   * A container's label (with its icon) on one line, when that is wider than
   * its header (whose label is wrapped): the scene wraps the label again in
   * the container's final width, so it may be drawn that wide.
   */
  titleWidth?: number;
}

export interface LayoutEdge {
  id: string;
  from: string;
  to: string;
  /** Size of the edge's label, if it has one, so the route leaves room for it. */
  labelWidth?: number;
  labelHeight?: number;
  /** false: the edge does not decide ranks (default true). */
  constraint?: boolean;
  /** Ranks the edge spans at least (default 1; 0: its ends may share a rank). */
  minLength?: number;
  /** true: the edge is not drawn; it only shapes the layout. */
  invisible?: boolean;
  /** The ends that carry an arrowhead (default `end`): the route leaves a head room to be drawn at its full length. */
  arrowheads?: Arrowheads;
}

export type Arrowheads = 'end' | 'start' | 'both' | 'none';

export interface LayoutInput {
  direction: Direction;
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  /** Lists of node ids each kept on one rank. */
  sameRank?: string[][];
  /** auto (default): long flows may fold; off: never. */
  fold?: 'auto' | 'off';
}

/** How the engines lay a drawing out, from the input's own settings. */
export interface LayoutOptions {
  /** false: a long drawing never folds into bands. */
  fold?: boolean;
  /** Groups of nodes (indices into the engine's node list) kept on one rank each. */
  sameRank?: number[][];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LayoutResult {
  /**
   * Every node's final box (top-left corner). Containers enclose their children
   * with padding and their header, and say where along the top their label goes
   * (clear of the edges that enter there).
   */
  nodes: Record<string, Box & { labelAlign?: 'left' | 'center' | 'right' }>;
  /**
   * Every edge's route as an absolute polyline: the first point on the boundary of
   * the source's box, the last on the target's, segments axis-aligned or straight,
   * passing through no other node's box.
   */
  edges: Record<string, { points: Array<[number, number]>; label?: { x: number; y: number } }>;
}
