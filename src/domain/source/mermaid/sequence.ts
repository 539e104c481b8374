/**
 * A Mermaid sequence diagram (`sequenceDiagram`) as a sequence spec, read
 * from Mermaid's own model of it: its participants in order, with their
 * types and names; its messages, notes, activations and frames in order.
 *
 * - Arrows keep their line and head: `->>` a solid line with a filled head,
 *   `-->>` dashed, `-)` an open head, `-x` a bar (the editor has no cross),
 *   `->` and `-->` none, `<<->>` both ends.
 * - `+` and `-` after an arrow, and `activate` / `deactivate`, are
 *   activations; `create` and `destroy` mark the message that creates or
 *   ends a participant.
 * - `loop`, `alt`/`else`, `opt`, `par`/`and`, `critical`/`option`, `break`
 *   and `rect` are frames, nested as written.
 * - What is not drawn is warned about: boxes around participants, links and
 *   properties of participants, an autonumber that does not start at 1 or
 *   count by 1; half-arrow heads are drawn whole.
 */
import { readLabel } from './labels.ts';
import type { SourceText, Warnings } from './source-text.ts';
import type { SequenceSpecInput } from '../../sequence/schema.ts';
import type { ArrowheadName } from '../../spec/types.ts';

/** Mermaid's line types (its sequenceDb LINETYPE). */
const LINE = {
  SOLID: 0,
  DOTTED: 1,
  NOTE: 2,
  SOLID_CROSS: 3,
  DOTTED_CROSS: 4,
  SOLID_OPEN: 5,
  DOTTED_OPEN: 6,
  LOOP_START: 10,
  LOOP_END: 11,
  ALT_START: 12,
  ALT_ELSE: 13,
  ALT_END: 14,
  OPT_START: 15,
  OPT_END: 16,
  ACTIVE_START: 17,
  ACTIVE_END: 18,
  PAR_START: 19,
  PAR_AND: 20,
  PAR_END: 21,
  RECT_START: 22,
  RECT_END: 23,
  SOLID_POINT: 24,
  DOTTED_POINT: 25,
  AUTONUMBER: 26,
  CRITICAL_START: 27,
  CRITICAL_OPTION: 28,
  CRITICAL_END: 29,
  BREAK_START: 30,
  BREAK_END: 31,
  PAR_OVER_START: 32,
  BIDIRECTIONAL_SOLID: 33,
  BIDIRECTIONAL_DOTTED: 34,
} as const;

const ARROWS: Record<number, { dashed: boolean; end: ArrowheadName; start?: ArrowheadName }> = {
  [LINE.SOLID]: { dashed: false, end: 'triangle' },
  [LINE.DOTTED]: { dashed: true, end: 'triangle' },
  [LINE.SOLID_CROSS]: { dashed: false, end: 'bar' },
  [LINE.DOTTED_CROSS]: { dashed: true, end: 'bar' },
  [LINE.SOLID_OPEN]: { dashed: false, end: 'none' },
  [LINE.DOTTED_OPEN]: { dashed: true, end: 'none' },
  [LINE.SOLID_POINT]: { dashed: false, end: 'arrow' },
  [LINE.DOTTED_POINT]: { dashed: true, end: 'arrow' },
  [LINE.BIDIRECTIONAL_SOLID]: { dashed: false, end: 'triangle', start: 'triangle' },
  [LINE.BIDIRECTIONAL_DOTTED]: { dashed: true, end: 'triangle', start: 'triangle' },
};

/** Mermaid's half-arrow line types start here, their dotted forms at the second. */
const HALF_ARROWS = 41;
const HALF_ARROWS_DOTTED = 51;

const FRAME_STARTS: Record<number, string> = {
  [LINE.LOOP_START]: 'loop',
  [LINE.ALT_START]: 'alt',
  [LINE.OPT_START]: 'opt',
  [LINE.PAR_START]: 'par',
  [LINE.PAR_OVER_START]: 'par',
  [LINE.CRITICAL_START]: 'critical',
  [LINE.BREAK_START]: 'break',
  [LINE.RECT_START]: 'rect',
};
const FRAME_ENDS: ReadonlySet<number> = new Set([LINE.LOOP_END, LINE.ALT_END, LINE.OPT_END, LINE.PAR_END, LINE.CRITICAL_END, LINE.BREAK_END, LINE.RECT_END]);
const BRANCHES: ReadonlySet<number> = new Set([LINE.ALT_ELSE, LINE.PAR_AND, LINE.CRITICAL_OPTION]);

interface MermaidActor {
  name: string;
  description: string;
  type: string;
  box?: unknown;
  links?: Record<string, string>;
  properties?: Record<string, unknown>;
}
interface MermaidMessage {
  from?: string | string[];
  to?: string | string[];
  message: unknown;
  type?: number;
  placement?: number;
}
export interface SequenceDb {
  getActors(): Map<string, MermaidActor>;
  getActorKeys(): string[];
  getMessages(): MermaidMessage[];
  getCreatedActors(): Map<string, number>;
  getDestroyedActors(): Map<string, number>;
  getBoxes(): unknown[];
  showSequenceNumbers(): boolean;
}

