/**
 * Class and entity-relationship diagrams once checked: boxes in compartments
 * (a class's attributes and methods, an entity's attributes) joined by
 * relations whose ends carry the editor's own heads (hollow triangles,
 * diamonds, crow's feet). Both are drawn by the flowchart's layered layout,
 * which keeps lines out of boxes and meets the boxes' sides.
 */
import type { Direction } from '../layout/types.ts';
import type { Compartments } from '../scene/compartments.ts';
import type { DiagramSpec } from '../spec/types.ts';

/** The editor's arrowheads a relation's end may carry (Excalidraw's names). */
const EDITOR_HEADS = ['none', 'arrow', 'triangle', 'triangle_outline', 'diamond', 'diamond_outline', 'crowfoot_one', 'crowfoot_many', 'crowfoot_one_or_many'] as const;
export type EditorHead = (typeof EDITOR_HEADS)[number];

/** A relation between two boxes, written from its upper end (`from`, laid out above or before `to`). */
export interface Relation {
  from: string;
  to: string;
  line: 'solid' | 'dashed';
  startHead: EditorHead;
  endHead: EditorHead;
  label: string;
  /** Text beside each end: a multiplicity, a cardinality. */
  fromText: string;
  toText: string;
}

export interface StructureBox {
  id: string;
  /** The name, with a stereotype line above it where there is one. */
  label: string;
  compartments: Compartments;
  /** The container (a namespace) it sits in. */
  parent: string | null;
}

/** A checked class or ER diagram, ready to draw. */
export interface StructureSpec {
  kind: 'class' | 'er';
  direction: Direction;
  boxes: StructureBox[];
  /** Containers (namespaces), drawn around their boxes. */
  containers: Array<{ id: string; label: string }>;
  /** Notes: a pale yellow box, joined to the box it is for by a dashed line. */
  notes: Array<{ id: string; text: string; for: string | null }>;
  relations: Relation[];
  caption?: string;
  /** The flowchart spec the boxes, notes and relations are laid out as, checked once with the rest. */
  flow: DiagramSpec;
}
