/**
 * Graphviz DOT read into a spec, with @ts-graphviz/ast's parser (a PEG
 * grammar of the DOT language as Graphviz documents it).
 *
 * Statements are walked in order with Graphviz's scoping: `node [...]`,
 * `edge [...]` and graph attributes apply to what is created after them in
 * their graph or subgraph (a subgraph starts with its parent's), so a node
 * takes the defaults in force where it is first named and a cluster those in
 * force where it opens. `subgraph cluster*` becomes a container (nested
 * clusters nest); other subgraphs only group statements, and their `rank`
 * makes a `layout.sameRank` group. What the spec cannot draw is a warning,
 * one per kind of thing, at the line where it first occurs
 * (dot-style.ts says what each attribute becomes).
 */
import { type ASTNode, ASTNodeCountExceededError, type AttributeASTNode, type EdgeASTNode, type GraphASTNode, type NodeASTNode, parse, type SubgraphASTNode } from '@ts-graphviz/ast';
import type { DiagramSpecInput } from '../spec/schema.ts';
import { type Attr, type Attributes, clusterFields, clusterIsDashed, edgeFields, isTrue, labelOf, NOT_DRAWN, nodeFields, type StyleContext } from './dot-style.ts';
import { escString } from './dot-labels.ts';
import { parserReadyDot } from './dot-text.ts';
import { type ImportedSource, SourceSyntaxError, type SourceWarning } from './types.ts';

interface Scope {
  node: Attributes;
  edge: Attributes;
  graph: Attributes;
  /** The innermost cluster around this scope, if any: nodes first named here belong to it. */
  cluster: string | null;
}

interface DotNode {
  id: string;
  attributes: Attributes;
  cluster: string | null;
  line: number;
}

interface DotCluster {
  id: string;
  parent: string | null;
  /** Its graph attributes: those in force where it opened, then its own. */
  attributes: Attributes;
  /** Its own `id` attribute (Graphviz's identifier for output), which names its container instead of `cluster_…`. */
  ownId: string | null;
  line: number;
}

interface DotEdge {
  from: string;
  to: string;
  attributes: Attributes;
  line: number;
  /** The port named at the tail (`a:f0 -> b`), if any. */
  tailPort?: string;
}

/** Graph attributes the importer reads. */
const GRAPH_USED = new Set(['label', 'rankdir', 'compound', 'color', 'pencolor', 'fillcolor', 'bgcolor', 'style', 'penwidth', 'peripheries', 'fontcolor', 'fontname', 'rank', 'cluster']);

/** Graph attributes that tune Graphviz's own layout or output: Drawbridge lays out and draws in its own style, so they are ignored without a warning. */
const LAYOUT_TUNING = new Set([
  'splines', 'nodesep', 'ranksep', 'size', 'ratio', 'margin', 'pad', 'dpi', 'resolution', 'concentrate', 'newrank', 'ordering', 'remincross', 'mclimit',
  'nslimit', 'nslimit1', 'searchsize', 'pack', 'packmode', 'center', 'rotate', 'landscape', 'orientation', 'outputorder', 'overlap', 'overlap_scaling',
  'overlap_shrink', 'sep', 'esep', 'mode', 'model', 'start', 'epsilon', 'maxiter', 'k', 'len', 'layout', 'charset', 'fontsize', 'fontpath', 'labeljust',
  'labelloc', 'clusterrank', 'quantum', 'page', 'pagedir', 'nojustify', 'forcelabels', 'stylesheet', 'class', 'id', 'tooltip', 'comment', 'truecolor',
  'showboxes', 'root', 'levels', 'levelsgap', 'dim', 'dimen', 'diredgeconstraints', 'inputscale', 'normalize', 'notranslate', 'voro_margin', 'xdotversion',
  'gradientangle', 'colorscheme', 'fontnames', 'imagepath', 'searchsize', 'smoothing', 'splines', 'lwidth', 'lheight', 'lp', 'bb', 'labelfontsize',
]);

/** DOT ids the spec takes as they are: not empty or blank, at most this long. */
const MAX_ID_LENGTH = 100;

class Walk {
  readonly nodes = new Map<string, DotNode>();
  readonly clusters = new Map<string, DotCluster>();
  readonly edges: DotEdge[] = [];
  readonly warnings = new Map<string, SourceWarning>();
  readonly sameRank: string[][] = [];
  /** In a strict graph, the edge already made between two nodes. */
  readonly strictEdges = new Map<string, DotEdge>();
  directed = true;
  strict = false;
  graphAttributes: Attributes = new Map();

