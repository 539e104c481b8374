/**
 * A spec written as a Mermaid flowchart, in the syntax Mermaid's own parser
 * reads and GitHub draws: each node declared once, in its subgraph, with the
 * bracket form of its shape (or `@{ shape: … }` where Mermaid has no
 * brackets for it); containers as subgraphs (nested, with their own
 * `direction`); edges with their label, heads, dots or thickness and length;
 * colours, widths, dashes, bold and italic as `style` and `linkStyle`; the
 * caption as the front matter's title. Ids Mermaid cannot take as they are
 * (a keyword such as `end`, spaces, punctuation) are written as new ids,
 * warned, unless the diagram is a plain state machine: then it is written as a
 * state diagram, whose ids may hold them (state-text.ts).
 */
import { SPEC_LIMITS } from '../spec/types.ts';
import type { EdgeInput as Edge, ExportSpec as Spec, ExportWarning, NodeInput as Node } from './scene-spec.ts';
import { specToStateDiagram } from './state-text.ts';

/** Words Mermaid's flowchart grammar reads as its own where a node id stands. */
const KEYWORDS = new Set(['end', 'graph', 'flowchart', 'subgraph', 'style', 'class', 'classDef', 'click', 'linkStyle', 'direction', 'call', 'href', 'default', 'interpolate', 'accTitle', 'accDescr']);
/** Ids Mermaid reads as they are: runs of letters, digits and `_ * + ? ! / $ '`, joined by single dots or dashes. */
const PLAIN_ID = /^[\w*+?!/$']+(?:[.-][\w*+?!/$']+)*$/;

/** The brackets of each shape Mermaid has them for, else its `@{ shape: … }` name. */
const BRACKETS: Record<string, [string, string]> = {
  rectangle: ['[', ']'],
  stadium: ['([', '])'],
  subroutine: ['[[', ']]'],
  cylinder: ['[(', ')]'],
  circle: ['((', '))'],
  doublecircle: ['(((', ')))'],
  diamond: ['{', '}'],
  hexagon: ['{{', '}}'],
  parallelogram: ['[/', '/]'],
  ellipse: ['(-', '-)'],
};
const NAMED: Record<string, string> = { document: 'doc', text: 'text', start: 'sm-circ', end: 'fr-circ', fork: 'fork' };

