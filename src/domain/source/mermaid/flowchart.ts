/**
 * A Mermaid flowchart (`flowchart`, `graph`) as a spec: its nodes with their
 * shapes, labels and styling; its subgraphs as containers (nested as they
 * nest, each with its own direction when it gives one), whose ids are the
 * subgraphs' so links to and from a subgraph end at its container; its links
 * in source order, chains and `&` lists written out as Mermaid does.
 */
import { type Converter, diagramDirection, directionOf } from './convert.ts';
import type { MermaidDiagram, MermaidNode } from './runtime.ts';
import { escapeRegExp } from './source-text.ts';
import type { NodeInput, SpecDirection, SpecInput } from './spec-input.ts';

function container(convert: Converter, node: MermaidNode, direction: SpecDirection): NodeInput {
  const spec: NodeInput = { id: node.id };
  if (node.parentId !== undefined) spec.parent = node.parentId;
  const line = convert.source.find(new RegExp(`^\\s*subgraph\\s+${escapeRegExp(node.id)}\\b`)) ?? convert.source.lineOf(node.id);
  convert.label(spec, node.label, node.labelType, line);
  convert.look(spec, node, line);
  const own = directionOf(node.dir);
  if (own !== undefined && own !== direction) spec.direction = own;
  return spec;
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
  return {
    nodes: nodes.map((n) => (n.isGroup ? container(convert, n, direction) : node(convert, n))),
    edges: edges.map((edge) => convert.edge(edge, edge.start, edge.end)),
    ...(direction === 'TB' ? {} : { layout: { direction } }),
  };
}
