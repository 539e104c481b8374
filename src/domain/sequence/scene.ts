/**
 * A checked sequence spec laid out and drawn as editor elements.
 *
 * Across: each participant's box sized to its label, the centres spaced so
 * that every message's label fits between the lifelines it joins, a message
 * to itself and a note beside a lifeline have room before the next one, and
 * a frame's tab and condition fit inside it. Down: one row per step in
 * order, each as tall as its label; frames open with a row for their tab and
 * close below their last step; activations run from the message that starts
 * them to the one that ends them.
 *
 * Drawn: each participant's box at the top and again at the foot, joined by
 * its lifeline (a dashed rectangle of no width, so arrows bind to it); each
 * message an arrow bound at both ends to the lifeline or to the activation
 * bar it meets there, its label bound to it; activations as narrow boxes;
 * notes as yellow boxes; frames as outlines with their kind in a tab, the
 * condition beside it and a dashed line between branches. A participant's
 * parts are one group, so dragging its box drags its lifeline and the
 * messages follow.
 */
import { captionElement } from '../scene/from-spec.ts';
import { addBound, baseElement, BINDING_GAP, type ExcalidrawElement, FONT_FAMILY_EXCALIFONT, FONT_SIZE } from '../scene/elements.ts';
import { arrowElement, arrowLabelElement, focusOf, lineElement, nodeElements, textElement } from '../scene/factory.ts';
import type { Point } from '../scene/geometry.ts';
import { WIDEN_FOR_WORD, wordSafeWrap } from '../scene/label-wrap.ts';
import { type NodePlan, planNode, round, type TextBlock } from '../scene/node-plan.ts';
import type { SpecEdge, SpecNode } from '../spec/types.ts';
import { measureText, wrapText } from '../text/metrics.ts';
import { BRANCH_WORDS, type Frame, type Message, type Note, type Participant, type SequenceSpec, type Step } from './types.ts';

/** Between two participants' boxes, at the least. */
const PARTICIPANT_GAP = 40;
/** Kept clear on each side of a message's label, between the lifelines it joins. */
const LABEL_ROOM = 12;
/** A message without a label still spans this much. */
const BARE_MESSAGE = 80;
/** The least height of a message's row, and what a label adds around itself. */
const ROW = 40;
const ROW_AROUND_LABEL = 10;
/** Messages' labels: Mermaid's size, smaller than a box's name, wrapped at this width. */
const MESSAGE_FONT_SIZE = 16;
const MESSAGE_WRAP = 220;
/** Between the boxes and the first step, and between the last step and the boxes at the foot. */
const TOP_GAP = 24;
const FOOT_GAP = 28;
/** A message to itself: the loop's least width and height. */
const SELF_WIDTH = 36;
const SELF_HEIGHT = 30;
/** An activation bar, and how far a nested one shifts right. */
const ACTIVATION_WIDTH = 12;
const ACTIVATION_SHIFT = 6;
const ACTIVATION_FILL = '#e9ecef';
/** Kept between a lifeline and text or a frame's tab beside it: room for the bars on it. */
const CLEAR = ACTIVATION_WIDTH + 4;
/** Notes: their fill, the space kept around them and how far one over a lifeline reaches past it. */
const NOTE_FILL = '#fff3bf';
const NOTE_GAP = 12;
const NOTE_OVERHANG = 24;
/** A note's text: where it wraps, and the room around it. */
const NOTE_WRAP = 260;
const NOTE_PAD_X = 12;
const NOTE_PAD_Y = 8;
const NOTE_MIN_WIDTH = 80;
/** Frames: room for the tab, the margin around what they hold, the row a branch's label takes, the space below. */
const FRAME_TAB_HEIGHT = 34;
const FRAME_PAD = 14;
const FRAME_NEST_PAD = 10;
const BRANCH_ROW = 30;
const FRAME_BOTTOM = 14;
const FRAME_INK = '#495057';
const FRAME_FONT_SIZE = 16;
/** The cross where a lifeline ends. */
const CROSS = 9;

interface Column {
  participant: Participant;
  plan: NodePlan;
  centre: number;
}

/** An activation bar: its participant, nesting level and span down the page. */
interface Bar {
  id: string;
  participant: string;
  level: number;
  top: number;
  bottom: number | null;
}

/** Where each step landed down the page. */
interface Placed {
  messages: Map<string, { y: number; bottom: number; top: number }>;
  notes: Map<string, { top: number; height: number }>;
  frames: Map<string, { top: number; bottom: number; separators: number[] }>;
  bars: Bar[];
  created: Map<string, number>;
  destroyed: Map<string, number>;
  end: number;
}

