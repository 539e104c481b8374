/**
 * Mermaid itself, loaded once per process on first use and run one parse at
 * a time.
 *
 * Mermaid's parsers are pure text work, but Mermaid sanitises every label
 * with DOMPurify, which binds to the global `window` when its module is first
 * evaluated and is a stub without one (`DOMPurify.addHook is not a function`
 * at the first label). Parsing needs nothing else of a browser: no
 * `document`, `navigator` or layout (those are for rendering). So a jsdom
 * window is made the global `window` only while Mermaid's modules load, and
 * removed again: DOMPurify keeps its own reference, and nothing else in the
 * process (the scene worker's layout, the editor runtime a render worker
 * loads) sees a browser global it did not set. A `window` already there is
 * left as it is and used.
 *
 * Mermaid keeps each diagram kind's parsed state in a module-level database
 * that a parse clears and refills, so parses are queued, never interleaved.
 */
import { SPEC_LIMITS } from '../../spec/types.ts';

/** The parts of Mermaid's parsed model the importer reads (its `db.getData()`, what its own renderers lay out). */
export interface MermaidNode {
  id: string;
  label?: string;
  labelType?: string;
  shape?: string;
  parentId?: string;
  isGroup?: boolean;
  dir?: string;
  cssStyles?: string[] | string;
  cssCompiledStyles?: string[];
  icon?: string;
  img?: string;
  /** State diagrams: the lines drawn under a state's title. */
  description?: string[];
  position?: string;
}

export interface MermaidEdge {
  id: string;
  start: string;
  end: string;
  label?: string;
  labelType?: string;
  arrowTypeStart?: string;
  arrowTypeEnd?: string;
  /** Flowcharts: normal, thick, dotted or invisible. */
  pattern?: string;
  thickness?: string;
  /** Flowcharts: how many ranks the link spans at least (`--->` is 2). */
  minlen?: number;
  style?: string[] | string;
  cssCompiledStyles?: string[];
  classes?: string;
  animate?: boolean;
}

export interface MermaidDiagram {
  type: string;
  db: { getData(): { nodes: MermaidNode[]; edges: MermaidEdge[] }; getDirection?(): string | undefined };
}

interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  detectType(text: string): string;
  mermaidAPI: { getDiagramFromText(text: string): Promise<MermaidDiagram> };
}

/**
 * Mermaid refuses a flowchart with more links than this. Its check costs
 * time growing with the square of the links (each new link is compared with
 * every earlier one), so it stays bounded; it is well above the spec's own
 * limit, which then refuses the spec with the real count.
 */
export const MERMAID_MAX_EDGES = 5 * SPEC_LIMITS.edges;

let loading: Promise<Mermaid> | null = null;
/** The DOM window Mermaid was loaded with, lent again while a parse needs one (withWindow). */
let dom: { Option: unknown } | null = null;

async function load(): Promise<Mermaid> {
  const scope = globalThis as { window?: unknown };
  const borrowed = scope.window === undefined;
  dom = new (await import('jsdom')).JSDOM('').window as unknown as { Option: unknown };
  if (borrowed) scope.window = dom;
  try {
    const mermaid = (await import('mermaid')).default as unknown as Mermaid;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', maxEdges: MERMAID_MAX_EDGES });
    return mermaid;
  } finally {
    if (borrowed) delete scope.window;
  }
}

/** Mermaid, loaded the first time it is asked for. */
export function mermaid(): Promise<Mermaid> {
  loading ??= load();
  return loading;
}

/**
 * Runs `work` with the DOM's `window` and `Option` as globals, as a browser has them, and takes them away
 * after: a sequence diagram's `box` reads its colour with them while parsing. Call within oneAtATime, after
 * mermaid() has loaded.
 */
export async function withWindow<T>(work: () => Promise<T>): Promise<T> {
  const scope = globalThis as Record<string, unknown>;
  // Each lent only where absent (a test process may have a window of its own), and only that one taken back.
  const lent = dom === null ? [] : (['window', 'Option'] as const).filter((name) => scope[name] === undefined);
  for (const name of lent) scope[name] = name === 'window' ? dom : dom!.Option;
  try {
    return await work();
  } finally {
    for (const name of lent) delete scope[name];
  }
}

/** Whether this process has loaded Mermaid (with its DOM: 70 to 90 MB of heap that stays, measured on a 30-node flowchart). */
export function mermaidLoaded(): boolean {
  return loading !== null;
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `work` after every earlier call's work has finished. */
export function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}
