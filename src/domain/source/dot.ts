/**
 * Graphviz DOT read into a spec, with @ts-graphviz/ast's parser (a PEG
 * grammar of the DOT language as Graphviz documents it).
 *
 * Statements are walked in order with Graphviz's scoping: `node [...]` and
 * `edge [...]` defaults apply to what follows them in their graph or
 * subgraph; a node takes the defaults in force where it is first named.
 * `subgraph cluster_*` becomes a container (nested clusters nest); other
 * subgraphs only group statements. What the spec cannot draw is a warning,
 * one per kind of thing, at the line where it first occurs.
 */
import { type ASTNode, type AttributeASTNode, type EdgeASTNode, type GraphASTNode, type NodeASTNode, parse, type SubgraphASTNode } from '@ts-graphviz/ast';
import type { DiagramSpecInput } from '../spec/schema.ts';
import { graphvizColor, inkFor } from './colors.ts';
import { htmlLabelText } from './html-text.ts';
import { type ImportedSource, SourceSyntaxError, type SourceWarning } from './types.ts';

type Attributes = Map<string, string>;

interface Scope {
  node: Attributes;
  edge: Attributes;
  /** The innermost cluster around this scope, if any. */
  cluster: string | null;
}

interface DotNode {
  id: string;
  attributes: Attributes;
  /** Whether its label is HTML-like (`label=<…>`). */
  htmlLabel: boolean;
  cluster: string | null;
  line: number;
}

interface DotCluster {
  id: string;
  parent: string | null;
  label: string | null;
  htmlLabel: boolean;
  attributes: Attributes;
  line: number;
}

interface DotEdge {
  from: string;
  to: string;
  attributes: Attributes;
  htmlLabel: boolean;
  line: number;
}

/** Graphviz shapes and the spec shape each is drawn as. */
const SHAPES: Record<string, 'rectangle' | 'ellipse' | 'diamond' | 'text' | 'start' | 'end'> = {
  box: 'rectangle',
  rect: 'rectangle',
  rectangle: 'rectangle',
  square: 'rectangle',
  record: 'rectangle',
  mrecord: 'rectangle',
  ellipse: 'ellipse',
  oval: 'ellipse',
  circle: 'ellipse',
  doublecircle: 'ellipse',
  point: 'start',
  diamond: 'diamond',
  mdiamond: 'diamond',
  plaintext: 'text',
  plain: 'text',
  none: 'text',
  underline: 'text',
};
/** Shapes drawn as a rectangle for now, with a warning: the spec has no outline like theirs yet. */
const ROUGHLY_RECTANGLES = new Set(['cylinder', 'hexagon', 'parallelogram', 'note', 'tab', 'folder', 'component', 'box3d', 'octagon', 'doubleoctagon', 'tripleoctagon', 'msquare', 'house', 'invhouse', 'trapezium', 'invtrapezium', 'pentagon', 'septagon', 'cds', 'signature', 'rpromoter', 'rarrow', 'larrow', 'lpromoter', 'star', 'underline', 'cylinder', 'egg', 'triangle', 'invtriangle', 'polygon', 'promoter', 'terminator', 'utr', 'primersite', 'restrictionsite', 'fivepoverhang', 'threepoverhang', 'noverhang', 'assembly', 'insulator', 'ribosite', 'rnastab', 'proteasesite', 'proteinstab', 'lpromoter', 'square']);

const ARROWHEADS: Record<string, 'arrow' | 'triangle' | 'bar' | 'dot' | 'circle' | 'diamond' | 'none'> = {
  normal: 'arrow',
  vee: 'arrow',
  open: 'arrow',
  halfopen: 'arrow',
  empty: 'triangle',
  onormal: 'triangle',
  inv: 'triangle',
  oinv: 'triangle',
  invempty: 'triangle',
  dot: 'dot',
  invdot: 'dot',
  odot: 'circle',
  invodot: 'circle',
  tee: 'bar',
  box: 'bar',
  obox: 'bar',
  crow: 'arrow',
  diamond: 'diamond',
  odiamond: 'diamond',
  ediamond: 'diamond',
  none: 'none',
};