/** Text inside a quoted Mermaid label: its quotes, markup, backslashes (`\\n` would be a line break) and entity starts as Mermaid's entity codes, lines as `<br>`; an empty one a space, which Mermaid reads as no label. */
function mermaidString(text: string): string {
  if (text === '') return '" "';
  const escaped = text.replace(/[#"<>&`\\]/g, (c) => `#${c.charCodeAt(0)};`).replace(/\r?\n/g, '<br>');
  return `"${escaped}"`;
}

/** A node id as Mermaid reads it: kept when it can be, else a new one that is, warned. */
function idWriter(spec: Spec, warn: (message: string, ids: string[]) => void): (id: string) => string {
  const taken = new Set(spec.nodes.map((n) => n.id).filter((id) => PLAIN_ID.test(id) && !KEYWORDS.has(id)));
  const written = new Map<string, string>();
  return (id) => {
    const known = written.get(id);
    if (known !== undefined) return known;
    let out = id;
    if (!PLAIN_ID.test(id) || KEYWORDS.has(id)) {
      const base = (id.replace(/[^\w*+?!/$'.-]/g, '_').replace(/[.-]{2,}/g, '_').replace(/^[.-]|[.-]$/g, '_') || 'n').slice(0, SPEC_LIMITS.idLength - 4);
      out = KEYWORDS.has(base) ? `${base}_` : base;
      for (let i = 2; taken.has(out); i++) out = `${base}_${i}`;
      taken.add(out);
      warn(`the id "${id}" is written "${out}": Mermaid reads ids of letters, digits and _ * + ? ! / $ ' joined by single dots or dashes, other than its own words (end, style, …)`, [id]);
    }
    written.set(id, out);
    return out;
  };
}

/** The spec as Mermaid flowchart text, and what Mermaid cannot say. */
export function specToMermaid(spec: Spec): { text: string; warnings: ExportWarning[] } {
  // A state machine whose state ids a flowchart would rename is written as the state diagram it is.
  const renames = spec.nodes.some((n) => !PLAIN_ID.test(n.id) || KEYWORDS.has(n.id));
  const asStates = renames ? specToStateDiagram(spec) : null;
  if (asStates !== null) return { text: asStates, warnings: [] };
  const warnings: ExportWarning[] = [];
  const warn = (message: string, elementIds: string[]) => warnings.push({ message, elementIds });
  const idOf = idWriter(spec, warn);
  const lines: string[] = [];
  if (spec.caption) lines.push('---', `title: ${JSON.stringify(spec.caption)}`, '---');
  lines.push(`flowchart ${spec.layout.direction ?? 'TB'}`);

  const children = new Map<string | null, Node[]>();
  for (const node of spec.nodes) children.set(node.parent ?? null, [...(children.get(node.parent ?? null) ?? []), node]);
  const isContainer = (node: Node) => children.has(node.id);
  const styles: string[] = [];
  const write = (parent: string | null, depth: number) => {
    const pad = '  '.repeat(depth);
    for (const node of children.get(parent) ?? []) {
      const id = idOf(node.id);
      if (isContainer(node)) {
        lines.push(`${pad}subgraph ${id} [${mermaidString(node.label ?? node.id)}]`);
        if (node.direction) lines.push(`${pad}  direction ${node.direction}`);
        write(node.id, depth + 1);
        lines.push(`${pad}end`);
      } else {
        lines.push(`${pad}${nodeText(node, id, warn)}`);
      }
      const css = nodeCss(node);
      if (css !== '') styles.push(`style ${id} ${css}`);
      if (node.icon) warn(`the icon ${node.icon} is left out: Mermaid names icons from its own packs`, [node.id]);
    }
  };
  write(null, 1);

  spec.edges.forEach((edge, i) => {
    lines.push(`  ${edgeText(edge, idOf, warn)}`);
    const css = edgeCss(edge);
    if (css !== '') styles.push(`linkStyle ${i} ${css}`);
    if (edge.headLabel !== undefined || edge.tailLabel !== undefined) warn('head and tail labels are left out: Mermaid has no label at an end of a link', [`${edge.from}-to-${edge.to}`]);
  });
  for (const style of styles) lines.push(`  ${style}`);
  return { text: `${lines.join('\n')}\n`, warnings };
}

function nodeText(node: Node, id: string, warn: (message: string, ids: string[]) => void): string {
  const shape = node.shape ?? 'rectangle';
  const label = node.label ?? node.id;
  const brackets = BRACKETS[shape];
  if (brackets) return shape === 'rectangle' && label === node.id && id === node.id ? id : `${id}${brackets[0]}${mermaidString(label)}${brackets[1]}`;
  const name = NAMED[shape];
  if (name === undefined) {
    warn(`the ${shape} shape is written as a rectangle`, [node.id]);
    return `${id}[${mermaidString(label)}]`;
  }
  const marker = shape === 'start' || shape === 'end' || shape === 'fork';
  return `${id}@{ shape: ${name}${marker ? '' : `, label: ${mermaidString(label)}`} }`;
}

/** A node's `style` declarations: what differs from Mermaid's look and the spec's defaults. */
function nodeCss(node: Node): string {
  const css: string[] = [];
  if (node.backgroundColor) css.push(`fill:${node.backgroundColor}`);
  if (node.strokeColor) css.push(`stroke:${node.strokeColor}`);
  if (node.textColor) css.push(`color:${node.textColor}`);
  if (node.strokeWidth) css.push(`stroke-width:${node.strokeWidth}px`);
  if (node.strokeStyle === 'dashed' || node.strokeStyle === 'dotted') css.push('stroke-dasharray:5 5');
  if (node.bold) css.push('font-weight:bold');
  if (node.italic) css.push('font-style:italic');
  return css.join(',');
}

/** Mermaid's heads at an end of a link, by the spec's arrowhead. */
function headMark(head: Edge['arrowhead'], end: 'start' | 'end'): string | null {
  switch (head ?? (end === 'end' ? 'arrow' : 'none')) {
    case 'none':
      return '';
    case 'arrow':
    case 'triangle':
      return end === 'end' ? '>' : '<';
    case 'circle':
    case 'dot':
      return 'o';
    case 'bar':
      return 'x';
    default:
      return null;
  }
}

function edgeText(edge: Edge, idOf: (id: string) => string, warn: (message: string, ids: string[]) => void): string {
  const name = `${edge.from}-to-${edge.to}`;
  let start = headMark(edge.startArrowhead ?? 'none', 'start');
  let end = headMark(edge.arrowhead ?? 'arrow', 'end');
  if (start === null || end === null) {
    warn('diamond arrowheads are written as arrows: Mermaid\'s links end in an arrow, a circle or a cross', [name]);
    start ??= '<';
    end ??= '>';
  }
  if (start !== '' && end === '') {
    // Mermaid has no link with a head at its start only: the same link, written the other way round.
    warn('a link with a head only at its start is written the other way round, its head at the end', [name]);
    return edgeText({ ...edge, from: edge.to, to: edge.from, arrowhead: edge.startArrowhead, startArrowhead: 'none' }, idOf, () => {});
  }
  const extra = Math.max(0, (edge.minLength ?? 1) - 1);
  const label = edge.label ? `|${mermaidString(edge.label)}|` : '';
  const [from, to] = [idOf(edge.from), idOf(edge.to)];
  const thick = edge.strokeWidth === 4;
  const dotted = edge.style === 'dotted';
  // A link's middle: `--`/`==` and one more for each extra rank; dotted `-.-` with one more dot.
  const body = dotted ? `-${'.'.repeat(1 + extra)}-` : (thick ? '=' : '-').repeat(2 + extra);
  const tail = end === '' && !dotted ? body.at(-1)! : '';
  return `${from} ${start}${body}${tail}${end}${label} ${to}`;
}

/** A link's `linkStyle` declarations: colour, a width other than the thick link's, dashes. */
function edgeCss(edge: Edge): string {
  const css: string[] = [];
  if (edge.strokeColor) css.push(`stroke:${edge.strokeColor}`);
  if (edge.strokeWidth && edge.strokeWidth !== 4) css.push(`stroke-width:${edge.strokeWidth}px`);
  if (edge.style === 'dashed') css.push('stroke-dasharray:5 5');
  return css.join(',');
}
