/**
 * The spec, in its JSON input form, as the Mermaid importer writes it: with
 * the fields issue 31 adds to the spec (more shapes, text colour and weight,
 * outline width and style, invisible containers and their own direction;
 * edge colours, widths, invisible edges and rank spans; rows of nodes on one
 * rank). They are typed here, to the contract, until the spec's
 * schema declares them; `asSpecInput` hands the result on as the spec's
 * input type.
 */
import type { DiagramSpecInput } from '../../spec/schema.ts';

export type SpecShape = 'rectangle' | 'ellipse' | 'diamond' | 'text' | 'cylinder' | 'stadium' | 'circle' | 'hexagon' | 'parallelogram' | 'subroutine' | 'document' | 'start' | 'end' | 'fork';
export type SpecDirection = 'TB' | 'BT' | 'LR' | 'RL';
export type Arrowhead = 'arrow' | 'triangle' | 'bar' | 'dot' | 'circle' | 'diamond' | 'none';

/** What a node and an edge share: the look of their line and text. */
export interface Look {
  strokeColor?: string;
  strokeWidth?: number;
}

export interface NodeInput extends Look {
  id: string;
  label?: string;
  shape?: SpecShape;
  parent?: string;
  backgroundColor?: string;
  fillStyle?: 'solid';
  textColor?: string;
  bold?: boolean;
  italic?: boolean;
  strokeStyle?: 'dashed' | 'dotted';
  invisible?: boolean;
  direction?: SpecDirection;
}

export interface EdgeInput extends Look {
  from: string;
  to: string;
  label?: string;
  arrowhead?: Arrowhead;
  startArrowhead?: Arrowhead;
  style?: 'dashed' | 'dotted' | 'invisible';
  minLength?: number;
}

export interface SpecInput {
  nodes: NodeInput[];
  edges: EdgeInput[];
  layout?: { direction?: SpecDirection; sameRank?: string[][] };
}

/** The spec as the spec's input type (whose schema is being extended with the contract's fields in parallel). */
export function asSpecInput(spec: SpecInput): DiagramSpecInput {
  return spec as unknown as DiagramSpecInput;
}
