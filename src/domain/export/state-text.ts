/**
 * A spec written as a Mermaid state diagram (`stateDiagram-v2`), for the
 * diagrams a flowchart cannot carry whole: a state machine whose state ids a
 * flowchart cannot take as they are (`Active(cold)`). Only a plain state
 * machine is written this way: states (boxes, labelled or not), start and end
 * markers named as the state importer names them (`start`, `stop`,
 * `Busy.start`, `Busy.stop`), composite states, and plain transitions with
 * their labels; anything else (another shape, a colour, an arrowhead, a note)
 * is null, and the diagram is written as a flowchart.
 */
import type { EdgeInput as Edge, ExportSpec as Spec, NodeInput as Node } from './scene-spec.ts';

/** Ids a state diagram reads as one state: no spaces, and none of the characters its grammar uses. */
const STATE_ID = /^[^\s:{}"[\]<>;,|#-][^\s:{}"[\]<>;,|#]*$/;
const KEYWORDS = new Set(['state', 'note', 'direction', 'classDef', 'class', 'style', 'as']);

const plainNode = (node: Node) =>
  node.icon === undefined && node.strokeColor === undefined && node.backgroundColor === undefined && node.textColor === undefined && node.bold === undefined && node.italic === undefined && node.strokeWidth === undefined && node.strokeStyle === undefined;
const plainEdge = (edge: Edge) =>
  (edge.arrowhead ?? 'arrow') === 'arrow' && (edge.startArrowhead ?? 'none') === 'none' && (edge.style ?? 'solid') === 'solid' && edge.strokeColor === undefined && edge.strokeWidth === undefined && edge.headLabel === undefined && edge.tailLabel === undefined && !edge.label?.includes('\n');

/** The spec as a state diagram, or null when it is no plain state machine. */
export function specToStateDiagram(spec: Spec): string | null {
  if (spec.caption !== undefined || !spec.edges.every(plainEdge)) return null;
  const byId = new Map(spec.nodes.map((n) => [n.id, n]));
  const containers = new Set(spec.nodes.map((n) => n.parent).filter((p): p is string => p !== undefined));
  /** The composite state a marker belongs to (null: the top), when it is named as the importer names markers. */
  const markerScope = (node: Node): string | null | undefined => {
    const match = /^(?:(.+)\.)?(start|stop)$/.exec(node.id);
    if (!match || (match[2] === 'start') !== (node.shape === 'start')) return undefined;
    const scope = match[1] ?? null;
    return scope === (node.parent ?? null) ? scope : undefined;
  };
  for (const node of spec.nodes) {
    if (!plainNode(node)) return null;
    if (node.shape === 'start' || node.shape === 'end') {
      if (markerScope(node) === undefined) return null;
    } else if ((node.shape ?? 'rectangle') !== 'rectangle' || !STATE_ID.test(node.id) || KEYWORDS.has(node.id) || (node.label ?? node.id).includes('"')) {
      return null;
    } else if (containers.has(node.id) && (node.label ?? node.id).includes('\n')) {
      return null;
    }
  }
  const isMarker = (id: string) => ['start', 'end'].includes(byId.get(id)?.shape ?? '');
  const ref = (id: string) => (isMarker(id) ? '[*]' : id);
  // A transition to or from a marker belongs inside the marker's composite; the others are written at the top.
  const scopeOf = (edge: Edge) => {
    const marker = [edge.from, edge.to].map((id) => byId.get(id)!).find((n) => n.shape === 'start' || n.shape === 'end');
    return marker ? (marker.parent ?? null) : null;
  };
  if (spec.edges.some((e) => isMarker(e.from) && isMarker(e.to))) return null;

  const lines = ['stateDiagram-v2'];
  if (spec.layout.direction !== 'TB') lines.push(`  direction ${spec.layout.direction}`);
  const write = (parent: string | null, depth: number) => {
    const pad = '  '.repeat(depth);
    for (const node of spec.nodes.filter((n) => (n.parent ?? null) === parent)) {
      if (node.shape === 'start' || node.shape === 'end') continue;
      const label = node.label ?? node.id;
      if (containers.has(node.id)) {
        lines.push(`${pad}state ${label === node.id ? node.id : `"${label}" as ${node.id}`} {`);
        if (node.direction) lines.push(`${pad}  direction ${node.direction}`);
        write(node.id, depth + 1);
        lines.push(`${pad}}`);
      } else if (label === node.id) {
        lines.push(`${pad}${node.id}`);
      } else if (label.includes('\n') || label === '') {
        for (const line of label === '' ? [''] : label.split('\n')) lines.push(`${pad}${node.id} : ${line}`);
      } else {
        lines.push(`${pad}state "${label}" as ${node.id}`);
      }
    }
    for (const edge of spec.edges.filter((e) => scopeOf(e) === parent)) lines.push(`${pad}${ref(edge.from)} --> ${ref(edge.to)}${edge.label ? ` : ${edge.label}` : ''}`);
  };
  write(null, 1);
  return `${lines.join('\n')}\n`;
}
