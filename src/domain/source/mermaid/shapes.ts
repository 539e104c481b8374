/**
 * Mermaid's node shapes and the spec shape each is drawn as.
 *
 * A Mermaid node's `shape` is the bracket syntax's name (`[(…)]` is
 * `cylinder`, `{{…}}` is `hexagon`, `[/…\]` is `trapezoid`) or the name
 * written in `@{ shape: … }`, any of Mermaid's short names and aliases
 * (`cyl`, `db`, `database`). Where the spec has the same outline, the node is
 * drawn as it; where it has one close to it, as that one, with a warning
 * saying so; every other Mermaid shape is a rectangle, with a warning naming
 * it. The spec draws every rectangle with rounded corners, so `[…]` and `(…)`
 * both come out rounded.
 */
import type { SpecShape } from './spec-input.ts';

interface Drawing {
  shape: SpecShape;
  /** Set when the drawing is only the nearest: what the warning says. */
  nearest?: string;
}

function table(rows: Array<[names: string[], drawing: Drawing]>): Map<string, Drawing> {
  return new Map(rows.flatMap(([names, drawing]) => names.map((name) => [name, drawing] as const)));
}

const SHAPES = table([
  [['squareRect', 'square', 'rect', 'rectangle', 'proc', 'process', 'roundedRect', 'round', 'rounded', 'event', 'rectWithTitle', 'state'], { shape: 'rectangle' }],
  [['stadium', 'terminal', 'pill'], { shape: 'stadium' }],
  [['subroutine', 'subproc', 'subprocess', 'fr-rect', 'framed-rectangle'], { shape: 'subroutine' }],
  [['cylinder', 'cyl', 'db', 'database'], { shape: 'cylinder' }],
  [['circle', 'circ'], { shape: 'circle' }],
  [['ellipse'], { shape: 'ellipse' }],
  [['diamond', 'diam', 'decision', 'question', 'choice'], { shape: 'diamond' }],
  [['hexagon', 'hex', 'prepare'], { shape: 'hexagon' }],
  [['lean_right', 'lean-r', 'lean-right', 'in-out'], { shape: 'parallelogram' }],
  [['doc', 'document'], { shape: 'document' }],
  [['text'], { shape: 'text' }],
  // A small filled circle: a start marker, and Mermaid's junction is drawn alike.
  [['stateStart', 'sm-circ', 'small-circle', 'start', 'f-circ', 'filled-circle', 'junction'], { shape: 'start' }],
  [['stateEnd', 'fr-circ', 'framed-circle', 'stop'], { shape: 'end' }],
  [['fork', 'join', 'forkJoin'], { shape: 'fork' }],
  // Nodes that show an icon or image (warned about as such): their box.
  [['icon', 'iconSquare', 'iconRounded', 'imageSquare'], { shape: 'rectangle' }],
  [['iconCircle'], { shape: 'circle' }],

  [['lean_left', 'lean-l', 'lean-left', 'out-in'], { shape: 'parallelogram', nearest: 'parallelograms leaning left (lean-l) are drawn leaning right' }],
  [['trapezoid', 'trap-b', 'trapezoid-bottom', 'priority', 'inv_trapezoid', 'trap-t', 'trapezoid-top', 'inv-trapezoid', 'manual'], { shape: 'parallelogram', nearest: 'trapezoids (trap-b, trap-t) are drawn as parallelograms' }],
  [['doublecircle', 'dbl-circ', 'double-circle'], { shape: 'doublecircle' }],
  [['odd', 'rect_left_inv_arrow'], { shape: 'rectangle', nearest: 'asymmetric shapes (odd) are drawn as rectangles' }],
  [['h-cyl', 'das', 'horizontal-cylinder', 'lin-cyl', 'disk', 'lined-cylinder'], { shape: 'cylinder', nearest: 'horizontal and lined cylinders (h-cyl, lin-cyl) are drawn as upright cylinders' }],
  [['docs', 'documents', 'st-doc', 'stacked-document', 'lin-doc', 'lined-document', 'tag-doc', 'tagged-document', 'flag', 'paper-tape'], { shape: 'document', nearest: 'stacked, lined and tagged documents and paper tape (docs, lin-doc, tag-doc, flag) are drawn as documents' }],
  [['delay', 'half-rounded-rectangle'], { shape: 'stadium', nearest: 'delays (half-rounded rectangles) are drawn as stadiums' }],
  [['cross-circ', 'crossed-circle', 'summary'], { shape: 'circle', nearest: 'crossed circles (cross-circ) are drawn as circles' }],
  [['cloud'], { shape: 'ellipse', nearest: 'clouds are drawn as ellipses' }],
  [['brace', 'brace-l', 'brace-r', 'braces', 'comment'], { shape: 'text', nearest: 'curly-brace comments (brace, braces) are drawn as text without the braces' }],
]);

/** How a Mermaid shape is drawn; `nearest` set when the spec has no likeness of it. */
export function drawingOf(mermaidShape: string | undefined): Drawing {
  const name = mermaidShape ?? 'squareRect';
  return SHAPES.get(name) ?? { shape: 'rectangle', nearest: `the ${name} shape is drawn as a rectangle` };
}
