/**
 * Mermaid read into a spec with Mermaid's own parser (the `mermaid` package,
 * the grammar GitHub renders), so what parses here is exactly what parses
 * there. Flowcharts (`flowchart`, `graph`) and state diagrams
 * (`stateDiagram-v2`, `stateDiagram`) are read; any other kind is refused.
 *
 * Mermaid needs a DOM to sanitise labels: it is loaded once, lazily, with a
 * jsdom window as the global `window` and `document` (the importer runs in a
 * scene worker, a process of its own). Parses are run one at a time: Mermaid
 * keeps each diagram kind's parsed state in a module-level database.
 *
 * Mermaid's parsed model (its `getData()`, what its own renderers lay out)
 * carries no line numbers, so the lines that warnings name are found in the
 * text: the first line that holds the construct, or the node's id.
 */
import { createRequire } from 'node:module';
import type { DiagramSpecInput } from '../spec/schema.ts';
import { cssColor } from './colors.ts';
import { decodeEntities, htmlLabelText } from './html-text.ts';
import { type ImportedSource, SourceSyntaxError, type SourceWarning } from './types.ts';

interface MermaidNode {
  id: string;
  label?: string;
  labelType?: string;
  shape?: string;
  parentId?: string;
  isGroup?: boolean;
  dir?: string;
  cssStyles?: string[];
  cssCompiledStyles?: string[];
  position?: string;
  link?: string;
}

interface MermaidEdge {
  id: string;
  start: string;
  end: string;
  label?: string;
  labelType?: string;
  arrowTypeStart?: string;
  arrowTypeEnd?: string;
  pattern?: string;
  thickness?: string;
  style?: string[] | string;
  classes?: string;
}

interface MermaidDiagram {
  type: string;
  db: { getData(): { nodes: MermaidNode[]; edges: MermaidEdge[] }; getDirection?(): string };
}

interface MermaidModule {
  initialize(config: Record<string, unknown>): void;
  mermaidAPI: { getDiagramFromText(text: string): Promise<MermaidDiagram> };
}

let loading: Promise<MermaidModule> | null = null;

/** Mermaid, loaded the first time with a jsdom window for its sanitiser. */
function mermaid(): Promise<MermaidModule> {
  loading ??= (async () => {
    // jsdom ships no type declarations: its constructor is typed here as far as it is used.
    const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: { document: unknown } } };
    const scope = globalThis as Record<string, unknown>;
    if (scope.document === undefined) {
      const { window } = new JSDOM('<!doctype html><html><body></body></html>');
      scope.window = window;
      scope.document = window.document;
    }
    const module = ((await import('mermaid')) as unknown as { default: MermaidModule }).default;
    module.initialize({ startOnLoad: false, securityLevel: 'strict' });
    return module;
  })();
  return loading;
}