/** Graph attributes that tune Graphviz's own layout or output: Drawbridge lays out and draws itself, so they change nothing a reader is told. */
const LAYOUT_TUNING = new Set([
  'splines', 'nodesep', 'ranksep', 'size', 'ratio', 'margin', 'pad', 'dpi', 'resolution', 'concentrate', 'compound', 'newrank', 'ordering', 'remincross',
  'mclimit', 'nslimit', 'nslimit1', 'searchsize', 'pack', 'packmode', 'center', 'rotate', 'landscape', 'orientation', 'outputorder', 'overlap', 'sep',
  'esep', 'mode', 'model', 'start', 'epsilon', 'maxiter', 'k', 'len', 'layout', 'charset', 'fontname', 'fontsize', 'fontpath', 'labeljust', 'labelloc',
  'clusterrank', 'quantum', 'page', 'pagedir', 'nojustify', 'forcelabels', 'stylesheet', 'class', 'id', 'tooltip', 'comment', 'width', 'height',
  'fixedsize', 'regular', 'peripheries', 'sides', 'skew', 'distortion', 'group', 'weight', 'samehead', 'sametail', 'headport', 'tailport', 'arrowsize',
  'labelfontsize', 'labelfontname', 'labelfontcolor', 'labelangle', 'labeldistance', 'decorate', 'headclip', 'tailclip', 'imagescale', 'imagepos',
  'fontnames', 'truecolor', 'showboxes', 'root', 'levels', 'levelsgap', 'dim', 'dimen', 'diredgeconstraints', 'inputscale', 'normalize', 'notranslate',
  'voro_margin', 'xdotversion', 'rank', 'labelfloat', 'penwidth', 'gradientangle', 'ordering', 'z', 'vertices', 'orientation',
]);

/** Attributes whose effect a reader would see and that the drawing leaves out. */
const NOT_DRAWN: Record<string, string> = {
  pos: 'fixed positions (pos) are not kept: Drawbridge lays the diagram out',
  image: 'images (image) are not drawn',
  URL: 'links (URL, href) are not kept',
  href: 'links (URL, href) are not kept',
  headlabel: 'head and tail labels (headlabel, taillabel) are not drawn',
  taillabel: 'head and tail labels (headlabel, taillabel) are not drawn',
  bgcolor: 'the background colour (bgcolor) is not drawn',
  fontcolor: 'text colours (fontcolor) are not drawn yet: a label takes its outline colour',
  constraint: 'constraint=false is not honoured yet: the edge takes part in the ranking',
  minlen: 'minimum edge lengths (minlen) are not honoured yet',
  lhead: 'edges clipped at a cluster (lhead, ltail) end at the node they name',
  ltail: 'edges clipped at a cluster (lhead, ltail) end at the node they name',
};

class Walk {
  readonly nodes = new Map<string, DotNode>();
  readonly clusters = new Map<string, DotCluster>();
  readonly edges: DotEdge[] = [];
  readonly warnings = new Map<string, SourceWarning>();
  readonly sameRank: string[][] = [];
  directed = true;
  strict = false;
  graphName = '';
  graphAttributes: Attributes = new Map();

  warn(key: string, line: number, message: string): void {
    if (!this.warnings.has(key)) this.warnings.set(key, { line, message });
  }

  /** A node named at `line` in `scope`: created with the scope's node defaults the first time; moved into a cluster it is named in. */
  touch(id: string, scope: Scope, line: number): DotNode {
    let node = this.nodes.get(id);
    if (!node) {
      node = { id, attributes: new Map(scope.node), htmlLabel: false, cluster: scope.cluster, line };
      this.nodes.set(id, node);
    } else if (scope.cluster !== null && node.cluster !== scope.cluster && this.isAncestor(node.cluster, scope.cluster)) {
      node.cluster = scope.cluster;
    }
    return node;
  }

  /** Whether `ancestor` (null: the root) encloses `cluster`. */
  isAncestor(ancestor: string | null, cluster: string): boolean {
    for (let at: string | null = this.clusters.get(cluster)?.parent ?? null; ; at = this.clusters.get(at!)?.parent ?? null) {
      if (at === ancestor) return true;
      if (at === null) return false;
    }
  }
}

const lineOf = (node: ASTNode) => node.location?.start.line ?? 1;

