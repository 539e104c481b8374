/**
 * What flowcharts and state diagrams share on their way to a spec: the
 * reading of one node's label, shape and styling and one link's, each with
 * the warnings for what the spec cannot draw, at the source line they come
 * from.
 */
import { readLabel } from './labels.ts';
import type { MermaidDiagram, MermaidEdge, MermaidNode } from './runtime.ts';
import { drawingOf } from './shapes.ts';
import { escapeRegExp, type SourceText, type Warnings } from './source-text.ts';
import type { Arrowhead, EdgeInput, NodeInput, SpecDirection } from './spec-input.ts';
import { declarations, edgeLook, nodeLook } from './styles.ts';

const DIRECTIONS: Record<string, SpecDirection> = { TB: 'TB', TD: 'TB', BT: 'BT', LR: 'LR', RL: 'RL' };

/** A Mermaid direction (`TD`, `LR`, …) as the spec's, or undefined. */
export const directionOf = (written: string | undefined): SpecDirection | undefined => (written === undefined ? undefined : DIRECTIONS[written.trim().toUpperCase()]);

/** The diagram's own direction (top to bottom unless it says otherwise). */
export const diagramDirection = (diagram: MermaidDiagram): SpecDirection => directionOf(diagram.db.getDirection?.()) ?? 'TB';

/** Mermaid's arrowhead names; `arrow_barb` is a state diagram's. */
const ARROWHEADS: Record<string, Arrowhead> = { arrow_point: 'arrow', arrow_barb: 'arrow', arrow_circle: 'circle', arrow_cross: 'bar', arrow_open: 'none', none: 'none' };

/** Mermaid draws thick links (`==>`) 3.5 px wide against 2 px; the spec's default is 2, the editor's next width 4. */
const THICK_WIDTH = 4;

export class Converter {
  readonly source: SourceText;
  readonly warnings: Warnings;
  constructor(source: SourceText, warnings: Warnings) {
    this.source = source;
    this.warnings = warnings;
  }

  /** Warns, at the first style statement naming `needle`, else at `line`. */
  private styleReport(line: number) {
    return (message: string, needle?: string) => {
      const styleLine = needle === undefined ? null : this.source.find(new RegExp(`^\\s*(style|classDef|linkStyle|class)\\b.*${escapeRegExp(needle)}`));
      this.warnings.add(message, styleLine ?? line, message);
    };
  }

  /** A node's label, and its bold and italic, into `node` (nothing when the label is the id). */
  label(node: NodeInput, raw: string | undefined, labelType: string | undefined, line: number): void {
    const label = readLabel(raw, labelType);
    for (const message of label.lost) this.warnings.add(message, line, message);
    if (label.text !== node.id) node.label = label.text;
    if (label.bold) node.bold = true;
    if (label.italic) node.italic = true;
  }

  /** A node's shape into `node`, warned about when only the nearest. */
  shape(node: NodeInput, mermaidShape: string | undefined, line: number): void {
    const { shape, nearest } = drawingOf(mermaidShape);
    if (nearest) this.warnings.add(`shape:${nearest}`, line, nearest);
    if (shape !== 'rectangle') node.shape = shape;
  }

  /** A node's styling (its classes', then its own `style`) into `node`. */
  look(node: NodeInput, from: MermaidNode, line: number): void {
    const look = nodeLook(declarations(from.cssCompiledStyles, from.cssStyles), this.styleReport(line));
    Object.assign(node, look);
  }

  /** A link as the spec's edge; `from` and `to` are the spec's ids of its ends. */
  edge(edge: MermaidEdge, from: string, to: string): EdgeInput {
    const line = this.edgeLine(edge);
    const spec: EdgeInput = { from, to };
    const label = readLabel(edge.label, edge.labelType);
    for (const message of label.lost) this.warnings.add(message, line, message);
    if (label.bold || label.italic) this.warnings.add('edge-label-style', line, 'bold and italic link labels are drawn plain');
    if (label.text !== '') spec.label = label.text;
    const end = ARROWHEADS[edge.arrowTypeEnd ?? 'arrow_point'] ?? 'arrow';
    const start = ARROWHEADS[edge.arrowTypeStart ?? 'none'] ?? 'none';
    if (end !== 'arrow') spec.arrowhead = end;
    if (start !== 'none') spec.startArrowhead = start;
    if (edge.pattern === 'dotted') spec.style = 'dotted';
    if (edge.pattern === 'thick') spec.strokeWidth = THICK_WIDTH;
    if (edge.minlen !== undefined && edge.minlen > 1) spec.minLength = edge.minlen;
    Object.assign(spec, edgeLook(declarations(edge.cssCompiledStyles, edge.style), this.styleReport(line)));
    if (edge.pattern === 'invisible') {
      spec.style = 'invisible';
      if (spec.label !== undefined) this.warnings.add('invisible-label', line, 'labels of invisible links (~~~) are not drawn');
    }
    return spec;
  }

  /** The line a link is written on: its own id's (`e1@-->`), else the first naming both its ends, else its start's. */
  edgeLine(edge: MermaidEdge): number {
    const named = (id: string) => `(^|[^\\w-])${escapeRegExp(id)}($|[^\\w-])`;
    return (
      this.source.find(new RegExp(`(^|[^\\w-])${escapeRegExp(edge.id)}@`)) ??
      this.source.find(new RegExp(`${named(edge.start)}.*${named(edge.end)}|${named(edge.end)}.*${named(edge.start)}`)) ??
      this.source.lineOf(edge.start)
    );
  }
}
