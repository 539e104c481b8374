/**
 * A spec written as Graphviz DOT: a `digraph` with `rankdir`, each node
 * declared once in its cluster with its shape, label and colours; containers
 * as clusters (a container whose id does not start with "cluster" is written
 * `subgraph "cluster_id" { id="id" … }`: Graphviz boxes it, Drawbridge reads
 * its id back); edges with their
 * label, head and tail labels, heads (`dir`, `arrowhead`, `arrowtail`), style,
 * colour and width, `minlen`; an edge to or from a container ends at a node
 * inside it, cut at the cluster's border (`compound=true`, `lhead`, `ltail`);
 * the caption as the graph's label. Every id is quoted, so any id is kept.
 */
import type { EdgeInput as Edge, ExportSpec as Spec, ExportWarning, NodeInput as Node } from './scene-spec.ts';

const SHAPES: Record<string, string> = {
  rectangle: 'box',
  ellipse: 'ellipse',
  circle: 'circle',
  doublecircle: 'doublecircle',
  diamond: 'diamond',
  cylinder: 'cylinder',
  hexagon: 'hexagon',
  parallelogram: 'parallelogram',
  subroutine: 'component',
  document: 'note',
  text: 'plaintext',
  start: 'point',
};
const HEADS: Record<string, string> = { arrow: 'normal', triangle: 'empty', bar: 'tee', dot: 'dot', circle: 'odot', diamond: 'diamond', none: 'none' };

/** A DOT id: quoted, its quotes escaped (Graphviz keeps every other backslash of an id as it is). */
const dotId = (id: string) => `"${id.replace(/"/g, '\\"')}"`;

/** A DOT label (an escString): quoted, its quotes and backslashes escaped, its lines as `\n`. */
const dotLabel = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;

/** Attributes whose values are ids (a cluster's name) rather than text. */
const ID_VALUED = new Set(['lhead', 'ltail', 'id']);
const value = (key: string, v: string | number) => (typeof v === 'number' ? String(v) : ID_VALUED.has(key) ? dotId(v) : dotLabel(v));
const attributes = (pairs: Array<[string, string | number]>) => (pairs.length === 0 ? '' : ` [${pairs.map(([k, v]) => `${k}=${value(k, v)}`).join(', ')}]`);

/** The spec as DOT text, and what DOT cannot say. */
export function specToDot(spec: Spec): { text: string; warnings: ExportWarning[] } {
  const warnings: ExportWarning[] = [];
  const warn = (message: string, elementIds: string[]) => warnings.push({ message, elementIds });
  const children = new Map<string | null, Node[]>();
  for (const node of spec.nodes) children.set(node.parent ?? null, [...(children.get(node.parent ?? null) ?? []), node]);
  const isContainer = (id: string) => children.has(id);
  const lines = ['digraph {'];
  const graph: Array<[string, string | number]> = [['rankdir', spec.layout.direction ?? 'TB']];
  if (spec.caption) graph.push(['label', spec.caption], ['labelloc', spec.layout.captionAt === 'bottom' ? 'b' : 't']);
  const containerEnds = spec.edges.some((e) => isContainer(e.from) || isContainer(e.to));
  if (containerEnds) graph.push(['compound', 'true']);
  for (const [key, v] of graph) lines.push(`  ${key}=${value(key, v)}`);
  lines.push('  node [shape=box, style=rounded]');

  const write = (parent: string | null, depth: number) => {
    const pad = '  '.repeat(depth);
    for (const node of children.get(parent) ?? []) {
      if (isContainer(node.id)) {
        // Graphviz boxes a subgraph whose name starts with "cluster"; the container's id goes in its `id`.
        const named = /^cluster/i.test(node.id);
        lines.push(`${pad}subgraph ${dotId(named ? node.id : `cluster_${node.id}`)} {`);
        const own: Array<[string, string | number]> = named ? [] : [['id', node.id]];
        own.push(['label', node.label ?? node.id], ...clusterLook(node));
        for (const [key, v] of own) lines.push(`${pad}  ${key}=${value(key, v)}`);
        if (node.direction) warn('a container\'s own direction is left out: Graphviz lays a cluster out in the graph\'s direction', [node.id]);
        write(node.id, depth + 1);
        lines.push(`${pad}}`);
      } else {
        lines.push(`${pad}${dotId(node.id)}${attributes(nodeAttributes(node, warn))}`);
      }
      if (node.icon) warn(`the icon ${node.icon} is left out: DOT has no catalog icons`, [node.id]);
    }
  };
  write(null, 1);

  for (const edge of spec.edges) {
    const ends = endsOf(edge, children);
    if (ends === null) {
      warn('an edge to an empty container is left out: DOT joins nodes', [`${edge.from}-to-${edge.to}`]);
      continue;
    }
    lines.push(`  ${dotId(ends.from)} -> ${dotId(ends.to)}${attributes([...ends.clip, ...edgeAttributes(edge)])}`);
  }
  lines.push('}');
  return { text: `${lines.join('\n')}\n`, warnings };
}

