/**
 * A Mermaid state diagram (`stateDiagram-v2`, `stateDiagram`) as a spec.
 *
 * - States keep their ids; a state's label is what Mermaid writes in it: its
 *   name (`state "Long name" as s1`) or its one description (`s1 : text`),
 *   and the further descriptions on the lines below.
 * - `[*]` is a start marker (a transition from it) or an end marker (one to
 *   it), one pair per composite state, with ids Mermaid does not let an
 *   author write, made readable: `start`, `stop` (Mermaid's own name for
 *   the end circle; `end` could not be a flowchart's id), `Moving.start`.
 * - Composite states are containers, nested; each has the direction Mermaid
 *   lays it out in (a composite's own is top to bottom unless it says
 *   otherwise, whatever the diagram's).
 * - Concurrent regions (`--`) are containers of their own inside their
 *   composite (`Active.region-1`, …), untitled and dotted: Mermaid separates
 *   regions by dashed lines, and the spec already draws every container
 *   dashed, so a dotted outline tells a region from a nested state.
 * - `<<choice>>` is a small, empty diamond; `<<fork>>` and `<<join>>` bars.
 * - A note is a pale yellow node on the same rank as its state, joined to it
 *   by a dashed line without heads (`Idle.note`, `Idle.note-2`, …).
 *
 * Ids made up here never take a state's own: a clash gets `-2`, `-3`, ….
 */
import { type Converter, diagramDirection, directionOf } from './convert.ts';
import type { MermaidDiagram, MermaidNode } from './runtime.ts';
import { escapeRegExp } from './source-text.ts';
import type { EdgeInput, NodeInput, SpecDirection, SpecInput } from './spec-input.ts';

const NOTE_BACKGROUND = '#fff9db';

const isNote = (node: MermaidNode) => node.shape === 'note';
const isNoteWrapper = (node: MermaidNode) => node.shape === 'noteGroup';
const isRegion = (node: MermaidNode) => node.shape === 'divider';
const isMarker = (node: MermaidNode) => node.shape === 'stateStart' || node.shape === 'stateEnd';
/** Mermaid's ids for what it adds: notes are `<state>----note-<n>`, markers `<scope>_start`, regions `divider-id-<n>` or random. */
const noteOwner = (node: MermaidNode) => node.id.split('----')[0]!;

/** Readable, stable ids for the markers, regions and notes Mermaid adds, never one a state has. */
function generatedIds(nodes: MermaidNode[]): Map<string, string> {
  const taken = new Set(nodes.filter((n) => !isNote(n) && !isNoteWrapper(n) && !isRegion(n) && !isMarker(n)).map((n) => n.id));
  const ids = new Map<string, string>();
  const give = (raw: string, wanted: string) => {
    let id = wanted;
    for (let n = 2; taken.has(id); n++) id = `${wanted}-${n}`;
    taken.add(id);
    ids.set(raw, id);
  };
  const idOf = (raw: string) => ids.get(raw) ?? raw;
  const regions = new Map<string, number>();
  for (const node of nodes.filter(isRegion)) {
    const n = (regions.get(node.parentId!) ?? 0) + 1;
    regions.set(node.parentId!, n);
    give(node.id, `${idOf(node.parentId!)}.region-${n}`);
  }
  for (const node of nodes.filter(isMarker)) {
    const [, scope, end] = /^(.*)_(start|end)$/.exec(node.id)!;
    // An end marker is Mermaid's own "stop" circle: `end` is a word of Mermaid's flowcharts, no id there.
    const name = end === 'start' ? 'start' : 'stop';
    give(node.id, scope === 'root' ? name : `${idOf(scope!)}.${name}`);
  }
  const notes = new Map<string, number>();
  for (const node of nodes.filter(isNote)) {
    const owner = noteOwner(node);
    const n = (notes.get(owner) ?? 0) + 1;
    notes.set(owner, n);
    give(node.id, `${idOf(owner)}.note${n === 1 ? '' : `-${n}`}`);
  }
  return ids;
}

/** What reading one state diagram's nodes needs to know of all of them. */
interface Reading {
  convert: Converter;
  direction: SpecDirection;
  idOf: (raw: string) => string;
  byId: Map<string, MermaidNode>;
  /** Composite states and regions. */
  containers: Set<string>;
}