function attributesOf(children: readonly ASTNode[], into: Attributes, html?: Set<string>): Attributes {
  for (const child of children) {
    if (child.type !== 'Attribute') continue;
    const attribute = child as AttributeASTNode;
    into.set(attribute.key.value, attribute.value.value);
    if (html) {
      if (attribute.value.quoted === 'html') html.add(attribute.key.value);
      else html.delete(attribute.key.value);
    }
  }
  return into;
}

function statements(walk: Walk, children: readonly ASTNode[], scope: Scope, cluster: DotCluster | null): string[] {
  const named: string[] = [];
  let rank: string | null = null;
  for (const child of children) {
    const line = lineOf(child);
    switch (child.type) {
      case 'Attribute': {
        const { key, value } = child as AttributeASTNode;
        if (key.value === 'rank') rank = value.value;
        else graphAttribute(walk, key.value, value.value, (value.quoted as unknown) === 'html', line, cluster);
        break;
      }
      case 'AttributeList': {
        const list = child as ASTNode & { kind: 'Graph' | 'Node' | 'Edge'; children: ASTNode[] };
        if (list.kind === 'Node') attributesOf(list.children, scope.node);
        else if (list.kind === 'Edge') attributesOf(list.children, scope.edge);
        else
          for (const attribute of list.children.filter((c) => c.type === 'Attribute') as AttributeASTNode[]) {
            if (attribute.key.value === 'rank') rank = attribute.value.value;
            else graphAttribute(walk, attribute.key.value, attribute.value.value, attribute.value.quoted === 'html', lineOf(attribute), cluster);
          }
        break;
      }
      case 'Node': {
        const statement = child as NodeASTNode;
        const node = walk.touch(statement.id.value, scope, line);
        const html = new Set<string>(node.htmlLabel ? ['label'] : []);
        attributesOf(statement.children, node.attributes, html);
        node.htmlLabel = html.has('label');
        named.push(node.id);
        break;
      }
      case 'Edge':
        named.push(...edgeStatement(walk, child as EdgeASTNode, scope, cluster));
        break;
      case 'Subgraph':
        named.push(...subgraph(walk, child as SubgraphASTNode, scope, cluster));
        break;
      default:
        break;
    }
  }
  if (rank !== null) {
    if (rank === 'same' && named.length > 1) walk.sameRank.push([...new Set(named)]);
    if (rank !== 'same' || named.length > 1) walk.warn('rank', lineOf(children[0] ?? ({ location: undefined } as unknown as ASTNode)), `rank=${rank} groups are not honoured yet: their nodes are ranked by their edges`);
  }
  return named;
}

function graphAttribute(walk: Walk, key: string, value: string, html: boolean, line: number, cluster: DotCluster | null): void {
  if (cluster) {
    if (key === 'label') {
      cluster.label = value;
      cluster.htmlLabel = html;
    } else cluster.attributes.set(key, value);
    return;
  }
  walk.graphAttributes.set(key, value);
  if (key === 'label' || key === 'rankdir') return;
  if (NOT_DRAWN[key]) walk.warn(key, line, NOT_DRAWN[key]!);
  else if (!LAYOUT_TUNING.has(key)) walk.warn(`graph:${key}`, line, `the graph attribute ${key} is not used`);
}

function subgraph(walk: Walk, statement: SubgraphASTNode, outer: Scope, cluster: DotCluster | null): string[] {
  const id = statement.id?.value;
  let inner: DotCluster | null = cluster;
  if (id !== undefined && id.startsWith('cluster')) {
    inner = walk.clusters.get(id) ?? { id, parent: cluster?.id ?? null, label: null, htmlLabel: false, attributes: new Map(), line: lineOf(statement) };
    walk.clusters.set(id, inner);
  }
  const scope: Scope = { node: new Map(outer.node), edge: new Map(outer.edge), cluster: inner?.id ?? null };
  return statements(walk, statement.children, scope, inner);
}