type StepInput = SequenceSpecInput['steps'][number];
interface OpenFrame {
  frame: Record<string, unknown> & { steps: StepInput[]; branches?: Array<{ label: string; steps: StepInput[] }> };
  into: StepInput[];
}

const text = (raw: unknown) => readLabel(typeof raw === 'string' ? raw : '', undefined).text;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The sequence spec a Mermaid sequence diagram's model makes, warning in `warnings` about what it leaves out. */
export function sequenceSpec(db: SequenceDb, source: SourceText, warnings: Warnings): SequenceSpecInput {
  const lineOf = (pattern: RegExp) => source.find(pattern) ?? source.headerLine();
  const actors = db.getActors();
  const participants: SequenceSpecInput['participants'] = db.getActorKeys().map((id) => {
    const actor = actors.get(id)!;
    const label = text(actor.description);
    const type = actor.type === 'participant' ? undefined : actor.type;
    if ((actor.links && Object.keys(actor.links).length > 0) || (actor.properties && Object.keys(actor.properties).length > 0)) {
      warnings.add('links', lineOf(/^\s*(link|links|properties)\b/), 'links and properties of participants are not drawn');
    }
    return label === id && type === undefined ? id : { id, ...(label !== id ? { label } : {}), ...(type ? { type: type as 'actor' } : {}) };
  });
  if (db.getBoxes().length > 0) warnings.add('box', lineOf(/^\s*box\b/), 'boxes around participants are not drawn');

  const created = new Map<number, string>();
  for (const [actor, at] of db.getCreatedActors()) created.set(at, actor);
  const destroyed = new Map<number, string>();
  for (const [actor, at] of db.getDestroyedActors()) destroyed.set(at, actor);

  const steps: StepInput[] = [];
  const open: OpenFrame[] = [];
  let into = steps;
  let numbered = false;
  db.getMessages().forEach((message, i) => {
    const type = message.type;
    if (type === undefined) return;
    let arrow = ARROWS[type];
    if (!arrow && type >= HALF_ARROWS && message.to !== undefined) {
      // Mermaid's half-arrow heads (`-|\\`, `--|/`, …): the editor has none of them.
      warnings.add('half-arrows', lineOf(/[|][\\/]|[\\/][|]/), 'half-arrow heads are drawn as whole ones');
      arrow = { dashed: type >= HALF_ARROWS_DOTTED, end: 'triangle' };
    }
    if (arrow) {
      const from = first(message.from)!;
      const to = first(message.to)!;
      const step: Record<string, unknown> = { from, to };
      const label = text(message.message);
      if (label !== '') step.label = label;
      if (arrow.dashed) step.line = 'dashed';
      if (arrow.end !== 'triangle') step.arrowhead = arrow.end;
      if (arrow.start) step.startArrowhead = arrow.start;
      if (created.get(i) === to) step.create = true;
      const ends = destroyed.get(i);
      if (ends !== undefined && (ends === to || ends === from)) step.destroy = ends === to ? 'to' : 'from';
      into.push(step as StepInput);
      return;
    }
    if (type === LINE.NOTE) {
      const [a, b] = [first(message.from)!, first(message.to)!];
      const note = text(message.message);
      if (message.placement === 0) into.push({ note, leftOf: a });
      else if (message.placement === 1) into.push({ note, rightOf: a });
      else into.push({ note, over: a === b ? a : [a, b] });
      return;
    }
    if (type === LINE.ACTIVE_START) into.push({ activate: first(message.from)! });
    else if (type === LINE.ACTIVE_END) into.push({ deactivate: first(message.from)! });
    else if (type === LINE.AUTONUMBER) {
      const numbering = message.message as { start?: number; step?: number; visible?: boolean } | undefined;
      numbered = numbering?.visible !== false;
      if ((numbering?.start ?? 1) !== 1 || (numbering?.step ?? 1) !== 1) warnings.add('autonumber', lineOf(/^\s*autonumber\b/), 'autonumber counts from 1 by 1 here');
    } else if (FRAME_STARTS[type] !== undefined) {
      const kind = FRAME_STARTS[type]!;
      const frame: OpenFrame['frame'] = { frame: kind, steps: [] };
      if (kind === 'rect') {
        const color = text(message.message);
        if (/^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,60}\)|[a-z]{3,30})$/i.test(color)) frame.color = color.replace(/\s+/g, '');
      } else {
        const label = text(message.message);
        if (label !== '') frame.label = label;
      }
      into.push(frame as StepInput);
      open.push({ frame, into });
      into = frame.steps;
    } else if (BRANCHES.has(type)) {
      const current = open.at(-1);
      if (!current) return;
      const branch = { label: text(message.message), steps: [] as StepInput[] };
      (current.frame.branches ??= []).push(branch);
      into = branch.steps;
    } else if (FRAME_ENDS.has(type)) {
      const closed = open.pop();
      if (closed) into = closed.into;
    }
  });
  const spec: SequenceSpecInput = { kind: 'sequence', participants, steps };
  if (numbered || db.showSequenceNumbers()) spec.autonumber = true;
  return spec;
}
