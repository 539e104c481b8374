/**
 * Mermaid read into a spec with Mermaid's own parser (the `mermaid` package,
 * the grammar GitHub renders), so what parses here is exactly what parses
 * there. Flowcharts (`flowchart`, `graph`), state diagrams
 * (`stateDiagram-v2`, `stateDiagram`) and sequence diagrams
 * (`sequenceDiagram`) are read; any other kind is refused.
 * What the spec cannot draw is listed as warnings at their source lines.
 *
 * It lives in the domain because it is a function of text to data like the
 * rest of the core: no I/O, no clock. It is the one place there that loads a
 * DOM (jsdom, which Mermaid's label sanitiser needs, see mermaid/runtime.ts);
 * the architecture check keeps jsdom and mermaid out of the rest of the
 * domain. It runs in the scene workers, processes of their own, where the
 * first read pays for loading Mermaid.
 */
import { Converter } from './mermaid/convert.ts';
import { flowchartSpec } from './mermaid/flowchart.ts';
import { warnAboutLines } from './mermaid/line-warnings.ts';
import { type MermaidDiagram, mermaid, oneAtATime, withWindow } from './mermaid/runtime.ts';
import { SourceText, Warnings } from './mermaid/source-text.ts';
import { type SequenceDb, sequenceSpec } from './mermaid/sequence.ts';
import { stateSpec } from './mermaid/state.ts';
import { type ClassDb, classSpec, type ErDb, erSpec } from './mermaid/structure.ts';
import type { AnySpecInput } from '../spec/any-spec.ts';
import { mermaidSyntaxError } from './mermaid/syntax-error.ts';
import { type ImportedSource, SourceSyntaxError } from './types.ts';

export { mermaidLoaded } from './mermaid/runtime.ts';

const READ = ['flowchart', 'graph', 'stateDiagram-v2', 'stateDiagram', 'sequenceDiagram', 'classDiagram', 'erDiagram'];
type Kind = 'flowchart' | 'state' | 'sequence' | 'class' | 'er';
const KINDS: Record<string, Kind> = {
  flowchart: 'flowchart',
  'flowchart-v2': 'flowchart',
  'flowchart-elk': 'flowchart',
  stateDiagram: 'state',
  state: 'state',
  sequence: 'sequence',
  class: 'class',
  classDiagram: 'class',
  er: 'er',
};

/** Mermaid's names for the diagram kinds it detects, as people call them. */
const KIND_NAMES: Record<string, string> = {
  sequence: 'sequence diagram',
  class: 'class diagram',
  classDiagram: 'class diagram',
  er: 'entity relationship diagram',
  gantt: 'Gantt chart',
  pie: 'pie chart',
  journey: 'user journey',
  gitGraph: 'Git graph',
  mindmap: 'mindmap',
  timeline: 'timeline',
  quadrantChart: 'quadrant chart',
  requirement: 'requirement diagram',
  c4: 'C4 diagram',
  sankey: 'Sankey diagram',
  xychart: 'XY chart',
  block: 'block diagram',
  packet: 'packet diagram',
  architecture: 'architecture diagram',
  kanban: 'Kanban board',
};

/** A Mermaid diagram of a kind Drawbridge does not read (sequence, class, Gantt…). */
export class UnsupportedDiagramError extends SourceSyntaxError {
  /** Mermaid's name for the kind (`sequence`, `classDiagram`, …). */
  readonly kind: string;

  constructor(kind: string, line: number) {
    super(
      `a Mermaid ${KIND_NAMES[kind] ?? `${kind} diagram`} is not read yet: Drawbridge reads flowcharts (flowchart, graph), state diagrams (stateDiagram-v2, stateDiagram), sequence diagrams (sequenceDiagram), class diagrams (classDiagram) and entity relationship diagrams (erDiagram)`,
      line,
      1,
      READ,
    );
    this.name = 'UnsupportedDiagramError';
    this.kind = kind;
  }
}

function kindOf(detect: (text: string) => string, source: SourceText): Kind {
  let type: string;
  try {
    type = detect(source.parserText);
  } catch {
    throw new SourceSyntaxError('the text is not a Mermaid diagram: it must start with "flowchart", "graph", "stateDiagram-v2", "sequenceDiagram", "classDiagram" or "erDiagram"', source.headerLine(), 1, READ);
  }
  const kind = KINDS[type];
  if (kind === undefined) throw new UnsupportedDiagramError(type, source.headerLine());
  return kind;
}

/** The spec a diagram of each kind makes. */
function specOf(kind: Kind, diagram: MermaidDiagram, convert: Converter): AnySpecInput {
  const db = diagram.db as unknown;
  switch (kind) {
    case 'flowchart':
      return flowchartSpec(diagram, convert);
    case 'state':
      return stateSpec(diagram, convert);
    case 'sequence':
      return sequenceSpec(db as SequenceDb, convert.source, convert.warnings);
    case 'class':
      return classSpec(db as ClassDb, convert.source, convert.warnings);
    case 'er':
      return erSpec(db as ErDb, convert.source, convert.warnings);
  }
}

/** A sequence, class or ER diagram's own `title` line, if it has one. */
function ownTitle(diagram: MermaidDiagram): string | null {
  const title = (diagram.db as { getDiagramTitle?: () => string }).getDiagramTitle?.() ?? '';
  return title.trim() === '' ? null : title.trim();
}

/**
 * The spec a Mermaid flowchart or state diagram makes (the front matter's
 * title its caption), the warnings for what it leaves out, and that title. Throws SourceSyntaxError
 * (UnsupportedDiagramError for another kind of diagram).
 */
export async function importMermaid(text: string): Promise<ImportedSource> {
  const source = new SourceText(text);
  const loaded = await mermaid();
  return oneAtATime(async () => {
    const kind = kindOf((t) => loaded.detectType(t), source);
    let diagram: MermaidDiagram;
    try {
      diagram = await withWindow(() => loaded.mermaidAPI.getDiagramFromText(source.parserText));
    } catch (error) {
      throw mermaidSyntaxError(error, source);
    }
    const warnings = new Warnings();
    const convert = new Converter(source, warnings);
    const spec = specOf(kind, diagram, convert);
    warnAboutLines(source, warnings);
    // Mermaid draws the front matter's title (the `title` line of the other kinds too) centred above the diagram.
    const title = source.title() ?? (kind !== 'flowchart' && kind !== 'state' ? ownTitle(diagram) : null);
    return { spec: title === null ? spec : { ...spec, caption: title }, warnings: warnings.list(), title };
  });
}