function nodeAttributes(node: Node, warn: (message: string, ids: string[]) => void): Array<[string, string | number]> {
  const shape = node.shape ?? 'rectangle';
  const pairs: Array<[string, string | number]> = [];
  const label = node.label ?? node.id;
  if (shape === 'end') pairs.push(['shape', 'point'], ['peripheries', 2], ['width', 0.25]);
  else if (shape === 'fork') pairs.push(['shape', 'box'], ['label', ''], ['height', 0.1], ['width', 1.4], ['style', 'filled'], ['fillcolor', node.backgroundColor ?? node.strokeColor ?? 'black']);
  else {
    if (shape !== 'rectangle' && shape !== 'stadium') pairs.push(['shape', SHAPES[shape]!]);
    if (shape === 'stadium') warn('a stadium is written as a rounded box: DOT has no stadium', [node.id]);
    if (shape !== 'start' && label !== node.id) pairs.push(['label', label]);
  }
  if (shape === 'end') {
    if (node.strokeColor) pairs.push(['color', node.strokeColor]);
    return pairs;
  }
  if (shape === 'fork') {
    warn('a fork bar is written as a thin filled box: DOT has no bar', [node.id]);
    return pairs;
  }
  const styles = shape === 'rectangle' || shape === 'stadium' ? ['rounded'] : [];
  if (node.backgroundColor) {
    styles.push('filled');
    pairs.push(['fillcolor', node.backgroundColor]);
  }
  if (node.strokeStyle === 'dashed' || node.strokeStyle === 'dotted') styles.push(node.strokeStyle);
  if (shape !== 'rectangle' || styles.length !== 1) pairs.push(['style', styles.join(',')]);
  return [...pairs, ...inkOf(node)];
}

function clusterLook(node: Node): Array<[string, string | number]> {
  const pairs: Array<[string, string | number]> = [];
  const styles = [node.strokeStyle === 'solid' ? 'solid' : (node.strokeStyle ?? 'dashed')];
  if (node.backgroundColor) {
    styles.push('filled');
    pairs.push(['fillcolor', node.backgroundColor]);
  }
  pairs.push(['style', styles.join(',')]);
  return [...pairs, ...inkOf(node)];
}

/** A node's or a cluster's outline colour and width and its label's colour and font: Graphviz's pen width is half the spec's stroke width. */
function inkOf(node: Node): Array<[string, string | number]> {
  const pairs: Array<[string, string | number]> = [];
  if (node.strokeColor) pairs.push(['color', node.strokeColor]);
  if (node.textColor) pairs.push(['fontcolor', node.textColor]);
  if (node.strokeWidth) pairs.push(['penwidth', node.strokeWidth / 2]);
  const font = node.bold && node.italic ? 'Helvetica-BoldOblique' : node.bold ? 'Helvetica-Bold' : node.italic ? 'Helvetica-Oblique' : null;
  if (font) pairs.push(['fontname', font]);
  return pairs;
}

/** An edge's ends as DOT nodes: a container's first node inside it, the edge cut at the cluster (`lhead`, `ltail`); null when a container holds no node. */
function endsOf(edge: Edge, children: Map<string | null, Node[]>): { from: string; to: string; clip: Array<[string, string]> } | null {
  const inner = (id: string): string | null => {
    const members = children.get(id);
    if (!members) return id;
    for (const member of members) {
      const found = inner(member.id);
      if (found !== null) return found;
    }
    return null;
  };
  const [from, to] = [inner(edge.from), inner(edge.to)];
  if (from === null || to === null) return null;
  const clip: Array<[string, string]> = [];
  const cluster = (id: string) => (/^cluster/i.test(id) ? id : `cluster_${id}`);
  if (from !== edge.from) clip.push(['ltail', cluster(edge.from)]);
  if (to !== edge.to) clip.push(['lhead', cluster(edge.to)]);
  return { from, to, clip };
}

function edgeAttributes(edge: Edge): Array<[string, string | number]> {
  const pairs: Array<[string, string | number]> = [];
  if (edge.label) pairs.push(['label', edge.label]);
  if (edge.headLabel !== undefined) pairs.push(['headlabel', edge.headLabel]);
  if (edge.tailLabel !== undefined) pairs.push(['taillabel', edge.tailLabel]);
  const [head, tail] = [edge.arrowhead ?? 'arrow', edge.startArrowhead ?? 'none'];
  const dir = head !== 'none' && tail !== 'none' ? 'both' : head !== 'none' ? null : tail !== 'none' ? 'back' : 'none';
  if (dir !== null) pairs.push(['dir', dir]);
  if (head !== 'none' && head !== 'arrow') pairs.push(['arrowhead', HEADS[head]!]);
  if (tail !== 'none') pairs.push(['arrowtail', HEADS[tail]!]);
  if (edge.style === 'dashed' || edge.style === 'dotted') pairs.push(['style', edge.style]);
  if (edge.strokeColor) pairs.push(['color', edge.strokeColor]);
  if (edge.strokeWidth) pairs.push(['penwidth', edge.strokeWidth / 2]);
  if (edge.constraint === false) pairs.push(['constraint', 'false']);
  if (edge.minLength !== undefined && edge.minLength !== 1) pairs.push(['minlen', edge.minLength]);
  return pairs;
}
