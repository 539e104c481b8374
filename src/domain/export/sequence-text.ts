/**
 * A sequence diagram's scene read back as the sequence spec it draws, and
 * written as Mermaid's `sequenceDiagram`. Read from the elements as they are
 * now, so what a person changed in the editor comes back: participants in
 * the order of their lifelines across the page, steps in the order of their
 * height down it; each message between the lifelines (or activation bars)
 * its ends are bound to, its label its bound text; each note over, left or
 * right of the lifelines it covers or stands beside; frames around the steps
 * within them, nested by containment.
 */
import type { SceneElement } from '../edit/types.ts';
import { TYPE_ICONS } from '../sequence/check.ts';
import type { SequenceSpecInput } from '../sequence/schema.ts';
import { BRANCH_WORDS, type FrameKind, sequenceRole } from '../sequence/types.ts';

type Step = SequenceSpecInput['steps'][number];
type Participant = Exclude<NonNullable<SequenceSpecInput['participants']>[number], string>;

const roleOf = sequenceRole;
const dataOf = (e: SceneElement) => (e.customData ?? {}) as Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const textOf = (e: SceneElement | undefined) => (e ? String(e.originalText ?? e.text ?? '') : '');

/** An event down the page: what happens at height y, in order. */
type Event = { y: number; order: number } & ({ kind: 'step'; step: Step } | { kind: 'open'; frame: FrameStep; bottom: number } | { kind: 'branch'; frame: FrameStep; label: string });
type FrameStep = { frame: FrameKind; label?: string; color?: string; steps: Step[]; branches?: Array<{ label: string; steps: Step[] }> };

/** The sequence spec a scene draws, or null when it is not a sequence diagram. */
export function sequenceOfScene(elements: readonly SceneElement[]): SequenceSpecInput | null {
  return readSequence(elements)?.spec ?? null;
}

/** A sequence diagram read back: its spec, its messages' arrow ids in document order, and the ids of every element of its drawing. */
export interface ReadSequence {
  spec: SequenceSpecInput;
  messageIds: string[];
  drawnIds: string[];
}