function edgeStatement(walk: Walk, statement: EdgeASTNode, scope: Scope, cluster: DotCluster | null): string[] {
  const line = lineOf(statement);
  const ends: string[][] = [];
  const named: string[] = [];
  for (const target of statement.targets as ASTNode[]) {
    if (target.type === 'NodeRef') {
      const ref = target as ASTNode & { id: { value: string }; port?: { value: string }; compass?: unknown };
      if (ref.port !== undefined || ref.compass !== undefined) walk.warn('port', line, 'ports (node:port) are not kept: edges end at the node');
      ends.push([walk.touch(ref.id.value, scope, line).id]);
    } else if (target.type === 'NodeRefGroup') {
      const group = target as ASTNode & { children: Array<{ id: { value: string } }> };
      ends.push(group.children.map((ref) => walk.touch(ref.id.value, scope, line).id));
    } else if (target.type === 'Subgraph') {
      ends.push(subgraph(walk, target as SubgraphASTNode, scope, cluster));
    }
    named.push(...ends[ends.length - 1]!);
  }
  const html = new Set<string>();
  const attributes = attributesOf(statement.children, new Map(scope.edge), html);
  for (let i = 0; i + 1 < ends.length; i++)
    for (const from of ends[i]!) for (const to of ends[i + 1]!) walk.edges.push({ from, to, attributes, htmlLabel: html.has('label'), line });
  return named;
}