/** Whether this process has loaded Mermaid (with its DOM, about 110 MB of heap that stays). */
export function mermaidLoaded(): boolean {
  return loading !== null;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `work` after every earlier parse has finished. */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

type SpecShape = 'rectangle' | 'ellipse' | 'diamond' | 'text' | 'start' | 'end' | 'fork' | 'cylinder' | 'stadium' | 'circle' | 'hexagon' | 'parallelogram' | 'subroutine' | 'document';

/**
 * Mermaid's shape names (the bracket syntaxes' and the `@{ shape: … }` ones)
 * and the spec shape each is drawn as; `exact` false: an outline the spec has
 * no likeness of yet, drawn as the nearest with a warning.
 */
const SHAPES: Record<string, { shape: SpecShape; exact: boolean; name?: string }> = {
  squareRect: { shape: 'rectangle', exact: true },
  rect: { shape: 'rectangle', exact: true },
  square: { shape: 'rectangle', exact: true },
  rectangle: { shape: 'rectangle', exact: true },
  process: { shape: 'rectangle', exact: true },
  proc: { shape: 'rectangle', exact: true },
  roundedRect: { shape: 'rectangle', exact: true },
  rounded: { shape: 'rectangle', exact: true },
  event: { shape: 'rectangle', exact: true },
  stadium: { shape: 'stadium', exact: true },
  pill: { shape: 'stadium', exact: true },
  terminal: { shape: 'stadium', exact: true },
  subroutine: { shape: 'subroutine', exact: true },
  subproc: { shape: 'subroutine', exact: true },
  'fr-rect': { shape: 'subroutine', exact: true },
  cylinder: { shape: 'cylinder', exact: true },
  cyl: { shape: 'cylinder', exact: true },
  database: { shape: 'cylinder', exact: true },
  db: { shape: 'cylinder', exact: true },
  circle: { shape: 'circle', exact: true },
  circ: { shape: 'circle', exact: true },
  doublecircle: { shape: 'circle', exact: true },
  'dbl-circ': { shape: 'circle', exact: true },
  ellipse: { shape: 'ellipse', exact: true },
  diamond: { shape: 'diamond', exact: true },
  diam: { shape: 'diamond', exact: true },
  question: { shape: 'diamond', exact: true },
  decision: { shape: 'diamond', exact: true },
  hexagon: { shape: 'hexagon', exact: true },
  hex: { shape: 'hexagon', exact: true },
  prepare: { shape: 'hexagon', exact: true },
  lean_right: { shape: 'parallelogram', exact: true },
  lean_left: { shape: 'parallelogram', exact: true },
  'lean-r': { shape: 'parallelogram', exact: true },
  'lean-l': { shape: 'parallelogram', exact: true },
  'in-out': { shape: 'parallelogram', exact: true },
  trapezoid: { shape: 'parallelogram', exact: false, name: 'trapezoid' },
  inv_trapezoid: { shape: 'parallelogram', exact: false, name: 'trapezoid' },
  'trap-b': { shape: 'parallelogram', exact: false, name: 'trapezoid' },
  'trap-t': { shape: 'parallelogram', exact: false, name: 'trapezoid' },
  odd: { shape: 'rectangle', exact: false, name: 'asymmetric' },
  doc: { shape: 'document', exact: true },
  document: { shape: 'document', exact: true },
  text: { shape: 'text', exact: true },
  // State diagrams.
  choice: { shape: 'diamond', exact: true },
  fork: { shape: 'fork', exact: true },
  join: { shape: 'fork', exact: true },
  stateStart: { shape: 'start', exact: true },
  stateEnd: { shape: 'end', exact: true },
  'sm-circ': { shape: 'start', exact: true },
  'small-circle': { shape: 'start', exact: true },
  start: { shape: 'start', exact: true },
  'fr-circ': { shape: 'end', exact: true },
  'framed-circle': { shape: 'end', exact: true },
  stop: { shape: 'end', exact: true },
  note: { shape: 'rectangle', exact: true },
};

const NOTE_BACKGROUND = '#fff9db';
/** The ink labels are written in when the source gives an outline colour but no text colour. */
const DARK_TEXT = '#1e1e1e';

/** Line-based constructs the drawing leaves out, each warned about once, at its first line. */
const LINE_WARNINGS: Array<{ pattern: RegExp; message: string }> = [
  { pattern: /^\s*click\s/, message: 'click handlers and links (click) are not kept' },
  { pattern: /^\s*(accTitle|accDescr)\b/, message: 'the accessible title and description (accTitle, accDescr) are not kept' },
  { pattern: /^\s*%%\{/, message: 'directives (%%{init: …}%%) are not applied: Drawbridge draws in its own style' },
  { pattern: /@\{[^}]*\b(icon|img)\s*:/, message: 'icons and images in nodes (icon:, img:) are not drawn' },
  { pattern: /\bfa[bklrs]?:fa-[a-z0-9-]+/, message: 'Font Awesome icons (fa:fa-…) are not drawn; the label keeps its text' },
  { pattern: /^\s*direction\s+(TB|TD|BT|LR|RL)\s*$/, message: 'a subgraph\'s or state\'s own direction is not honoured yet: it follows the diagram\'s' },
];

class Reader {
  readonly warnings = new Map<string, SourceWarning>();
  readonly lines: string[];

  constructor(readonly text: string) {
    this.lines = text.split(/\r?\n/);
  }

  warn(key: string, line: number, message: string): void {
    if (!this.warnings.has(key)) this.warnings.set(key, { line, message });
  }

  /** The first line (1-based) holding `id` as a word, else 1. */
  lineOf(id: string): number {
    const word = new RegExp(`(^|[^\\w-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`);
    const index = this.lines.findIndex((line) => word.test(line));
    return index === -1 ? 1 : index + 1;
  }

  scanLines(kind: 'flowchart' | 'state'): void {
    // How deep in subgraphs (flowchart) or composite states (state diagram) each line is: a
    // `direction` at the top is the diagram's own, one inside a block is the block's.
    let depth = 0;
    this.lines.forEach((line, i) => {
      // Comments (%% …) hold nothing drawn, but directives (%%{ … }%%) are written like them.
      const code = /^\s*%%\{/.test(line) ? line : line.replace(/%%.*$/, '');
      for (const { pattern, message } of LINE_WARNINGS) {
        if (kind === 'state' && /thick|invisible/.test(message)) continue;
        if (/own direction/.test(message) && depth === 0) continue;
        if (pattern.test(code)) this.warn(message, i + 1, message);
      }
      if (kind === 'flowchart') {
        if (/^\s*subgraph\b/.test(code)) depth++;
        else if (/^\s*end\s*$/.test(code)) depth = Math.max(0, depth - 1);
      } else depth = Math.max(0, depth + (code.match(/\{/g)?.length ?? 0) - (code.match(/\}/g)?.length ?? 0));
    });
  }

  /** The first line (1-based) matching `pattern`, else 1. */
  firstLine(pattern: RegExp): number {
    const index = this.lines.findIndex((line) => pattern.test(line));
    return index === -1 ? 1 : index + 1;
  }

  /** A state's descriptions (`Still : text`), in order. */
  descriptionsOf(id: string): string[] {
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`^\\s*${escaped}\\s*:\\s*(.+?)\\s*$`);
    return this.lines.map((line) => pattern.exec(line)?.[1]).filter((text): text is string => text !== undefined);
  }
}

/** A label as plain text: Mermaid's markdown and HTML flattened, entities decoded, Font Awesome names dropped. */
function labelText(raw: string | undefined, labelType: string | undefined): string {
  if (raw === undefined) return '';
  // Mermaid's parser keeps `#quot;`-style entities in placeholders (its encodeEntities) for its renderer to decode.
  let text = raw.replace(/ﬂ°°/g, '&#').replace(/ﬂ°/g, '&').replace(/¶ß/g, ';').replace(/\bfa[bklrs]?:fa-[a-z0-9-]+\s*/g, '');
  if (labelType === 'markdown') text = text.replace(/\*\*(.+?)\*\*|__(.+?)__/g, '$1$2').replace(/(^|[^*])\*([^*]+)\*/g, '$1$2').replace(/(^|\W)_([^_]+)_(\W|$)/g, '$1$2$3');
  text = htmlLabelText(decodeEntities(text.replace(/<br\s*\/?>/gi, '\n'), { mermaid: true }));
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim();
}

/** The CSS declarations of a node's `style` and its classes, later ones winning. */
function declarations(node: MermaidNode): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of [...(node.cssCompiledStyles ?? []), ...(node.cssStyles ?? [])]) {
    const at = rule.indexOf(':');
    if (at > 0) out.set(rule.slice(0, at).trim().toLowerCase(), rule.slice(at + 1).trim());
  }
  return out;
}