  /** One warning per kind (attributes with one message, such as URL and href, are one kind), at the first line it occurs. */
  warn = (key: string, line: number, message: string): void => {
    const same = this.warnings.get(key) ?? [...this.warnings.values()].find((w) => w.message === message);
    if (same === undefined) this.warnings.set(key, { line, message });
    else same.line = Math.min(same.line, line);
  };

  /** A node named at `line` in `scope`: created with the scope's node defaults the first time; moved into a cluster inside its own when named there. */
  touch(id: string, scope: Scope, line: number): DotNode {
    let node = this.nodes.get(id);
    if (!node) {
      node = { id, attributes: new Map(scope.node), cluster: scope.cluster, line };
      this.nodes.set(id, node);
    } else if (scope.cluster !== null && node.cluster !== scope.cluster && this.encloses(node.cluster, scope.cluster)) {
      node.cluster = scope.cluster;
    }
    return node;
  }

  /** Whether `ancestor` (null: the root) encloses `cluster` (itself excluded). */
  encloses(ancestor: string | null, cluster: string | null): boolean {
    for (let at = cluster === null ? null : (this.clusters.get(cluster)?.parent ?? null); ; at = this.clusters.get(at!)?.parent ?? null) {
      if (at === ancestor) return cluster !== ancestor;
      if (at === null) return false;
    }
  }

  /** Whether a node lies in `cluster`, directly or in a cluster within it. */
  inside(node: string, cluster: string): boolean {
    const at = this.nodes.get(node)?.cluster ?? null;
    return at === cluster || (at !== null && this.encloses(cluster, at));
  }

  addEdge(from: string, to: string, attributes: Attributes, line: number, tailPort?: string): void {
    if (!this.strict) {
      this.edges.push({ from, to, attributes, line, ...(tailPort !== undefined ? { tailPort } : {}) });
      return;
    }
    // A strict graph has one edge per pair of nodes; a repeated edge statement sets attributes of that one.
    const key = this.directed ? `${from}\u0000${to}` : [from, to].sort().join('\u0000');
    const existing = this.strictEdges.get(key);
    if (existing) existing.attributes = new Map([...existing.attributes, ...attributes]);
    else {
      const edge = { from, to, attributes, line, ...(tailPort !== undefined ? { tailPort } : {}) };
      this.strictEdges.set(key, edge);
      this.edges.push(edge);
    }
  }
}

const lineOf = (node: ASTNode) => node.location?.start.line ?? 1;

function setAttributes(children: readonly ASTNode[], into: Attributes): Attributes {
  for (const child of children) {
    if (child.type !== 'Attribute') continue;
    const { key, value } = child as AttributeASTNode;
    into.set(key.value, { value: value.value, line: lineOf(child), html: value.quoted === 'html' });
  }
  return into;
}

/**
 * Walks the statements of a graph or subgraph body in order. `self` is the
 * cluster whose body this is (null for the root and plain subgraphs). Returns
 * the nodes named in it, nested subgraphs included, for `rank`.
 */
function statements(walk: Walk, children: readonly ASTNode[], scope: Scope, self: DotCluster | null, root: boolean): string[] {
  const named: string[] = [];
  let rank: Attr | null = null;
  const graphAttribute = (attribute: AttributeASTNode) => {
    const attr: Attr = { value: attribute.value.value, line: lineOf(attribute), html: attribute.value.quoted === 'html' };
    const key = attribute.key.value;
    if (key === 'rank') rank = attr;
    // A root background is the page's: clusters opened after it do not fill with it.
    if (!(root && key === 'bgcolor')) scope.graph.set(key, attr);
    self?.attributes.set(key, attr);
    if (root) rootAttribute(walk, key, attr);
  };
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const line = lineOf(child);
    switch (child.type) {
      case 'Attribute':
        graphAttribute(child as AttributeASTNode);
        break;
      case 'AttributeList': {
        const list = child as ASTNode & { kind: 'Graph' | 'Node' | 'Edge'; children: ASTNode[] };
        if (list.kind === 'Node') setAttributes(list.children, scope.node);
        else if (list.kind === 'Edge') setAttributes(list.children, scope.edge);
        else for (const attribute of list.children) if (attribute.type === 'Attribute') graphAttribute(attribute as AttributeASTNode);
        break;
      }
      case 'Node': {
        const statement = child as NodeASTNode;
        const node = walk.touch(statement.id.value, scope, line);
        setAttributes(statement.children, node.attributes);
        named.push(node.id);
        break;
      }
      case 'Edge': {
        const joined = subgraphEnd(child as EdgeASTNode, children, i);
        i = joined.last;
        named.push(...edgeStatement(walk, child as EdgeASTNode, joined.subgraph, scope));
        break;
      }
      case 'Subgraph':
        named.push(...subgraph(walk, child as SubgraphASTNode, scope));
        break;
      default:
        break;
    }
  }
  // Graphviz reads rank only in subgraphs; at the root it does nothing.
  if (rank !== null && !root) rankGroup(walk, rank, [...new Set(named)]);
  return named;
}

