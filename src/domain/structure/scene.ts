/**
 * A class or ER diagram drawn: its boxes, containers and notes become a
 * flowchart spec laid out by the layered layout (so superclasses sit above
 * their subclasses, lines meet the boxes' sides and pass through none), the
 * boxes drawn in compartments, and each relation's ends given the editor's
 * own heads: hollow triangles, filled and hollow diamonds, crow's feet.
 */
import type { ExcalidrawElement } from '../scene/elements.ts';
import { type SceneOptions, sceneFromSpec } from '../scene/from-spec.ts';
import type { Compartments } from '../scene/compartments.ts';
import type { DiagramSpecInput } from '../spec/schema.ts';
import type { ArrowheadName } from '../spec/types.ts';
import type { EditorHead, StructureSpec } from './types.ts';

const NOTE_FILL = '#fff3bf';

/** The spec's nearest head, for the layout (which only leaves room for a head). */
const NEAREST: Record<EditorHead, ArrowheadName> = {
  none: 'none',
  arrow: 'arrow',
  triangle: 'triangle',
  triangle_outline: 'triangle',
  diamond: 'diamond',
  diamond_outline: 'diamond',
  crowfoot_one: 'bar',
  crowfoot_many: 'bar',
  crowfoot_one_or_many: 'bar',
};

const tag = (element: ExcalidrawElement | undefined, data: Record<string, unknown>) => {
  if (element) element.customData = { ...(element.customData as object | undefined), ...data };
};

/** The flowchart spec a class or ER diagram is laid out as: its namespaces, boxes and notes as nodes, its relations and note links as edges. */
export function flowInputOf(spec: Omit<StructureSpec, 'flow'>): DiagramSpecInput {
  const nodes: NonNullable<DiagramSpecInput['nodes']> = [
    ...spec.containers.map((c) => ({ id: c.id, label: c.label })),
    ...spec.boxes.map((b) => ({ id: b.id, label: b.label, ...(b.parent ? { parent: b.parent } : {}) })),
    ...spec.notes.map((n) => ({ id: n.id, label: n.text, backgroundColor: NOTE_FILL })),
  ];
  const edges: NonNullable<DiagramSpecInput['edges']> = spec.relations.map((r) => ({
    from: r.from,
    to: r.to,
    ...(r.label ? { label: r.label } : {}),
    ...(r.line === 'dashed' ? { style: 'dashed' as const } : {}),
    arrowhead: NEAREST[r.endHead],
    startArrowhead: NEAREST[r.startHead],
    ...(r.fromText ? { tailLabel: r.fromText } : {}),
    ...(r.toText ? { headLabel: r.toText } : {}),
  }));
  for (const note of spec.notes) if (note.for !== null) edges.push({ from: note.id, to: note.for, style: 'dashed', arrowhead: 'none' });
  return { layout: { direction: spec.direction }, nodes, edges, ...(spec.caption !== undefined ? { caption: spec.caption } : {}) };
}

export function sceneFromStructure(spec: StructureSpec, options: SceneOptions): ExcalidrawElement[] {
  // The editor's own heads for each edge of the flow, in its order: the relations', then the note links'.
  const heads: Array<{ start: EditorHead; end: EditorHead }> = [
    ...spec.relations.map((r) => ({ start: r.startHead, end: r.endHead })),
    ...spec.notes.filter((n) => n.for !== null).map(() => ({ start: 'none' as const, end: 'none' as const })),
  ];
  const flow = spec.flow;
  const compartments = new Map<string, Compartments>(spec.boxes.map((b) => [b.id, b.compartments]));
  const elements = sceneFromSpec(flow, { ...options, compartments });
  const byId = new Map(elements.map((e) => [e.id, e]));
  flow.edges.forEach((edge, i) => {
    const arrow = byId.get(edge.id);
    if (!arrow) return;
    arrow.startArrowhead = heads[i]!.start === 'none' ? null : heads[i]!.start;
    arrow.endArrowhead = heads[i]!.end === 'none' ? null : heads[i]!.end;
    arrow.customData = { structure: i < spec.relations.length ? 'relation' : 'note-link' };
  });
  // What each part is, for reading the diagram back (its kind, boxes, namespaces and notes).
  const box = spec.kind === 'er' ? 'entity' : 'class';
  for (const b of spec.boxes) tag(byId.get(b.id), { structure: box });
  for (const c of spec.containers) tag(byId.get(c.id), { structure: 'namespace' });
  for (const n of spec.notes) tag(byId.get(n.id), { structure: 'note' });
  return elements;
}