function colours(reader: Reader, node: MermaidNode, spec: Record<string, unknown>): void {
  const css = declarations(node);
  const known = (raw: string | undefined) => {
    if (raw === undefined) return null;
    const colour = cssColor(raw);
    if (colour === null) reader.warn(`colour:${raw}`, reader.lineOf(node.id), `the colour "${raw}" is not one Drawbridge knows; left out`);
    return colour;
  };
  const fill = known(css.get('fill'));
  if (fill !== null && (fill !== 'transparent' || spec.backgroundColor !== undefined)) {
    spec.backgroundColor = fill;
    spec.fillStyle = 'solid';
  }
  const outline = known(css.get('stroke'));
  const text = known(css.get('color'));
  if (outline !== null) spec.strokeColor = outline;
  // Mermaid writes labels in its dark text colour whatever the outline's: so does the drawing.
  if (text !== null) spec.textColor = text;
  else if (outline !== null && outline !== DARK_TEXT) spec.textColor = DARK_TEXT;
  const width = Number.parseFloat(css.get('stroke-width') ?? '');
  if (Number.isFinite(width)) spec.strokeWidth = Math.min(16, Math.max(0.5, width));
  if (css.has('stroke-dasharray')) spec.strokeStyle = 'dashed';
}

const ARROWHEADS: Record<string, string> = { arrow_point: 'arrow', arrow_barb: 'arrow', arrow_circle: 'circle', arrow_cross: 'bar', arrow_open: 'none', none: 'none', '': 'none' };

const DIRECTIONS: Record<string, 'TB' | 'BT' | 'LR' | 'RL'> = { TB: 'TB', TD: 'TB', BT: 'BT', LR: 'LR', RL: 'RL' };