/** A DOT escString as plain text: `\n` `\l` `\r` line ends, `\N` `\G` names, `\"` and `\\`. */
function escString(value: string, names: { node?: string; graph: string; tail?: string; head?: string }): string {
  return value
    .replace(/\\([nlrNGTHE"\\])/g, (_, code: string) => {
      switch (code) {
        case 'n':
        case 'l':
        case 'r':
          return '\n';
        case 'N':
          return names.node ?? '';
        case 'G':
          return names.graph;
        case 'T':
          return names.tail ?? '';
        case 'H':
          return names.head ?? '';
        case 'E':
          return names.tail && names.head ? `${names.tail}->${names.head}` : '';
        default:
          return code;
      }
    })
    .replace(/\n$/, '');
}

/** A record label's fields, one a line: `{a|b|<p> c}` → `a\nb\nc`. */
function recordText(label: string): string {
  return label
    .replace(/\\([{}|<> ])/g, (_, c: string) => `\u0000${c}`)
    .replace(/<[^>]*>/g, '')
    .replace(/[{}]/g, '|')
    .split('|')
    .map((field) => field.trim())
    .filter((field) => field !== '')
    .join('\n')
    .replace(/\u0000/g, '');
}

function labelOf(walk: Walk, raw: string | undefined, html: boolean, record: boolean, names: Parameters<typeof escString>[1], line: number): string | undefined {
  if (raw === undefined) return undefined;
  if (html) {
    walk.warn('html', line, 'HTML-like labels are drawn as plain text, one line per line or table row');
    return htmlLabelText(raw);
  }
  const text = escString(raw, names);
  if (record) {
    if (/[{}|<]/.test(text)) walk.warn('record', line, 'record labels are drawn as one line per field; ports are dropped');
    return recordText(text);
  }
  return text;
}

function styleWords(attributes: Attributes): Set<string> {
  return new Set((attributes.get('style') ?? '').split(',').map((word) => word.trim().replace(/\(.*$/, '')).filter(Boolean));
}

function nodeSpec(walk: Walk, node: DotNode): Record<string, unknown> {
  const a = node.attributes;
  const shapeName = (a.get('shape') ?? 'ellipse').toLowerCase();
  let shape = SHAPES[shapeName];
  if (shape === undefined) {
    shape = 'rectangle';
    if (ROUGHLY_RECTANGLES.has(shapeName)) walk.warn(`shape:${shapeName}`, node.line, `shape=${shapeName} is drawn as a rectangle`);
    else walk.warn(`shape:${shapeName}`, node.line, `shape=${shapeName} is not a Graphviz shape Drawbridge knows; drawn as a rectangle`);
  }
  const record = shapeName === 'record' || shapeName === 'mrecord';
  const style = styleWords(a);
  const spec: Record<string, unknown> = { id: node.id };
  if (node.cluster !== null) spec.parent = node.cluster;
  const label = labelOf(walk, a.get('label'), node.htmlLabel, record, { node: node.id, graph: walk.graphName }, node.line);
  if (shape !== 'start' && label !== undefined && label !== node.id) spec.label = label;
  if (shape !== 'rectangle') spec.shape = shape;
  if (style.has('invis')) {
    walk.warn('invisible-node', node.line, 'invisible nodes (style=invis) are drawn as empty text');
    return { id: node.id, label: '', shape: 'text', ...(node.cluster !== null ? { parent: node.cluster } : {}) };
  }
  const filled = style.has('filled') || style.has('radial') || style.has('striped') || style.has('wedged');
  const fill = a.get('fillcolor') ?? (filled ? (a.get('color') ?? 'lightgrey') : undefined);
  if (filled && fill !== undefined) {
    colorInto(walk, spec, 'backgroundColor', fill, node.line);
    if (spec.backgroundColor !== undefined) spec.fillStyle = 'solid';
  }
  inkInto(walk, spec, { outline: a.get('color'), text: a.get('fontcolor') }, node.line);
  if (style.has('dashed') || style.has('dotted')) walk.warn('node-style', node.line, 'dashed and dotted outlines of nodes are not drawn yet');
  if (style.has('bold') || (a.has('penwidth') && Number(a.get('penwidth')) > 1.5)) walk.warn('node-bold', node.line, 'bold outlines (style=bold, penwidth) are not drawn yet');
  for (const key of a.keys()) if (NOT_DRAWN[key] && key !== 'fontcolor') walk.warn(key, node.line, NOT_DRAWN[key]!);
  return spec;
}

/**
 * The outline and label colour (one colour in the spec) from the source's
 * outline and text colours: the outline's unless the label would not be
 * readable on the fill in it (Graphviz fills with the outline colour and
 * writes the label in black).
 */
function inkInto(walk: Walk, spec: Record<string, unknown>, colours: { outline?: string | undefined; text?: string | undefined }, line: number): void {
  const known = (raw: string | undefined) => {
    if (raw === undefined) return null;
    const colour = graphvizColor(raw);
    if (colour === null) walk.warn(`color:${raw}`, line, `the colour "${raw}" is not one Drawbridge knows; left out`);
    return colour;
  };
  const outline = known(colours.outline);
  const text = known(colours.text);
  const { ink, changed } = inkFor({ outline, text, fill: (spec.backgroundColor as string | undefined) ?? null });
  if (ink !== null) spec.strokeColor = ink;
  if (changed) walk.warn('ink', line, 'an outline colour in which the label would not be readable is replaced by the label\'s: a node\'s outline and label share one colour');
  else if (text !== null && ink !== text && !/^(black|#000000|#000)$/.test(text)) walk.warn('fontcolor', line, NOT_DRAWN.fontcolor!);
}

function colorInto(walk: Walk, spec: Record<string, unknown>, field: string, raw: string, line: number): void {
  const color = graphvizColor(raw);
  if (color === null) walk.warn(`color:${raw}`, line, `the colour "${raw}" is not one Drawbridge knows; left out`);
  else spec[field] = color;
}

function edgeSpec(walk: Walk, edge: DotEdge): Record<string, unknown> | null {
  const a = edge.attributes;
  const style = styleWords(a);
  if (style.has('invis')) {
    walk.warn('invisible-edge', edge.line, 'invisible edges (style=invis) are left out');
    return null;
  }
  const spec: Record<string, unknown> = { from: edge.from, to: edge.to };
  const names = { graph: walk.graphName, tail: edge.from, head: edge.to };
  const label = labelOf(walk, a.get('label') ?? a.get('xlabel'), edge.htmlLabel, false, names, edge.line);
  if (label !== undefined && label !== '') spec.label = label;
  const dir = a.get('dir') ?? (walk.directed ? 'forward' : 'none');
  const head = ARROWHEADS[(a.get('arrowhead') ?? 'normal').replace(/^[lr]/, '')] ?? 'arrow';
  const tail = ARROWHEADS[(a.get('arrowtail') ?? 'normal').replace(/^[lr]/, '')] ?? 'arrow';
  spec.arrowhead = dir === 'forward' || dir === 'both' ? head : 'none';
  spec.startArrowhead = dir === 'back' || dir === 'both' ? tail : 'none';
  if (spec.arrowhead === 'arrow') delete spec.arrowhead;
  if (spec.startArrowhead === 'none') delete spec.startArrowhead;
  if (style.has('dashed')) spec.style = 'dashed';
  else if (style.has('dotted')) spec.style = 'dotted';
  if (a.has('color') && graphvizColor(a.get('color')!) !== null && !/^(black|#000000|#000)$/.test(a.get('color')!.toLowerCase())) {
    walk.warn('edge-color', edge.line, 'edge colours are not drawn yet');
  }
  if (style.has('bold') || (a.has('penwidth') && Number(a.get('penwidth')) > 1.5)) walk.warn('edge-bold', edge.line, 'bold edges (style=bold, penwidth) are not drawn yet');
  for (const key of a.keys()) if (NOT_DRAWN[key]) walk.warn(key, edge.line, NOT_DRAWN[key]!);
  return spec;
}

const DIRECTIONS: Record<string, 'TB' | 'BT' | 'LR' | 'RL'> = { tb: 'TB', bt: 'BT', lr: 'LR', rl: 'RL' };

/** Reads DOT text into a spec; a syntax error is a SourceSyntaxError with the parser's expectation. */
export function importDot(text: string): ImportedSource {
  let ast;
  try {
    ast = parse(text);
  } catch (error) {
    throw syntaxError(error);
  }
  const graphs = ast.children.filter((child): child is GraphASTNode => child.type === 'Graph');
  if (graphs.length === 0) throw new SourceSyntaxError('there is no graph: a DOT file holds "digraph NAME { … }" or "graph NAME { … }"', 1, 1);
  const graph = graphs[0]!;
  const walk = new Walk();
  if (graphs.length > 1) walk.warn('graphs', lineOf(graphs[1]!), 'only the first graph of the file is drawn');
  walk.directed = graph.directed;
  walk.strict = graph.strict;
  walk.graphName = graph.id?.value ?? '';
  statements(walk, graph.children, { node: new Map(), edge: new Map(), cluster: null }, null);

  const nodes: Record<string, unknown>[] = [];
  for (const cluster of walk.clusters.values()) {
    const label = labelOf(walk, cluster.label ?? undefined, cluster.htmlLabel, false, { graph: walk.graphName }, cluster.line);
    const container: Record<string, unknown> = { id: cluster.id, label: label ?? '' };
    if (cluster.parent !== null) container.parent = cluster.parent;
    const fill = cluster.attributes.get('fillcolor') ?? cluster.attributes.get('bgcolor');
    if (fill !== undefined && styleWords(cluster.attributes).has('filled')) {
      colorInto(walk, container, 'backgroundColor', fill, cluster.line);
      if (container.backgroundColor !== undefined) container.fillStyle = 'solid';
    }
    inkInto(walk, container, { outline: cluster.attributes.get('pencolor') ?? cluster.attributes.get('color'), text: cluster.attributes.get('fontcolor') }, cluster.line);
    nodes.push(container);
  }
  for (const node of walk.nodes.values()) nodes.push(nodeSpec(walk, node));

  const seen = new Set<string>();
  const edges: Record<string, unknown>[] = [];
  for (const edge of walk.edges) {
    if (walk.strict) {
      const key = walk.directed ? `${edge.from}\u0000${edge.to}` : [edge.from, edge.to].sort().join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const spec = edgeSpec(walk, edge);
    if (spec) edges.push(spec);
  }
  const rankdir = DIRECTIONS[(walk.graphAttributes.get('rankdir') ?? 'TB').toLowerCase()] ?? 'TB';
  const graphLabel = walk.graphAttributes.get('label');
  const spec: DiagramSpecInput = { nodes: nodes as DiagramSpecInput['nodes'], edges: edges as DiagramSpecInput['edges'], ...(rankdir === 'TB' ? {} : { layout: { direction: rankdir } }) };
  const title = graphLabel !== undefined ? escString(graphLabel, { graph: walk.graphName }).replace(/\s+/g, ' ').trim() || null : null;
  return { spec, warnings: [...walk.warnings.values()].sort((a, b) => a.line - b.line), title };
}

function syntaxError(error: unknown): SourceSyntaxError {
  const cause = (error as { cause?: { location?: { start: { line: number; column: number } }; expected?: Array<{ type: string; text?: string; description?: string }>; found?: string | null } }).cause;
  const start = cause?.location?.start ?? { line: 1, column: 1 };
  const expected = [...new Set((cause?.expected ?? []).map((e) => (e.type === 'literal' ? JSON.stringify(e.text) : (e.description ?? e.type))))];
  const found = cause?.found === null || cause?.found === undefined ? 'the end of the text' : JSON.stringify(cause.found);
  return new SourceSyntaxError(`unexpected ${found}`, start.line, start.column, expected);
}