function stateNode(reading: Reading, from: MermaidNode): NodeInput {
  const { convert, idOf } = reading;
  const spec: NodeInput = { id: idOf(from.id) };
  if (from.parentId !== undefined) spec.parent = idOf(from.parentId);
  if (isRegion(from)) return Object.assign(spec, { label: '', strokeStyle: 'dotted' as const }, ownDirection(reading, from));
  const line = isMarker(from) ? (convert.source.find(from.shape === 'stateStart' ? /\[\*\]\s*-->/ : /-->\s*\[\*\]/) ?? convert.source.headerLine()) : convert.source.lineOf(from.id);
  if (reading.containers.has(from.id)) {
    convert.label(spec, from.label, from.labelType, line);
    convert.look(spec, from, line);
    return Object.assign(spec, ownDirection(reading, from));
  }
  convert.shape(spec, from.shape, line);
  if (from.shape === 'choice') spec.label = '';
  else if (!isMarker(from) && from.shape !== 'fork' && from.shape !== 'join') {
    // Mermaid writes the title, then each further description under it.
    convert.label(spec, [from.label ?? from.id, ...(from.description ?? [])].join('<br>'), from.labelType, line);
    convert.look(spec, from, line);
  }
  return spec;
}

/** A container's direction, when Mermaid lays it out in another than the diagram's. */
function ownDirection(reading: Reading, from: MermaidNode): Partial<NodeInput> {
  const own = directionOf(from.dir);
  return own !== undefined && own !== reading.direction ? { direction: own } : {};
}

function noteNode(reading: Reading, from: MermaidNode): NodeInput {
  const { convert, idOf } = reading;
  const owner = noteOwner(from);
  const spec: NodeInput = { id: idOf(from.id) };
  // A note sits in a wrapper Mermaid adds; it belongs where its state is.
  const parent = reading.byId.get(owner)?.parentId;
  if (parent !== undefined) spec.parent = idOf(parent);
  const line = convert.source.find(new RegExp(`^\\s*note\\s+(left|right)\\s+of\\s+${escapeRegExp(owner)}\\b`)) ?? convert.source.lineOf(owner);
  convert.label(spec, from.label, from.labelType, line);
  return Object.assign(spec, { backgroundColor: NOTE_BACKGROUND, fillStyle: 'solid' as const });
}

export function stateSpec(diagram: MermaidDiagram, convert: Converter): SpecInput {
  const { nodes, edges } = diagram.db.getData();
  const ids = generatedIds(nodes);
  const reading: Reading = {
    convert,
    direction: diagramDirection(diagram),
    idOf: (raw) => ids.get(raw) ?? raw,
    byId: new Map(nodes.map((n) => [n.id, n])),
    containers: new Set(nodes.filter((n) => n.isGroup && !isNote(n) && !isNoteWrapper(n)).map((n) => n.id)),
  };
  const { idOf, direction } = reading;
  const specNodes = nodes.filter((n) => !isNoteWrapper(n)).map((n) => (isNote(n) ? noteNode(reading, n) : stateNode(reading, n)));

  const sameRank: string[][] = [];
  const specEdges = edges.map((edge): EdgeInput => {
    const spec = convert.edge(edge, idOf(edge.start), idOf(edge.end));
    if (!(edge.classes ?? '').includes('note-edge')) return spec;
    const [state, note] = isNote(reading.byId.get(edge.start)!) ? [edge.end, edge.start] : [edge.start, edge.end];
    delete spec.startArrowhead;
    Object.assign(spec, { arrowhead: 'none', style: 'dashed' });
    if (!reading.containers.has(state)) {
      // Beside its state, as Mermaid places a note left or right of it.
      sameRank.push([idOf(state), idOf(note)]);
      spec.minLength = 0;
    }
    return spec;
  });

  const layout = { ...(direction === 'TB' ? {} : { direction }), ...(sameRank.length > 0 ? { sameRank } : {}) };
  return { nodes: specNodes, edges: specEdges, ...(Object.keys(layout).length > 0 ? { layout } : {}) };
}
