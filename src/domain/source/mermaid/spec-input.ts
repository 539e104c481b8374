/**
 * The spec in its JSON input form (what a client would send), in the shapes
 * the Mermaid importer builds it: node and edge objects, lists that are
 * always there.
 */
import type { Direction } from '../../layout/types.ts';
import type { DiagramSpecInput } from '../../spec/schema.ts';
import type { ArrowheadName, Shape } from '../../spec/types.ts';

export type SpecShape = Shape;
export type SpecDirection = Direction;
export type Arrowhead = ArrowheadName;

export type NodeInput = NonNullable<DiagramSpecInput['nodes']>[number];
export type EdgeInput = Exclude<NonNullable<DiagramSpecInput['edges']>[number], string>;

export interface SpecInput extends DiagramSpecInput {
  nodes: NodeInput[];
  edges: EdgeInput[];
}
