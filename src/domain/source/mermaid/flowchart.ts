/**
 * A Mermaid flowchart (`flowchart`, `graph`) as a spec: its nodes with their
 * shapes, labels and styling; its subgraphs as containers (nested as they
 * nest, each in the direction Mermaid draws it in), whose ids are the
 * subgraphs' so links to and from a subgraph end at its container; its links
 * in source order, chains and `&` lists written out as Mermaid does.
 */
import { type Converter, diagramDirection, directionOf } from './convert.ts';
import type { MermaidDiagram, MermaidNode } from './runtime.ts';
import { escapeRegExp } from './source-text.ts';
import type { NodeInput, SpecDirection, SpecInput } from './spec-input.ts';

/** The line of a subgraph's `subgraph` statement. */
const subgraphLine = (convert: Converter, id: string): number => convert.source.find(new RegExp(`^\\s*subgraph\\s+${escapeRegExp(id)}\\b`)) ?? convert.source.lineOf(id);

function container(convert: Converter, node: MermaidNode, flows: SubgraphFlows): NodeInput {
  const spec: NodeInput = { id: node.id };
  if (node.parentId !== undefined) spec.parent = node.parentId;
  const line = subgraphLine(convert, node.id);
  convert.label(spec, node.label, node.labelType, line);
  convert.look(spec, node, line);
  // A subgraph laid out on its own says its direction even when the flow around has it: the layout then boxes it as Mermaid does.
  const { context, own, alone } = flows.get(node.id)!;
  if (own !== undefined && (alone || own !== context)) spec.direction = own;
  return spec;
}

type SubgraphFlows = Map<string, { context: SpecDirection; own: SpecDirection | undefined; alone: boolean }>;

/**
 * Each subgraph's direction as Mermaid draws it, and that of the flow it sits
 * in. A subgraph that no link enters or leaves is laid out on its own, in its
 * `direction`, or else across the flow around it (left to right in a
 * top-to-bottom flow, top to bottom in any other); any other subgraph follows
 * the flow it sits in (Mermaid ignores its `direction`, and so does the
 * layout). This is Mermaid's own reading (`adjustClustersAndEdges`):
 * - a link that ends on a subgraph itself does not link it, at any depth: the
 *   link joins the subgraph's box (temporal-nexus-1's Scheduler, drawn left to
 *   right in a top-down flow). But where another link does cross a
 *   subgraph's border, a link ending on it is drawn to its first node, and so
 *   links the subgraph holding that node;
 * - "across" compares the written direction: inside a subgraph written
 *   `direction TD` (not `TB`), a subgraph laid out on its own runs top to
 *   bottom.
 */
function subgraphFlows(nodes: MermaidNode[], edges: Array<{ start: string; end: string }>, direction: SpecDirection): SubgraphFlows {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const ancestors = (id: string): string[] => {
    const chain: string[] = [];
    for (let p = byId.get(id)?.parentId; p !== undefined && !chain.includes(p); p = byId.get(p)?.parentId) chain.push(p);
    return chain;
  };
  const holds = new Set<string>();
  for (const node of nodes) for (const group of ancestors(node.id)) holds.add(group);
  const linked = new Set<string>();
  for (const { start, end } of edges) {
    const [around, aroundEnd] = [ancestors(start), ancestors(end)];
    for (const group of [...around.filter((g) => !aroundEnd.includes(g)), ...aroundEnd.filter((g) => !around.includes(g))]) linked.add(group);
  }
  // Once a link crosses a subgraph's border, a link that ends on the subgraph is drawn to its first node, depth first
  // (or to the subgraph holding that node, if no link crosses that one's border), and so links what holds it.
  const firstLeaf = (group: string, depth = 0): string | undefined => {
    for (const child of nodes) {
      if (child.parentId !== group || depth > nodes.length) continue;
      const leaf = holds.has(child.id) ? firstLeaf(child.id, depth + 1) : child.id;
      if (leaf !== undefined) return leaf;
    }
    return undefined;
  };
  const anchors = new Map<string, string>();
  for (const group of holds) {
    const leaf = firstLeaf(group);
    const around = leaf === undefined ? undefined : byId.get(leaf)!.parentId!;
    if (leaf !== undefined) anchors.set(group, around !== group && !linked.has(around!) ? around! : leaf);
  }
  for (const { start, end } of edges) {
    for (const group of [start, end]) {
      const inside = linked.has(group) ? byId.get(anchors.get(group) ?? '')?.parentId : undefined;
      if (inside !== undefined) linked.add(inside);
    }
  }
  const isolated = (group: string) => holds.has(group) && !linked.has(group);
  // Each subgraph laid out on its own, with its direction as written (`TD` is not `TB` here) or as chosen.
  const written = new Map<string, string>();
  const flows: SubgraphFlows = new Map();
  const flowOf = (group: string): { context: SpecDirection; own: SpecDirection | undefined; alone: boolean } => {
    const known = flows.get(group);
    if (known) return known;
    const dir = byId.get(group)!.dir?.trim().toUpperCase();
    // The flow around: that of the nearest enclosing subgraph laid out on its own, else the diagram's.
    const outer = ancestors(group).find(isolated);
    const context = outer === undefined ? direction : flowOf(outer).own!;
    const contextWritten = outer === undefined ? direction : written.get(outer)!;
    const alone = isolated(group);
    const own = alone ? (dir !== undefined && directionOf(dir) !== undefined ? dir : contextWritten === 'TB' ? 'LR' : 'TB') : dir;
    if (alone) written.set(group, own!);
    const flow = { context, own: directionOf(own), alone };
    flows.set(group, flow);
    return flow;
  };
  for (const node of nodes) if (node.isGroup) flowOf(node.id);
  return flows;
}

function node(convert: Converter, from: MermaidNode): NodeInput {
  const spec: NodeInput = { id: from.id };
  if (from.parentId !== undefined) spec.parent = from.parentId;
  const line = convert.source.definitionOf(from.id);
  if (from.shape === 'collapsedGroup') {
    convert.warnings.add('collapsed', line, 'a collapsed subgraph (view: collapsed) is drawn as one box, without what it holds, as Mermaid draws it');
  } else convert.shape(spec, from.shape, line);
  convert.label(spec, from.label, from.labelType, line);
  // An icon or image without a label: Mermaid shows only the picture; the spec shows the id.
  if ((from.icon !== undefined || from.img !== undefined) && spec.label === '') delete spec.label;
  convert.look(spec, from, line);
  if (spec.shape === 'start' || spec.shape === 'end' || spec.shape === 'fork') delete spec.label;
  return spec;
}

export function flowchartSpec(diagram: MermaidDiagram, convert: Converter): SpecInput {
  const { nodes, edges } = diagram.db.getData();
  const direction = diagramDirection(diagram);
  const flows = subgraphFlows(nodes, edges, direction);
  // Mermaid lists subgraphs in the order they end, outermost first; the spec lists them as the source opens them.
  const lines = new Map(nodes.filter((n) => n.isGroup).map((n) => [n.id, subgraphLine(convert, n.id)]));
  const ordered = [...nodes.filter((n) => n.isGroup).sort((a, b) => lines.get(a.id)! - lines.get(b.id)!), ...nodes.filter((n) => !n.isGroup)];
  return {
    nodes: ordered.map((n) => (n.isGroup ? container(convert, n, flows) : node(convert, n))),
    edges: edges.map((edge) => convert.edge(edge, edge.start, edge.end)),
    ...(direction === 'TB' ? {} : { layout: { direction } }),
  };
}