const textBlock = (text: string, fontSize = FONT_SIZE): TextBlock => ({ text, original: text, ...measureText(text, fontSize, FONT_FAMILY_EXCALIFONT) });

function labelOf(message: Message, number: number | null): TextBlock | null {
  const text = number === null ? message.label : message.label === '' ? `${number}` : `${number}. ${message.label}`;
  if (text === '') return null;
  // Never broken inside a word a line can hold (label-wrap.ts), as a flowchart's edge labels.
  const safe = wordSafeWrap(text, MESSAGE_WRAP / WIDEN_FOR_WORD);
  const wrapped = wrapText(safe.label, MESSAGE_FONT_SIZE, MESSAGE_WRAP, FONT_FAMILY_EXCALIFONT);
  const block = { text: wrapped, original: safe.label, ...measureText(wrapped, MESSAGE_FONT_SIZE, FONT_FAMILY_EXCALIFONT) };
  return safe.label !== text ? { ...block, authored: text } : block;
}

function participantNode(participant: Participant, id = participant.id): SpecNode {
  const text = participant.type === 'actor';
  return { id, label: participant.label, shape: text ? 'text' : 'rectangle', icon: participant.icon, strokeColor: null, backgroundColor: null, fillStyle: null, parent: null };
}

/** A note's box: its text at the messages' size, wrapped at NOTE_WRAP or, given, in that width. */
function notePlan(note: Note, width?: number): NodePlan {
  const wrapAt = (width ?? NOTE_WRAP + 2 * NOTE_PAD_X) - 2 * NOTE_PAD_X;
  const safe = wordSafeWrap(note.text, wrapAt / WIDEN_FOR_WORD);
  const text = wrapText(safe.label, MESSAGE_FONT_SIZE, wrapAt, FONT_FAMILY_EXCALIFONT);
  const measured = measureText(text, MESSAGE_FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  const label = { text, original: safe.label, ...measured, ...(safe.label !== note.text ? { authored: note.text } : {}) };
  return { node: noteNode(note), label, isContainer: false, depth: 0, shape: 'rectangle', width: round(width ?? Math.max(NOTE_MIN_WIDTH, measured.width + 2 * NOTE_PAD_X)), height: round(measured.height + 2 * NOTE_PAD_Y) };
}

function noteNode(note: Note): SpecNode {
  return { id: note.id, label: note.text, shape: 'rectangle', icon: null, strokeColor: null, backgroundColor: NOTE_FILL, fillStyle: 'solid', parent: null };
}

/** The frame's kind as drawn in its tab, and its condition beside it. */
const tabText = (frame: Frame) => frame.kind;
const conditionText = (label: string) => (label === '' ? '' : `[${label}]`);

export function sceneFromSequence(spec: SequenceSpec, options: { updated: number }): ExcalidrawElement[] {
  const columns = new Map<string, Column>();
  const order = spec.participants.map((p) => p.id);
  for (const participant of spec.participants) columns.set(participant.id, { participant, plan: planNode(participantNode(participant), false, 0, true), centre: 0 });
  const index = new Map(order.map((id, i) => [id, i]));
  const numbers = new Map<string, number>();
  let n = 0;
  for (const step of walkSteps(spec.steps)) if (step.step === 'message') numbers.set(step.id, ++n);
  const labels = new Map<string, TextBlock | null>();
  for (const step of walkSteps(spec.steps)) if (step.step === 'message') labels.set(step.id, labelOf(step, spec.autonumber ? numbers.get(step.id)! : null));
  const notePlans = new Map<string, NodePlan>();
  for (const step of walkSteps(spec.steps)) if (step.step === 'note') notePlans.set(step.id, notePlan(step));

  placeColumns(spec, columns, order, index, labels, notePlans);
  // A note over two participants spans them: its text wraps in that width, not its own.
  for (const step of walkSteps(spec.steps)) {
    if (step.step !== 'note' || step.participants.length < 2) continue;
    const xs = step.participants.map((id) => columns.get(id)!.centre).sort((a, b) => a - b);
    const span = xs[1]! - xs[0]! + 2 * NOTE_OVERHANG;
    if (span > notePlans.get(step.id)!.width) notePlans.set(step.id, notePlan(step, span));
  }
  const headHeight = Math.max(...[...columns.values()].map((c) => c.plan.height));
  const placed = placeRows(spec, columns, labels, notePlans, headHeight);
  return draw(spec, columns, order, index, labels, notePlans, placed, headHeight, numbers, options.updated);
}

/** Centres across the page: every gap as wide as the steps between its lifelines need. */
function placeColumns(spec: SequenceSpec, columns: Map<string, Column>, order: string[], index: Map<string, number>, labels: Map<string, TextBlock | null>, notePlans: Map<string, NodePlan>) {
  const count = order.length;
  const widthOf = (i: number) => columns.get(order[i]!)!.plan.width;
  const gaps = Array.from({ length: Math.max(0, count - 1) }, (_, i) => (widthOf(i) + widthOf(i + 1)) / 2 + PARTICIPANT_GAP);
  /**
   * Needs as [from column, to column, least distance, whole]: `whole`, between the two centres; else in one
   * gap between them (a message's label sits between two lifelines, clear of both).
   */
  const needs: Array<[number, number, number, boolean]> = [];
  const side = (i: number, toRight: boolean, distance: number) => {
    const j = toRight ? i + 1 : i - 1;
    if (j >= 0 && j < count) needs.push([Math.min(i, j), Math.max(i, j), distance, true]);
  };
  for (const step of walkSteps(spec.steps)) {
    if (step.step === 'message') {
      const label = labels.get(step.id);
      const [a, b] = [index.get(step.from)!, index.get(step.to)!];
      if (a === b) side(a, true, selfWidth(label ?? null) + (label ? label.width / 2 : 0) + LABEL_ROOM + ACTIVATION_WIDTH);
      else if (step.create) {
        // The arrow ends at the created participant's box, half its width short of its lifeline.
        const half = columns.get(step.to)!.plan.width / 2;
        needs.push([Math.min(a, b), Math.max(a, b), Math.max(BARE_MESSAGE, (label?.width ?? 0) + 2 * LABEL_ROOM) + 2 * CLEAR + half, true]);
      } else needs.push([Math.min(a, b), Math.max(a, b), Math.max(BARE_MESSAGE, (label?.width ?? 0) + 2 * LABEL_ROOM) + 2 * CLEAR, false]);
    } else if (step.step === 'note') {
      const width = notePlans.get(step.id)!.width;
      const [a, b] = step.participants.map((id) => index.get(id)!).sort((x, y) => x - y) as [number, number?];
      if (step.placement === 'leftOf') side(a, false, width + 2 * NOTE_GAP);
      else if (step.placement === 'rightOf') side(a, true, width + 2 * NOTE_GAP);
      else if (b === undefined || b === a) {
        side(a, false, width / 2 + NOTE_GAP);
        side(a, true, width / 2 + NOTE_GAP);
      } else needs.push([a, b, width - 2 * NOTE_OVERHANG, true]);
    } else if (step.step === 'frame') {
      const span = frameSpan(step, index);
      const tab = measureText(tabText(step), FRAME_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width + 16;
      const condition = Math.max(...step.branches.map((b) => measureText(conditionText(b.label), FRAME_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width));
      const width = tab + condition + 3 * FRAME_PAD - 2 * FRAME_PAD;
      if (span && span[1] > span[0]) needs.push([span[0], span[1], width, true]);
      else if (span) side(span[0], true, width - FRAME_PAD);
      // Each branch's label ("else [cond]") between two lifelines, clear of both.
      const branches = step.branches.slice(1).map((b) => measureText([BRANCH_WORDS[step.kind], conditionText(b.label)].filter(Boolean).join(' '), FRAME_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width);
      if (span && span[1] > span[0] && branches.length > 0) needs.push([span[0], span[1], Math.max(...branches) + 2 * CLEAR + 8, false]);
    }
  }
  needs.sort((x, y) => x[1] - x[0] - (y[1] - y[0]));
  for (const [a, b, distance, whole] of needs) {
    if (!whole) {
      // The widest gap between them takes the label; widened when it is too narrow.
      let widest = a;
      for (let i = a; i < b; i++) if (gaps[i]! > gaps[widest]!) widest = i;
      gaps[widest] = Math.max(gaps[widest]!, distance);
      continue;
    }
    let current = 0;
    for (let i = a; i < b; i++) current += gaps[i]!;
    if (current >= distance) continue;
    const add = (distance - current) / (b - a);
    for (let i = a; i < b; i++) gaps[i] = gaps[i]! + add;
  }
  let x = widthOf(0) / 2;
  order.forEach((id, i) => {
    columns.get(id)!.centre = round(x);
    x += gaps[i] ?? 0;
  });
}

export function* walkSteps(steps: readonly Step[]): Generator<Step> {
  for (const step of steps) {
    yield step;
    if (step.step === 'frame') for (const branch of step.branches) yield* walkSteps(branch.steps);
  }
}

/** The columns a frame's steps reach, leftmost and rightmost; null for a frame with none. */
function frameSpan(frame: Frame, index: Map<string, number>): [number, number] | null {
  const reached: number[] = [];
  for (const branch of frame.branches) {
    for (const step of walkSteps(branch.steps)) {
      if (step.step === 'message') reached.push(index.get(step.from)!, index.get(step.to)!);
      else if (step.step === 'note') reached.push(...step.participants.map((id) => index.get(id)!));
      else if (step.step !== 'frame') reached.push(index.get(step.participant)!);
    }
  }
  return reached.length === 0 ? null : [Math.min(...reached), Math.max(...reached)];
}

const selfWidth = (label: TextBlock | null) => Math.max(SELF_WIDTH, label ? label.width / 2 + 14 : 0);

/** Rows down the page: where each message, note and frame lands, and where activations start and end. */
function placeRows(spec: SequenceSpec, columns: Map<string, Column>, labels: Map<string, TextBlock | null>, notePlans: Map<string, NodePlan>, headHeight: number): Placed {
  const placed: Placed = { messages: new Map(), notes: new Map(), frames: new Map(), bars: [], created: new Map(), destroyed: new Map(), end: 0 };
  let y = headHeight + TOP_GAP;
  let lastArrow = y;
  const counts = new Map<string, number>();
  const open = (participant: string, at: number) => {
    const level = placed.bars.filter((b) => b.participant === participant && b.bottom === null).length;
    const k = (counts.get(participant) ?? 0) + 1;
    counts.set(participant, k);
    placed.bars.push({ id: `${participant}-activation-${k}`, participant, level, top: at, bottom: null });
  };
  const close = (participant: string, at: number) => {
    const bar = placed.bars.findLast((b) => b.participant === participant && b.bottom === null);
    if (bar) bar.bottom = Math.max(at, bar.top + ROW / 2);
  };
  const visit = (steps: readonly Step[]) => {
    for (const step of steps) {
      switch (step.step) {
        case 'message': {
          const label = labels.get(step.id) ?? null;
          const top = y;
          if (step.from === step.to) {
            const height = Math.max(SELF_HEIGHT, (label?.height ?? 0) + 10);
            const start = y + ROW_AROUND_LABEL / 2 + 4;
            placed.messages.set(step.id, { top, y: start, bottom: start + height });
            lastArrow = start + height;
            y = start + height + ROW_AROUND_LABEL / 2 + 4;
          } else {
            let row = Math.max(ROW, (label?.height ?? 0) + 2 * ROW_AROUND_LABEL);
            if (step.create) row = Math.max(row, columns.get(step.to)!.plan.height + ROW_AROUND_LABEL);
            const at = y + row / 2;
            placed.messages.set(step.id, { top, y: at, bottom: at });
            if (step.create) placed.created.set(step.to, at);
            lastArrow = at;
            y += row;
          }
          const arrowEnd = placed.messages.get(step.id)!.bottom;
          if (step.deactivate) close(step.from, arrowEnd);
          if (step.activate) open(step.to, arrowEnd);
          if (step.destroy) placed.destroyed.set(step.destroy === 'from' ? step.from : step.to, arrowEnd);
          break;
        }
        case 'note': {
          const height = notePlans.get(step.id)!.height;
          placed.notes.set(step.id, { top: y + NOTE_GAP / 2, height });
          y += height + NOTE_GAP;
          break;
        }
        case 'activate':
          open(step.participant, lastArrow);
          break;
        case 'deactivate':
          close(step.participant, lastArrow);
          break;
        case 'frame': {
          const top = y;
          y += FRAME_TAB_HEIGHT + 8;
          const separators: number[] = [];
          step.branches.forEach((branch, b) => {
            if (b > 0) {
              separators.push(y + 4);
              y += BRANCH_ROW;
            }
            visit(branch.steps);
          });
          y += FRAME_BOTTOM;
          placed.frames.set(step.id, { top, bottom: y - FRAME_BOTTOM / 2, separators });
          y += 4;
          break;
        }
      }
    }
  };
  visit(spec.steps);
  placed.end = y + FOOT_GAP;
  for (const bar of placed.bars) if (bar.bottom === null) bar.bottom = Math.max(y, bar.top + ROW / 2);
  return placed;
}

function draw(
  spec: SequenceSpec,
  columns: Map<string, Column>,
  order: string[],
  index: Map<string, number>,
  labels: Map<string, TextBlock | null>,
  notePlans: Map<string, NodePlan>,
  placed: Placed,
  headHeight: number,
  numbers: ReadonlyMap<string, number>,
  updated: number,
): ExcalidrawElement[] {
  const elements: ExcalidrawElement[] = [];
  let orderNo = 0;
  const nextOrder = () => orderNo++;
  const push = (element: ExcalidrawElement) => {
    elements.push(element);
    return element;
  };
  const byId = new Map<string, ExcalidrawElement>();
  const centre = (id: string) => columns.get(id)!.centre;
  const lifelines = order.map(centre);

  // Participants: the box at the top (or where a message creates it), the lifeline, the box at the foot.
  const footTop = placed.end;
  for (const id of order) {
    const column = columns.get(id)!;
    const group = `${id}-participant`;
    const created = placed.created.get(id);
    const height = column.plan.shape === 'text' ? column.plan.height : headHeight;
    const top = created === undefined ? headHeight - height : created - height / 2;
    const head = nodeElements(column.plan, { x: round(column.centre - column.plan.width / 2), y: round(top), width: column.plan.width, height }, { updated, nextOrder, iconOnTop: true, bound: true });
    for (const element of head.elements) {
      element.groupIds = [...((element.groupIds as string[]) ?? []), group];
      push(element);
    }
    head.shape!.customData = { ...(head.shape!.customData as object | undefined), sequence: 'participant', participant: id, type: column.participant.type };
    byId.set(id, head.shape!);
    const lifeTop = top + height;
    const destroyed = placed.destroyed.get(id);
    const lifeBottom = destroyed ?? footTop;
    const lifeline = push(baseElement(`${id}-lifeline`, 'rectangle', { x: column.centre, y: round(lifeTop), width: 0, height: round(lifeBottom - lifeTop) }, nextOrder(), updated, { strokeStyle: 'dashed', strokeWidth: 1, strokeColor: FRAME_INK }));
    lifeline.roughness = 0;
    lifeline.groupIds = [group];
    lifeline.customData = { sequence: 'lifeline', participant: id };
    byId.set(lifeline.id, lifeline);
    if (destroyed !== undefined) {
      for (const [k, [a, b]] of [[[-CROSS, -CROSS], [CROSS, CROSS]], [[-CROSS, CROSS], [CROSS, -CROSS]]].entries() as IterableIterator<[number, [Point, Point]]>) {
        const cross = push(lineElement(k === 0 ? `${id}-destroyed` : `${id}-destroyed-2`, { x: 0, y: 0 }, [[column.centre + a[0], destroyed + a[1]], [column.centre + b[0], destroyed + b[1]]], nextOrder(), updated, {}, [group]));
        cross.customData = { sequence: 'destroyed', participant: id };
      }
    } else {
      const foot = nodeElements(planNode(participantNode(column.participant, `${id}-foot`), false, 0, true), { x: round(column.centre - column.plan.width / 2), y: round(footTop), width: column.plan.width, height }, { updated, nextOrder, iconOnTop: true, bound: true });
      for (const element of foot.elements) {
        element.groupIds = [...((element.groupIds as string[]) ?? []), group];
        push(element);
      }
      foot.shape!.customData = { ...(foot.shape!.customData as object | undefined), sequence: 'foot', participant: id };
    }
  }

  // Frames, outermost first: over the lifelines (a tab hides the one it crosses), under what they hold.
  const frameBoxes = frameExtents(spec, columns, notePlans, labels);
  for (const step of walkSteps(spec.steps)) {
    if (step.step !== 'frame') continue;
    const box = frameBoxes.get(step.id)!;
    const at = placed.frames.get(step.id)!;
    const group = [`${step.id}-group`];
    const rect = step.kind === 'rect';
    const outline = push(baseElement(step.id, 'rectangle', { x: box.left, y: at.top, width: box.right - box.left, height: at.bottom - at.top }, nextOrder(), updated, {
      strokeColor: rect ? 'transparent' : FRAME_INK,
      backgroundColor: rect ? (step.color ?? '#f1f3f5') : 'transparent',
      strokeWidth: 1,
    }));
    outline.groupIds = group;
    outline.customData = { sequence: 'frame', frame: step.kind, ...(step.branches[0]!.label !== '' ? { label: step.branches[0]!.label } : {}) };
    if (rect) continue;
    const word = textBlock(tabText(step), FRAME_FONT_SIZE);
    const tab = push(baseElement(`${step.id}-tab`, 'rectangle', { x: box.left, y: at.top, width: round(word.width + 16), height: FRAME_TAB_HEIGHT - 4 }, nextOrder(), updated, { strokeColor: FRAME_INK, backgroundColor: ACTIVATION_FILL, strokeWidth: 1 }));
    tab.groupIds = group;
    const tabLabel = push(textElement(`${step.id}-tab-label`, word, { x: box.left + 8, y: at.top + (FRAME_TAB_HEIGHT - 4 - word.height) / 2 }, nextOrder(), updated, { containerId: tab.id, textAlign: 'center', verticalAlign: 'middle', strokeColor: FRAME_INK, fontSize: FRAME_FONT_SIZE }));
    tabLabel.groupIds = group;
    addBound(tab, { id: tabLabel.id, type: 'text' });
    const texts = step.branches.map((b) => conditionText(b.label));
    if (texts[0] !== '') {
      const condition = textBlock(texts[0]!, FRAME_FONT_SIZE);
      const after = box.left + word.width + 16 + FRAME_PAD / 2;
      const x = freeSpot(after, box.right - FRAME_PAD / 2, condition.width + 8, after + 4 + condition.width / 2, lifelines) - condition.width / 2;
      const text = push(textElement(`${step.id}-label`, condition, { x: round(x), y: at.top + (FRAME_TAB_HEIGHT - 4 - condition.height) / 2 }, nextOrder(), updated, { containerId: null, textAlign: 'left', verticalAlign: 'top', strokeColor: FRAME_INK, fontSize: FRAME_FONT_SIZE }));
      text.groupIds = group;
    }
    at.separators.forEach((sy, k) => {
      const line = push(lineElement(`${step.id}-branch-${k + 1}`, { x: 0, y: 0 }, [[box.left, sy], [box.right, sy]], nextOrder(), updated, { strokeColor: FRAME_INK, strokeStyle: 'dashed', strokeWidth: 1 }, group));
      line.customData = { sequence: 'branch', frame: step.id, ...(step.branches[k + 1]!.label !== '' ? { label: step.branches[k + 1]!.label } : {}) };
      const words = [BRANCH_WORDS[step.kind], texts[k + 1]].filter(Boolean).join(' ');
      const block = textBlock(words, FRAME_FONT_SIZE);
      const x = freeSpot(box.left + FRAME_PAD / 2, box.right - FRAME_PAD / 2, block.width + 8, (box.left + box.right) / 2, lifelines) - block.width / 2;
      const text = push(textElement(`${step.id}-branch-${k + 1}-label`, block, { x: round(x), y: sy + 4 }, nextOrder(), updated, { containerId: null, textAlign: 'center', verticalAlign: 'top', strokeColor: FRAME_INK, fontSize: FRAME_FONT_SIZE }));
      text.groupIds = group;
    });
  }

  // Activation bars, over their lifelines.
  for (const bar of placed.bars) {
    const x = centre(bar.participant) - ACTIVATION_WIDTH / 2 + bar.level * ACTIVATION_SHIFT;
    const element = push(baseElement(bar.id, 'rectangle', { x: round(x), y: round(bar.top), width: ACTIVATION_WIDTH, height: round(bar.bottom! - bar.top) }, nextOrder(), updated, { backgroundColor: ACTIVATION_FILL, strokeWidth: 1 }));
    element.groupIds = [`${bar.participant}-participant`];
    element.customData = { sequence: 'activation', participant: bar.participant };
    byId.set(bar.id, element);
  }

  // Notes.
  for (const step of walkSteps(spec.steps)) {
    if (step.step !== 'note') continue;
    const plan = notePlans.get(step.id)!;
    const at = placed.notes.get(step.id)!;
    const xs = step.participants.map(centre).sort((a, b) => a - b);
    let left: number;
    let width = plan.width;
    if (step.placement === 'leftOf') left = xs[0]! - NOTE_GAP - width;
    else if (step.placement === 'rightOf') left = xs[0]! + NOTE_GAP;
    else if (xs.length === 1) left = xs[0]! - width / 2;
    else {
      width = Math.max(width, xs[1]! - xs[0]! + 2 * NOTE_OVERHANG);
      left = (xs[0]! + xs[1]!) / 2 - width / 2;
    }
    const note = nodeElements({ ...plan, width }, { x: round(left), y: round(at.top), width, height: plan.height }, { updated, nextOrder, iconOnTop: false, bound: false });
    for (const element of note.elements) push(element);
    const text = note.elements.find((e) => e.id === `${step.id}-label`);
    if (text) text.fontSize = MESSAGE_FONT_SIZE;
    note.shape!.customData = { sequence: 'note' };
    // Square corners, as Mermaid's notes: no corner cuts into a long first line.
    note.shape!.roundness = null;
  }

  // Messages, last, over everything they cross.
  for (const step of walkSteps(spec.steps)) {
    if (step.step !== 'message') continue;
    const at = placed.messages.get(step.id)!;
    const label = labels.get(step.id) ?? null;
    const from = endAt(step.from, at.y, placed.bars, byId);
    let points: Point[];
    let to: ExcalidrawElement;
    if (step.from === step.to) {
      const endBar = endAt(step.to, at.bottom, placed.bars, byId);
      to = endBar;
      const x0 = right(from) + BINDING_GAP;
      const x1 = right(endBar) + BINDING_GAP;
      const loop = Math.max(x0, x1) + selfWidth(label);
      points = [[x0, at.y], [loop, at.y], [loop, at.bottom], [x1, at.bottom]];
    } else if (step.create) {
      to = byId.get(step.to)!;
      const rightward = centre(step.to) > centre(step.from);
      points = [[rightward ? right(from) + BINDING_GAP : left(from) - BINDING_GAP, at.y], [rightward ? left(to) - BINDING_GAP : right(to) + BINDING_GAP, at.y]];
    } else {
      to = endAt(step.to, at.y, placed.bars, byId);
      const rightward = centre(step.to) > centre(step.from);
      points = [[rightward ? right(from) + BINDING_GAP : left(from) - BINDING_GAP, at.y], [rightward ? left(to) - BINDING_GAP : right(to) + BINDING_GAP, at.y]];
    }
    if (label && points.length === 2) {
      // The label between two lifelines, clear of any it crosses: the arrow's middle point, where the editor centres it.
      const [a, b] = [points[0]!, points[1]!];
      const [lo, hi] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
      const x = freeSpot(lo, hi, label.width + 2 * LABEL_ROOM, (lo + hi) / 2, lifelines);
      if (Math.abs(x - (lo + hi) / 2) > 1) points = [a, [x, a[1]], b];
    }
    points = points.map(([x, y]) => [round(x), round(y)] as Point);
    const edge: SpecEdge = { id: step.id, from: from.id, to: to.id, label: step.label === '' ? null : step.label, startArrowhead: step.startArrowhead, endArrowhead: step.endArrowhead, style: step.line, source: step.source };
    const focus = { start: focusOf(points[1]!, points[0]!, from), end: focusOf(points.at(-2)!, points.at(-1)!, to) };
    const arrow = push(arrowElement(edge, points, focus, nextOrder(), updated));
    arrow.customData = { sequence: 'message', ...(spec.autonumber ? { number: numbers.get(step.id) } : {}) };
    addBound(from, { id: step.id, type: 'arrow' });
    if (to !== from) addBound(to, { id: step.id, type: 'arrow' });
    if (label) {
      const text = push(arrowLabelElement(step.id, label, points, nextOrder(), updated, MESSAGE_FONT_SIZE));
      addBound(arrow, { id: text.id, type: 'text' });
    }
  }
  if (spec.caption !== undefined) push(captionElement(spec.caption, 'top', elements, nextOrder(), updated));
  return elements;
}

/**
 * Where a text `width` wide is centred on a row from `lo` to `hi`, clear of every lifeline (and the
 * activation bars on it): the free stretch nearest `preferred` that holds it; `preferred` when none does.
 */
function freeSpot(lo: number, hi: number, width: number, preferred: number, lifelines: readonly number[]): number {
  const clear = CLEAR;
  const cuts = lifelines.filter((x) => x + clear > lo && x - clear < hi).sort((a, b) => a - b);
  let best: number | null = null;
  let start = lo;
  for (const stop of [...cuts.map((x) => x - clear), hi]) {
    if (stop - start >= width - 0.5) {
      const x = Math.min(Math.max(preferred, start + width / 2), stop - width / 2);
      if (best === null || Math.abs(x - preferred) < Math.abs(best - preferred)) best = x;
    }
    const cut = cuts.find((c) => c - clear === stop);
    if (cut !== undefined) start = Math.max(start, cut + clear);
  }
  return best ?? preferred;
}

const left = (e: ExcalidrawElement) => e.x as number;
const right = (e: ExcalidrawElement) => (e.x as number) + (e.width as number);

/** What a message meets on a participant's lifeline at height y: the innermost activation bar there, else the lifeline. */
function endAt(participant: string, y: number, bars: Bar[], byId: Map<string, ExcalidrawElement>): ExcalidrawElement {
  let best: Bar | null = null;
  for (const bar of bars) if (bar.participant === participant && bar.top <= y + 0.5 && bar.bottom! >= y - 0.5 && (!best || bar.level > best.level)) best = bar;
  return byId.get(best ? best.id : `${participant}-lifeline`)!;
}

/** Each frame's left and right: around the lifelines, notes and loops its steps reach, and around the frames inside it. */
function frameExtents(spec: SequenceSpec, columns: Map<string, Column>, notePlans: Map<string, NodePlan>, labels: Map<string, TextBlock | null>) {
  const boxes = new Map<string, { left: number; right: number }>();
  const centre = (id: string) => columns.get(id)!.centre;
  const lifelines = [...columns.values()].map((c) => c.centre);
  const extent = (steps: readonly Step[]): [number, number] | null => {
    let lo = Infinity;
    let hi = -Infinity;
    const take = (a: number, b: number) => {
      lo = Math.min(lo, a);
      hi = Math.max(hi, b);
    };
    for (const step of steps) {
      if (step.step === 'message') {
        const [a, b] = [centre(step.from), centre(step.to)].sort((x, y) => x - y) as [number, number];
        const label = labels.get(step.id) ?? null;
        take(a - ACTIVATION_WIDTH, step.from === step.to ? b + selfWidth(label) + (label ? label.width / 2 : 0) + ACTIVATION_WIDTH : b + ACTIVATION_WIDTH);
      } else if (step.step === 'note') {
        const width = notePlans.get(step.id)!.width;
        const xs = step.participants.map(centre).sort((x, y) => x - y);
        // The note's own box: a note between two lifelines reads the same beside either.
        if (step.placement === 'leftOf') take(xs[0]! - NOTE_GAP - width, xs[0]! - NOTE_GAP);
        else if (step.placement === 'rightOf') take(xs[0]! + NOTE_GAP, xs[0]! + NOTE_GAP + width);
        else {
          const w = xs.length === 1 ? width : Math.max(width, xs[1]! - xs[0]! + 2 * NOTE_OVERHANG);
          const mid = xs.length === 1 ? xs[0]! : (xs[0]! + xs[1]!) / 2;
          take(mid - w / 2, mid + w / 2);
        }
      } else if (step.step === 'frame') {
        const inner = frameBox(step);
        if (inner) take(inner.left - FRAME_NEST_PAD + FRAME_PAD, inner.right + FRAME_NEST_PAD - FRAME_PAD);
      } else take(centre(step.participant) - ACTIVATION_WIDTH, centre(step.participant) + ACTIVATION_WIDTH);
    }
    return lo === Infinity ? null : [lo, hi];
  };
  const frameBox = (frame: Frame): { left: number; right: number } | null => {
    const reached = frame.branches.map((b) => extent(b.steps)).filter((e): e is [number, number] => e !== null);
    const first = spec.participants[0]!.id;
    const [lo, hi] = reached.length === 0 ? [centre(first), centre(first)] : [Math.min(...reached.map((r) => r[0])), Math.max(...reached.map((r) => r[1]))];
    const tab = measureText(tabText(frame), FRAME_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width + 16;
    const condition = Math.max(...frame.branches.map((b) => measureText(conditionText(b.label), FRAME_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width));
    // The tab in the top left corner stays clear of the lifelines (and their bars): the frame reaches further left when one is in the way.
    let left = lo - FRAME_PAD;
    for (const x of [...lifelines].sort((a, b) => b - a)) if (x + CLEAR > left && x - CLEAR < left + tab) left = x - CLEAR - tab - 2;
    // The condition after the tab, clear of the lifelines too: past the last one in its way, the frame as wide as that needs.
    let start = left + tab + FRAME_PAD / 2;
    const needed = condition + 8;
    for (const x of [...lifelines].sort((a, b) => a - b)) if (condition > 0 && x + CLEAR > start && x - CLEAR < start + needed) start = x + CLEAR;
    const box = { left: round(left), right: round(Math.max(hi + FRAME_PAD, start + needed + FRAME_PAD / 2)) };
    boxes.set(frame.id, box);
    return box;
  };
  for (const step of spec.steps) if (step.step === 'frame') frameBox(step);
  return boxes;
}