/**
 * The parser reads an edge ending in a subgraph (`a -> subgraph t { b c }`)
 * as an edge to a node named "subgraph", then a node `t`, then an anonymous
 * subgraph: the subgraph the edge ends in, put back together, and the index
 * of the last statement it takes up.
 */
function subgraphEnd(edge: EdgeASTNode, children: readonly ASTNode[], at: number): { subgraph: SubgraphASTNode | null; last: number } {
  const targets = edge.targets as readonly ASTNode[];
  const end = targets[targets.length - 1] as ASTNode & { id?: { value: string; quoted: unknown }; port?: unknown };
  if (end.type !== 'NodeRef' || end.id?.value !== 'subgraph' || end.id.quoted !== false || end.port !== undefined) return { subgraph: null, last: at };
  let next = at + 1;
  const named = children[next] as (ASTNode & { id: SubgraphASTNode['id']; children: ASTNode[] }) | undefined;
  const hasName = named?.type === 'Node' && named.children.length === 0 && children[next + 1]?.type === 'Subgraph';
  if (hasName) next++;
  const body = children[next] as SubgraphASTNode | undefined;
  if (body?.type !== 'Subgraph' || body.id !== undefined) {
    const start = end.location?.start;
    throw new SourceSyntaxError('unexpected "subgraph" without a body', start?.line ?? 1, start?.column ?? 1, ['"{"']);
  }
  return { subgraph: { ...body, id: hasName ? named!.id : undefined }, last: next };
}

function rankGroup(walk: Walk, rank: Attr, named: string[]): void {
  const value = rank.value.toLowerCase();
  if (value === 'same' || value === 'min' || value === 'max' || value === 'source' || value === 'sink') {
    if (named.length > 1) walk.sameRank.push(named);
    if (value !== 'same') walk.warn('rank-extreme', rank.line, `rank=${value} keeps its nodes on one rank, but not on the ${value === 'min' || value === 'source' ? 'first' : 'last'}`);
  } else walk.warn(`rank:${value}`, rank.line, `rank=${rank.value} is not a Graphviz rank; ignored`);
}

function rootAttribute(walk: Walk, key: string, attr: Attr): void {
  walk.graphAttributes.set(key, attr);
  if (NOT_DRAWN[key]) walk.warn(key, attr.line, NOT_DRAWN[key]!);
  else if (!GRAPH_USED.has(key) && !LAYOUT_TUNING.has(key)) walk.warn(`graph:${key}`, attr.line, `the graph attribute ${key} is not used`);
}

function subgraph(walk: Walk, statement: SubgraphASTNode, outer: Scope): string[] {
  const id = statement.id?.value;
  const own = setAttributes(
    statement.children.flatMap((child) => (child.type === 'AttributeList' && (child as ASTNode & { kind: string }).kind === 'Graph' ? (child as ASTNode & { children: ASTNode[] }).children : [child])),
    new Map(),
  );
  let self: DotCluster | null = null;
  if (id !== undefined && (/^cluster/i.test(id) || isTrue(own.get('cluster')))) {
    self = walk.clusters.get(id) ?? { id, parent: outer.cluster, attributes: new Map(outer.graph), ownId: own.get('id')?.value || null, line: lineOf(statement) };
    walk.clusters.set(id, self);
  }
  const scope: Scope = { node: new Map(outer.node), edge: new Map(outer.edge), graph: new Map(outer.graph), cluster: self?.id ?? outer.cluster };
  return statements(walk, statement.children, scope, self, false);
}