export function readSequence(elements: readonly SceneElement[]): ReadSequence | null {
  const live = elements.filter((e) => !e.isDeleted);
  const lifelines = live.filter((e) => roleOf(e) === 'lifeline' && typeof dataOf(e).participant === 'string');
  if (lifelines.length === 0) return null;
  const byId = new Map(live.map((e) => [e.id, e]));
  const boundText = new Map(live.filter((e) => e.type === 'text' && typeof e.containerId === 'string').map((e) => [e.containerId as string, e]));
  const xOf = new Map(lifelines.map((l) => [dataOf(l).participant as string, num(l.x) + num(l.width) / 2]));
  const order = [...xOf.entries()].sort((a, b) => a[1] - b[1]).map(([id]) => id);

  const participants: Participant[] = order.map((id) => {
    const head = byId.get(id);
    const type = head ? (dataOf(head).type as Participant['type']) : undefined;
    const label = head ? (head.type === 'text' ? textOf(head) : textOf(boundText.get(id))) : id;
    // An icon other than its type's own was chosen for it.
    const icon = byId.get(`${id}-icon`)?.fileId;
    const chosen = typeof icon === 'string' && icon !== TYPE_ICONS[type ?? 'participant'] ? icon : undefined;
    return { id, ...(label !== id && label !== '' ? { label } : {}), ...(type && type !== 'participant' ? { type } : {}), ...(chosen ? { icon: chosen } : {}) };
  });
  const headTops = order.map((id) => num(byId.get(id)?.y));
  const firstRow = Math.min(...headTops);
  /** The participant an element a message is bound to belongs to: its lifeline, its bar or its box. */
  const participantOf = (id: unknown): string | null => {
    const e = typeof id === 'string' ? byId.get(id) : undefined;
    if (!e) return null;
    const named = dataOf(e).participant;
    if (typeof named === 'string') return named;
    return xOf.has(e.id) ? e.id : null;
  };
  const nearest = (x: number) => order.reduce((best, id) => (Math.abs(xOf.get(id)! - x) < Math.abs(xOf.get(best)! - x) ? id : best), order[0]!);

  const events: Event[] = [];
  /** Each message step's arrow. */
  const arrowOf = new Map<unknown, string>();
  let seq = 0;
  const numbered = new Set<string>();
  const created = new Map<number, string>();
  for (const id of order) {
    const head = byId.get(id);
    if (head && num(head.y) > firstRow + 40) created.set(num(head.y) + num(head.height) / 2, id);
  }
  const destroyedAt = live.filter((e) => roleOf(e) === 'destroyed' && !String(e.id).endsWith('-2')).map((e) => ({ y: num(e.y) + num(e.height) / 2, id: dataOf(e).participant as string }));

  for (const arrow of live.filter((e) => e.type === 'arrow' && roleOf(e) === 'message')) {
    const points = (arrow.points as number[][] | undefined) ?? [[0, 0]];
    const [start, end] = [points[0]!, points.at(-1)!];
    const [sx, sy, ex, ey] = [num(arrow.x) + start[0]!, num(arrow.y) + start[1]!, num(arrow.x) + end[0]!, num(arrow.y) + end[1]!];
    const from = participantOf((arrow.startBinding as { elementId?: unknown } | null)?.elementId) ?? nearest(sx);
    const to = participantOf((arrow.endBinding as { elementId?: unknown } | null)?.elementId) ?? nearest(ex);
    let label = textOf(boundText.get(arrow.id));
    const number = dataOf(arrow).number;
    if (typeof number === 'number') {
      numbered.add(arrow.id);
      label = label.replace(new RegExp(`^${number}(\\. |$)`), '');
    }
    const step: Record<string, unknown> = { from, to };
    if (label !== '') step.label = label.replace(/\n/g, ' ');
    if (arrow.strokeStyle === 'dashed' || arrow.strokeStyle === 'dotted') step.line = 'dashed';
    const head = (h: unknown) => (h === null || h === undefined ? 'none' : h === 'triangle' || h === 'arrow' || h === 'bar' || h === 'dot' || h === 'circle' || h === 'diamond' ? h : 'triangle');
    if (head(arrow.endArrowhead) !== 'triangle') step.arrowhead = head(arrow.endArrowhead);
    if (head(arrow.startArrowhead) !== 'none') step.startArrowhead = head(arrow.startArrowhead);
    if (created.get(sy) === to || [...created].some(([y, id]) => id === to && Math.abs(y - sy) < 2)) step.create = true;
    const ends = destroyedAt.find((d) => Math.abs(d.y - Math.max(sy, ey)) < 2 && (d.id === to || d.id === from));
    if (ends) step.destroy = ends.id === to ? 'to' : 'from';
    events.push({ y: sy, order: seq++, kind: 'step', step: step as Step });
    arrowOf.set(step, arrow.id);
  }
  for (const note of live.filter((e) => roleOf(e) === 'note')) {
    const [left, right] = [num(note.x), num(note.x) + num(note.width)];
    const covered = order.filter((id) => xOf.get(id)! > left && xOf.get(id)! < right);
    const text = textOf(boundText.get(note.id)).replace(/\n/g, ' ');
    let step: Step;
    if (covered.length === 1) step = { note: text, over: covered[0]! };
    else if (covered.length > 1) step = { note: text, over: [covered[0]!, covered.at(-1)!] };
    else {
      // Beside the nearer of the lifelines on either side.
      const after = order.find((id) => xOf.get(id)! >= right);
      const before = order.findLast((id) => xOf.get(id)! <= left);
      const toAfter = after === undefined ? Infinity : xOf.get(after)! - right;
      const toBefore = before === undefined ? Infinity : left - xOf.get(before)!;
      step = toAfter < toBefore ? { note: text, leftOf: after! } : { note: text, rightOf: before! };
    }
    events.push({ y: num(note.y), order: seq++, kind: 'step', step });
  }
  for (const bar of live.filter((e) => roleOf(e) === 'activation')) {
    const participant = dataOf(bar).participant as string;
    events.push({ y: num(bar.y) + 0.5, order: seq++, kind: 'step', step: { activate: participant } });
    events.push({ y: num(bar.y) + num(bar.height) + 0.5, order: seq++, kind: 'step', step: { deactivate: participant } });
  }
  for (const outline of live.filter((e) => roleOf(e) === 'frame')) {
    const kind = dataOf(outline).frame as FrameKind;
    const condition = textOf(byId.get(`${outline.id}-label`)).replace(/^\[([\s\S]*)\]$/, '$1');
    const frame: FrameStep = { frame: kind, steps: [] };
    if (condition !== '') frame.label = condition;
    if (kind === 'rect' && typeof outline.backgroundColor === 'string') frame.color = outline.backgroundColor;
    events.push({ y: num(outline.y), order: seq++, kind: 'open', frame, bottom: num(outline.y) + num(outline.height) });
    for (const line of live.filter((e) => roleOf(e) === 'branch' && String(e.id).startsWith(`${outline.id}-branch-`) && !String(e.id).endsWith('-label'))) {
      const word = BRANCH_WORDS[kind] ?? '';
      const label = textOf(byId.get(`${line.id}-label`)).replace(new RegExp(`^${word}\\s*`), '').replace(/^\[([\s\S]*)\]$/, '$1');
      events.push({ y: num(line.y), order: seq++, kind: 'branch', frame, label });
    }
  }
  // Down the page; a frame opens before what starts at its top, an activation starts after the message at its height.
  const isActivation = (step: Step) => typeof step === 'object' && step !== null && !('from' in step) && ('activate' in step || 'deactivate' in step);
  const rank = (e: Event) => (e.kind === 'open' ? 0 : e.kind === 'branch' ? 1 : isActivation(e.step) ? 3 : 2);
  events.sort((a, b) => a.y - b.y || rank(a) - rank(b) || a.order - b.order);

  const steps: Step[] = [];
  const open: Array<{ frame: FrameStep; bottom: number; into: Step[] }> = [];
  let into = steps;
  for (const event of events) {
    while (open.length > 0 && event.y > open.at(-1)!.bottom) into = open.pop()!.into;
    if (event.kind === 'open') {
      into.push(event.frame as Step);
      open.push({ frame: event.frame, bottom: event.bottom, into });
      into = event.frame.steps;
    } else if (event.kind === 'branch') {
      const branch = { label: event.label, steps: [] as Step[] };
      (event.frame.branches ??= []).push(branch);
      into = branch.steps;
    } else into.push(event.step);
  }
  const spec: SequenceSpecInput = { kind: 'sequence', participants, steps };
  if (numbered.size > 0) spec.autonumber = true;
  const caption = live.find((e) => e.id === 'diagram-caption');
  if (caption) spec.caption = textOf(caption);
  const messageIds: string[] = [];
  const walk = (list: readonly Step[]) => {
    for (const step of list) {
      const arrow = arrowOf.get(step);
      if (arrow !== undefined) messageIds.push(arrow);
      else if (typeof step === 'object' && step !== null && 'frame' in step) {
        const frame = step as FrameStep;
        walk(frame.steps);
        for (const branch of frame.branches ?? []) walk(branch.steps);
      }
    }
  };
  walk(steps);
  return { spec, messageIds, drawnIds: drawingIds(live) };
}