/** The title in a front matter block (`---\ntitle: …\n---`) at the top, if any. */
function frontMatterTitle(text: string): string | null {
  const match = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const title = match ? /^title:\s*(.+)$/m.exec(match[1]!)?.[1] : undefined;
  return title ? title.trim().replace(/^(["'])(.*)\1$/, '$2') || null : null;
}

function syntaxError(error: unknown): SourceSyntaxError | null {
  const hash = (error as { hash?: { loc?: { first_line: number; first_column: number }; line?: number; expected?: string[]; token?: string; text?: string } }).hash;
  const message = error instanceof Error ? error.message : String(error);
  if (hash?.loc) {
    const got = /got '([^']+)'/.exec(message)?.[1];
    const expected = (hash.expected ?? []).map((e) => e.replace(/^'|'$/g, ''));
    const found = got === undefined ? null : got === 'EOF' ? 'the end of the text' : got === 'NEWLINE' || got === 'NL' ? 'the end of the line' : hash.text ? JSON.stringify(hash.text) : got;
    return new SourceSyntaxError(found ? `unexpected ${found}` : message.split('\n')[0]!, hash.loc.first_line, hash.loc.first_column + 1, expected);
  }
  // Langium-based grammars (and Mermaid's own checks) report in their message.
  const at = /line:?\s*(\d+)(?:[,\s]+column:?\s*(\d+))?/i.exec(message);
  if (/No diagram type detected|UnknownDiagramError/i.test(message)) return new SourceSyntaxError('the text is not a Mermaid diagram: it must start with "flowchart", "graph" or "stateDiagram-v2"', 1, 1, ['flowchart', 'graph', 'stateDiagram-v2']);
  if (at) return new SourceSyntaxError(message.split('\n')[0]!, Number(at[1]), Number(at[2] ?? 1));
  return null;
}

/** Reads Mermaid text into a spec; a syntax error (or a kind other than flowchart and state diagram) is a SourceSyntaxError. */
export function importMermaid(text: string): Promise<ImportedSource> {
  return oneAtATime(async () => {
    const module = await mermaid();
    let diagram: MermaidDiagram;
    try {
      diagram = await module.mermaidAPI.getDiagramFromText(text);
    } catch (error) {
      const known = syntaxError(error);
      if (known) throw known;
      throw new SourceSyntaxError(`Mermaid could not read the text: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`, 1, 1);
    }
    const kind = diagram.type.startsWith('flowchart') ? 'flowchart' : diagram.type.startsWith('state') ? 'state' : null;
    if (kind === null) {
      const first = text.split(/\r?\n/).findIndex((line) => line.trim() !== '' && !line.trim().startsWith('%%') && line.trim() !== '---');
      throw new SourceSyntaxError(`a Mermaid ${diagram.type} diagram is not read yet: Drawbridge reads flowcharts (flowchart, graph) and state diagrams (stateDiagram-v2)`, first + 1, 1, ['flowchart', 'graph', 'stateDiagram-v2']);
    }
    return convert(new Reader(text), diagram, kind);
  });
}

function convert(reader: Reader, diagram: MermaidDiagram, kind: 'flowchart' | 'state'): ImportedSource {
  const data = diagram.db.getData();
  reader.scanLines(kind);
  const direction = DIRECTIONS[(diagram.db.getDirection?.() ?? 'TB').toUpperCase()] ?? 'TB';

  // State diagrams: Mermaid's generated ids made stable and readable, note wrappers dropped.
  const ids = new Map<string, string>();
  const noteWrappers = new Set(data.nodes.filter((n) => n.shape === 'noteGroup').map((n) => n.id));
  const regionCount = new Map<string, number>();
  const idOf = (raw: string): string => ids.get(raw) ?? raw;
  for (const node of data.nodes) {
    if (kind !== 'state') break;
    if (node.shape === 'divider' && node.parentId !== undefined) {
      const n = (regionCount.get(node.parentId) ?? 0) + 1;
      regionCount.set(node.parentId, n);
      ids.set(node.id, `${idOf(node.parentId)}.region-${n}`);
    }
  }
  for (const node of data.nodes) {
    if (kind !== 'state') break;
    const marker = /^(.*)_(start|end)$/.exec(node.id);
    if (marker && (node.shape === 'stateStart' || node.shape === 'stateEnd')) {
      const owner = marker[1] === 'root' ? null : idOf(marker[1]!);
      ids.set(node.id, owner === null ? marker[2]! : `${owner}.${marker[2]}`);
    } else if (node.shape === 'note') {
      const owner = node.id.split('----')[0]!;
      const n = [...ids.values()].filter((id) => id.startsWith(`${owner}.note`)).length + 1;
      ids.set(node.id, `${owner}.note${n === 1 ? '' : `-${n}`}`);
    }
  }
  const parentOf = (node: MermaidNode): string | undefined => {
    let parent = node.parentId;
    if (parent !== undefined && noteWrappers.has(parent)) {
      const owner = data.nodes.find((n) => n.id === parent!.split('----')[0]);
      parent = owner?.parentId;
    }
    return parent === undefined ? undefined : idOf(parent);
  };

  const nodes: Record<string, unknown>[] = [];
  for (const node of data.nodes) {
    if (noteWrappers.has(node.id)) continue;
    const id = idOf(node.id);
    const spec: Record<string, unknown> = { id };
    const parent = parentOf(node);
    if (parent !== undefined) spec.parent = parent;
    if (node.isGroup) {
      const label = node.shape === 'divider' ? '' : labelText(node.label, node.labelType);
      if (label !== id) spec.label = label;
      colours(reader, node, spec);
      nodes.push(spec);
      continue;
    }
    const mapped = SHAPES[node.shape ?? 'squareRect'];
    const line = node.shape === 'stateStart' || node.shape === 'stateEnd' ? reader.firstLine(/\[\*\]/) : reader.lineOf(node.id);
    if (!mapped) reader.warn(`shape:${node.shape}`, line, `the shape ${node.shape} is not one Drawbridge knows; drawn as a rectangle`);
    else if (!mapped.exact) reader.warn(`shape:${mapped.name}`, line, `${mapped.name} shapes are drawn as ${mapped.shape === 'ellipse' ? 'an ellipse' : `a ${mapped.shape}`}`);
    const shape = mapped?.shape ?? 'rectangle';
    if (shape !== 'rectangle') spec.shape = shape;
    const marker = shape === 'start' || shape === 'end' || shape === 'fork' || node.shape === 'choice';
    let label = marker ? '' : labelText(node.label, node.labelType);
    if (kind === 'state' && !marker && node.shape !== 'note') {
      // One description (`Still : text`) is the state's label, as Mermaid draws it; with several,
      // Mermaid draws the name above them, and its model keeps only the last.
      const descriptions = reader.descriptionsOf(node.id);
      if (descriptions.length > 1) {
        const named = /^\s*state\s+"([^"]+)"\s+as\s+/.exec(reader.lines.find((l) => new RegExp(`^\\s*state\\s+"[^"]+"\\s+as\\s+${node.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(l)) ?? '')?.[1];
        label = [named ?? node.id, ...descriptions.map((d) => labelText(d, 'text'))].join('\n');
      }
    }
    if (label !== id && !(marker && shape !== 'diamond')) spec.label = label;
    if (node.shape === 'note') {
      spec.backgroundColor = NOTE_BACKGROUND;
      spec.fillStyle = 'solid';
    }
    colours(reader, node, spec);
    nodes.push(spec);
  }

  const edges: Record<string, unknown>[] = [];
  for (const edge of data.edges) {
    const spec: Record<string, unknown> = { from: idOf(edge.start), to: idOf(edge.end) };
    const rules = new Map([edge.style ?? []].flat().map((rule) => [rule.slice(0, rule.indexOf(':')).trim().toLowerCase(), rule.slice(rule.indexOf(':') + 1).trim()] as const));
    const label = labelText(edge.label, edge.labelType);
    if (label !== '') spec.label = label;
    const note = (edge.classes ?? '').includes('note-edge');
    const end = note ? 'none' : (ARROWHEADS[edge.arrowTypeEnd ?? 'arrow_point'] ?? 'arrow');
    const start = note ? 'none' : (ARROWHEADS[edge.arrowTypeStart ?? 'none'] ?? 'none');
    if (end !== 'arrow') spec.arrowhead = end;
    if (start !== 'none') spec.startArrowhead = start;
    if (note || edge.pattern === 'dotted' || rules.has('stroke-dasharray')) spec.style = note ? 'dashed' : 'dotted';
    if (edge.pattern === 'invisible' || edge.thickness === 'invisible') spec.style = 'invisible';
    if (edge.pattern === 'thick' || edge.thickness === 'thick') spec.strokeWidth = 4;
    const colour = rules.has('stroke') ? cssColor(rules.get('stroke')!) : null;
    if (colour !== null && colour !== 'transparent') spec.strokeColor = colour;
    const width = Number.parseFloat(rules.get('stroke-width') ?? '');
    if (Number.isFinite(width)) spec.strokeWidth = Math.min(16, Math.max(0.5, width));
    edges.push(spec);
  }

  const spec: DiagramSpecInput = { nodes: nodes as DiagramSpecInput['nodes'], edges: edges as DiagramSpecInput['edges'], ...(direction === 'TB' ? {} : { layout: { direction } }) };
  return { spec, warnings: [...reader.warnings.values()].sort((a, b) => a.line - b.line), title: frontMatterTitle(reader.text) };
}