/** An edge statement's edges, from each end to the next; `endSubgraph` is the subgraph it ends in, if it does. */
function edgeStatement(walk: Walk, statement: EdgeASTNode, endSubgraph: SubgraphASTNode | null, scope: Scope): string[] {
  const line = lineOf(statement);
  const ends: EdgeEnd[][] = [];
  const targets: readonly ASTNode[] = endSubgraph ? [...statement.targets.slice(0, -1), endSubgraph] : statement.targets;
  for (const target of targets) {
    if (target.type === 'NodeRef') ends.push([nodeRef(walk, target, scope, line)]);
    else if (target.type === 'NodeRefGroup') ends.push((target as ASTNode & { children: ASTNode[] }).children.map((ref) => nodeRef(walk, ref, scope, line)));
    else if (target.type === 'Subgraph') ends.push([...new Set(subgraph(walk, target as SubgraphASTNode, scope))].map((id) => ({ id })));
  }
  const attributes = setAttributes(statement.children, new Map(scope.edge));
  for (let i = 0; i + 1 < ends.length; i++) for (const from of ends[i]!) for (const to of ends[i + 1]!) walk.addEdge(from.id, to.id, attributes, line, from.port);
  return ends.flat().map((end) => end.id);
}

interface EdgeEnd {
  id: string;
  port?: string;
}

function nodeRef(walk: Walk, target: ASTNode, scope: Scope, line: number): EdgeEnd {
  const ref = target as ASTNode & { id: { value: string }; port?: { value: string }; compass?: unknown };
  if (ref.port !== undefined || ref.compass !== undefined) walk.warn('headport', lineOf(target), NOT_DRAWN.headport!);
  const id = walk.touch(ref.id.value, scope, line).id;
  return ref.port === undefined ? { id } : { id, port: ref.port.value };
}

/**
 * Edges that leave one record from named fields (`node0:f0 -> node1`,
 * `node0:f2 -> node4`) in the order of those fields, each group in the
 * places its edges took: ports are not drawn, but the layout puts a node's
 * targets in the order of its edges, so a binary tree keeps its left child on
 * the left (graphviz's tree example lists the right one first).
 */
function inFieldOrder(edges: DotEdge[], walk: Walk): DotEdge[] {
  const fieldsOf = new Map<string, string[]>();
  const fields = (id: string): string[] => {
    if (!fieldsOf.has(id)) {
      const node = walk.nodes.get(id);
      const shape = node?.attributes.get('shape')?.value.toLowerCase();
      const label = node?.attributes.get('label');
      const record = (shape === 'record' || shape === 'mrecord') && label !== undefined && !label.html;
      fieldsOf.set(id, record ? [...label.value.matchAll(/<([^<>]*)>/g)].map((m) => m[1]!.trim()) : []);
    }
    return fieldsOf.get(id)!;
  };
  const byTail = new Map<string, number[]>();
  edges.forEach((edge, i) => (byTail.get(edge.from) ?? byTail.set(edge.from, []).get(edge.from)!).push(i));
  const ordered = edges.slice();
  for (const [tail, slots] of byTail) {
    const rank = slots.map((i) => (edges[i]!.tailPort === undefined ? -1 : fields(tail).indexOf(edges[i]!.tailPort!)));
    if (slots.length < 2 || rank.some((r) => r < 0)) continue;
    const sorted = slots.map((i, k) => ({ i, r: rank[k]! })).sort((a, b) => a.r - b.r || a.i - b.i);
    slots.forEach((slot, k) => (ordered[slot] = edges[sorted[k]!.i]!));
  }
  return ordered;
}

/** A short stable tag for a text (FNV-1a), to tell shortened ids apart. */
function tag(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36).slice(0, 5);
}

/** Spec ids for DOT ids: the DOT id itself when the spec takes it, else a shortened one; a cluster named like a node gets a suffix. */
class Ids {
  private readonly taken = new Set<string>();
  readonly of = new Map<string, string>();