/** The elements of a sequence diagram's drawing: its parts, what is grouped with them, their labels, its caption. */
function drawingIds(live: readonly SceneElement[]): string[] {
  const groups = new Set<string>();
  const ids = new Set<string>();
  for (const e of live) {
    if (roleOf(e) === null) continue;
    ids.add(e.id);
    for (const group of (e.groupIds as string[] | undefined) ?? []) if (group.endsWith('-participant') || /^frame-\d+-group$/.test(group)) groups.add(group);
  }
  for (const e of live) if (((e.groupIds as string[] | undefined) ?? []).some((g) => groups.has(g)) || e.id === 'diagram-caption') ids.add(e.id);
  for (const e of live) if (typeof e.containerId === 'string' && ids.has(e.containerId)) ids.add(e.id);
  return [...ids];
}

const ARROWS: Record<string, string> = {
  'solid triangle': '->>',
  'dashed triangle': '-->>',
  'solid none': '->',
  'dashed none': '-->',
  'solid arrow': '-)',
  'dashed arrow': '--)',
  'solid bar': '-x',
  'dashed bar': '--x',
};
/** Text Mermaid reads on one line: its line breaks as <br/>, its statement separators as entities. */
const oneLine = (text: string) => text.replace(/\n/g, '<br/>').replace(/;/g, '#59;').replace(/#(?!\d+;)/g, '#35;');
const idOf = (id: string) => (/^[\w.$-]+$/.test(id) && !/^(end|participant|actor|note|loop|alt|else|opt|par|and|rect|critical|break|option|activate|deactivate|create|destroy|autonumber|title|box)$/i.test(id) ? id : null);

/** A sequence spec as Mermaid text, and what Mermaid cannot say. */
export function sequenceToMermaid(spec: SequenceSpecInput): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  const aliases = new Map<string, string>();
  const name = (id: string) => {
    if (!aliases.has(id)) aliases.set(id, idOf(id) ?? `p${aliases.size + 1}`);
    return aliases.get(id)!;
  };
  const lines = ['sequenceDiagram'];
  if (spec.caption) lines.push(`  title ${oneLine(spec.caption)}`);
  if (spec.autonumber) lines.push('  autonumber');
  const declarations = new Map<string, string>();
  for (const raw of spec.participants ?? []) {
    const p = typeof raw === 'string' ? { id: raw } : raw;
    const keyword = p.type === 'actor' ? 'actor' : p.type && p.type !== 'participant' ? p.type : 'participant';
    const label = p.label ?? p.id;
    const alias = name(p.id);
    declarations.set(p.id, `${keyword} ${alias}${label !== alias ? ` as ${oneLine(label)}` : ''}`);
  }
  // A participant a message creates is declared there (Mermaid refuses one declared twice).
  const createdIds = new Set<string>();
  const collect = (steps: readonly Step[]) => {
    for (const raw of steps) {
      if (typeof raw !== 'object' || raw === null) continue;
      const step = raw as Record<string, unknown>;
      if (step.create === true && typeof step.to === 'string') createdIds.add(step.to);
      if ('frame' in step) {
        collect((step.steps as Step[] | undefined) ?? []);
        for (const branch of (step.branches as Array<{ steps: Step[] }> | undefined) ?? []) collect(branch.steps);
      }
    }
  };
  collect(spec.steps);
  for (const [id, declaration] of declarations) if (!createdIds.has(id)) lines.push(`  ${declaration}`);
  const write = (steps: readonly Step[], indent: string) => {
    for (const raw of steps) {
      if (typeof raw === 'string') {
        lines.push(`${indent}${raw}`);
        continue;
      }
      const step = raw as Record<string, unknown>;
      if ('frame' in step) {
        const frame = step as unknown as FrameStep;
        const word = frame.frame === 'rect' ? `rect ${frame.color ?? 'rgb(241, 243, 245)'}` : `${frame.frame}${frame.label ? ` ${oneLine(frame.label)}` : ''}`;
        lines.push(`${indent}${word}`);
        write(frame.steps, `${indent}  `);
        for (const branch of frame.branches ?? []) {
          lines.push(`${indent}${BRANCH_WORDS[frame.frame] ?? 'else'}${branch.label ? ` ${oneLine(branch.label)}` : ''}`);
          write(branch.steps, `${indent}  `);
        }
        lines.push(`${indent}end`);
      } else if ('note' in step) {
        const place = step.over !== undefined ? `over ${[step.over].flat().map((id) => name(id as string)).join(',')}` : step.leftOf !== undefined ? `left of ${name(step.leftOf as string)}` : `right of ${name(step.rightOf as string)}`;
        lines.push(`${indent}Note ${place}: ${oneLine(String(step.note))}`);
      } else if ('activate' in step && !('from' in step)) lines.push(`${indent}activate ${name(step.activate as string)}`);
      else if ('deactivate' in step && !('from' in step)) lines.push(`${indent}deactivate ${name(step.deactivate as string)}`);
      else {
        const [from, to] = [name(step.from as string), name(step.to as string)];
        const line = step.line === 'dashed' ? 'dashed' : 'solid';
        const head = (step.arrowhead as string | undefined) ?? 'triangle';
        let arrow = ARROWS[`${line} ${head}`];
        if (step.startArrowhead === 'triangle' && head === 'triangle') arrow = line === 'dashed' ? '<<-->>' : '<<->>';
        else if ((step.startArrowhead ?? 'none') !== 'none') warnings.push('a head at a message\'s start is written only with one at its end (<<->>)');
        if (!arrow) {
          warnings.push(`Mermaid's messages have no ${head} head: written as a filled one`);
          arrow = line === 'dashed' ? '-->>' : '->>';
        }
        if (step.create) lines.push(`${indent}create ${declarations.get(step.to as string) ?? `participant ${to}`}`);
        if (step.destroy) lines.push(`${indent}destroy ${step.destroy === 'to' ? to : from}`);
        lines.push(`${indent}${from}${arrow}${step.activate ? '+' : step.deactivate ? '-' : ''}${to}: ${oneLine(String(step.label ?? ''))}`);
      }
    }
  };
  write(spec.steps, '  ');
  return { text: `${lines.join('\n')}\n`, warnings: [...new Set(warnings)] };
}