  add(key: string, dotId: string, walk: Walk, line: number): string {
    let id = dotId;
    if (id.trim() === '' || id.length > MAX_ID_LENGTH) {
      walk.warn('long-id', line, `ids that are empty or longer than ${MAX_ID_LENGTH} characters are shortened; the label keeps the text`);
      id = `${id.slice(0, MAX_ID_LENGTH - 8).trim() || 'node'}~${tag(dotId)}`;
    }
    for (let n = 2; this.taken.has(id); n++) id = `${dotId.slice(0, MAX_ID_LENGTH - 8)}~${n}`;
    this.taken.add(id);
    this.of.set(key, id);
    return id;
  }
}

/** Lists of node ids merged where they share a node, each node once, in the order first named. */
function mergeGroups(groups: string[][]): string[][] {
  const merged: Array<Set<string>> = [];
  for (const group of groups) {
    const touching = merged.filter((set) => group.some((id) => set.has(id)));
    const into = touching[0] ?? new Set<string>();
    if (touching.length === 0) merged.push(into);
    for (const other of touching.slice(1)) {
      for (const id of other) into.add(id);
      merged.splice(merged.indexOf(other), 1);
    }
    for (const id of group) into.add(id);
  }
  return merged.map((set) => [...set]);
}

const DIRECTIONS: Record<string, 'TB' | 'BT' | 'LR' | 'RL'> = { tb: 'TB', bt: 'BT', lr: 'LR', rl: 'RL' };

/** The most common value of a list and the first index holding another, if any. */
function firstOddOne(values: string[]): number {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return values.findIndex((value) => value !== common);
}

/** Reads DOT text into a spec; a syntax error is a SourceSyntaxError with the parser's expectation. */
export function importDot(text: string): ImportedSource<DiagramSpecInput> {
  const { graph, more } = firstGraph(parserReadyDot(text));
  const walk = new Walk();
  if (more !== null) walk.warn('graphs', more, 'only the first graph of the file is drawn');
  walk.directed = graph.directed;
  walk.strict = graph.strict;
  const graphName = graph.id?.value ?? '';
  statements(walk, graph.children, { node: new Map(), edge: new Map(), graph: new Map(), cluster: null }, null, true);

  const direction = DIRECTIONS[(walk.graphAttributes.get('rankdir')?.value ?? 'TB').toLowerCase()] ?? 'TB';
  const ctx: StyleContext = { warn: walk.warn, graphName, recordsAcross: direction === 'TB' || direction === 'BT' };
  const ids = new Ids();
  for (const node of walk.nodes.values()) ids.add(`node:${node.id}`, node.id, walk, node.line);
  for (const cluster of walk.clusters.values()) ids.add(`cluster:${cluster.id}`, cluster.ownId ?? cluster.id, walk, cluster.line);
  const nodeId = (id: string) => ids.of.get(`node:${id}`)!;
  const clusterId = (id: string) => ids.of.get(`cluster:${id}`)!;

  const nodes: Record<string, unknown>[] = [];
  const solidByDefault = [...walk.clusters.values()].some((cluster) => clusterIsDashed(cluster.attributes));
  for (const cluster of walk.clusters.values()) {
    const label = labelOf(ctx, cluster.attributes.get('label'), { graph: cluster.id });
    const container: Record<string, unknown> = { id: clusterId(cluster.id), label: label?.text ?? '' };
    if (cluster.parent !== null) container.parent = clusterId(cluster.parent);
    nodes.push({ ...container, ...clusterFields(ctx, cluster.attributes, label, solidByDefault, cluster.line) });
  }
  for (const node of walk.nodes.values()) {
    const id = nodeId(node.id);
    const spec: Record<string, unknown> = { id };
    if (node.cluster !== null) spec.parent = clusterId(node.cluster);
    const fields = nodeFields(ctx, node.id, node.attributes, node.line);
    // Without a label, dot draws the node's name as one (`\N`), escapes and all: "Statement\nAssignment" is two lines.
    if (fields.label === undefined && fields.shape !== 'start') {
      const name = escString(node.id, { node: node.id, graph: ctx.graphName });
      if (id !== node.id || name !== node.id) fields.label = name;
    }
    nodes.push({ ...spec, ...fields });
  }
  const sizes = [...walk.nodes.values()].map((node) => node.attributes.get('fontsize')?.value ?? '14');
  const odd = firstOddOne(sizes);
  if (odd !== -1) {
    const node = [...walk.nodes.values()][odd]!;
    walk.warn('fontsize', node.attributes.get('fontsize')?.line ?? node.line, 'font sizes (fontsize) are not drawn: every label is drawn at one size');
  }

  const compound = isTrue(walk.graphAttributes.get('compound'));
  const edges = inFieldOrder(walk.edges, walk).map((edge) => {
    const end = (key: 'lhead' | 'ltail', node: string, other: string) => {
      const cluster = edge.attributes.get(key);
      if (!compound || cluster === undefined || cluster.value === '') return nodeId(node);
      if (walk.clusters.has(cluster.value) && walk.inside(node, cluster.value) && !walk.inside(other, cluster.value)) return clusterId(cluster.value);
      walk.warn(`${key}-ignored`, cluster.line, `${key}=${cluster.value} is ignored, as Graphviz ignores it: the ${key === 'lhead' ? 'head' : 'tail'} must be inside that cluster and the other end outside it`);
      return nodeId(node);
    };
    const names = { graph: graphName, tail: edge.from, head: edge.to };
    return { from: end('ltail', edge.from, edge.to), to: end('lhead', edge.to, edge.from), ...edgeFields(ctx, edge.attributes, names, walk.directed) };
  });

  const sameRank = mergeGroups(walk.sameRank).map((group) => group.map(nodeId));
  // The graph's label is drawn as its caption where Graphviz draws it: at the bottom unless labelloc says t.
  const caption = labelOf(ctx, walk.graphAttributes.get('label'), { graph: graphName })?.text.trim() || null;
  const captionAt = /^t/i.test(walk.graphAttributes.get('labelloc')?.value ?? 'b') ? 'top' : 'bottom';
  const layout = { ...(direction === 'TB' ? {} : { direction }), ...(sameRank.length > 0 ? { sameRank } : {}), ...(caption && captionAt === 'bottom' ? { captionAt } : {}) };
  const spec = { nodes, edges, ...(caption ? { caption } : {}), ...(Object.keys(layout).length > 0 ? { layout } : {}) } as DiagramSpecInput;
  // The title is the caption on one line.
  return { spec, warnings: [...walk.warnings.values()].sort((a, b) => a.line - b.line), title: caption?.replace(/\s+/g, ' ') ?? null };
}

/**
 * The file's first graph, and the line where a second one starts, if any:
 * the parser takes one graph per file, so a file of several is read up to
 * where the first ends.
 */
function firstGraph(text: string): { graph: GraphASTNode; more: number | null } {
  let more: number | null = null;
  let ast;
  try {
    ast = parse(text);
  } catch (error) {
    const cause = (error as { cause?: { expected?: Array<{ type: string }>; location?: { start: { offset: number; line: number } } } }).cause;
    const start = cause?.location?.start;
    const afterGraph = start !== undefined && start.offset > 0 && cause!.expected!.some((e) => e.type === 'end') && /^\s*(strict\s+)?(di)?graph\b/i.test(text.slice(start.offset));
    if (!afterGraph) throw syntaxError(error);
    ast = parse(text.slice(0, start.offset));
    more = start.line;
  }
  const graph = ast.children.find((child): child is GraphASTNode => child.type === 'Graph');
  if (graph === undefined) throw new SourceSyntaxError('there is no graph: a DOT file holds "digraph NAME { … }" or "graph NAME { … }"', 1, 1);
  return { graph, more };
}

function syntaxError(error: unknown): SourceSyntaxError {
  if (error instanceof ASTNodeCountExceededError) return new SourceSyntaxError('the source has too many statements to read', 1, 1);
  const cause = (error as { cause?: { location?: { start: { line: number; column: number } }; expected?: Array<{ type: string; text?: string; description?: string; parts?: unknown[] }>; found?: string | null } }).cause;
  if (cause?.location === undefined) return new SourceSyntaxError((error as Error).message ?? 'the source does not parse', 1, 1);
  const start = cause.location.start;
  const expected = [...new Set((cause.expected ?? []).map((e) => (e.type === 'literal' ? JSON.stringify(e.text) : e.type === 'class' ? `one of ${JSON.stringify((e.parts ?? []).flat().join(''))}` : (e.description ?? e.type))))];
  const found = cause.found === null || cause.found === undefined ? 'the end of the text' : JSON.stringify(cause.found);
  return new SourceSyntaxError(`unexpected ${found}`, start.line, start.column, expected);
}
