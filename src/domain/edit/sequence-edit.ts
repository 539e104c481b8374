/**
 * An edit of a sequence diagram: new participants join at the right, new
 * messages go after the message `after` names (inside its frame, if it is in
 * one) or after the last step, and what comes later moves down to make room.
 * The diagram is read back from its scene as it is now (so a label a person
 * changed stays changed), the steps put in, and drawn again: every message
 * keeps its id, a new one takes the next free `msg-N`, and the elements that
 * are not part of the drawing (a shape a person added) stay as they are.
 */
import { ApiError } from '../../errors.ts';
import { quote } from '../payload.ts';
import { readSequence } from '../export/sequence-text.ts';
import { checkSequenceSpec } from '../sequence/check.ts';
import type { SequenceSpecInput } from '../sequence/schema.ts';
import { sceneFromSequence, walkSteps } from '../sequence/scene.ts';
import { sequenceRole, type Step } from '../sequence/types.ts';
import type { ParsedEdit } from './fragment.ts';
import { stampChanges } from './stamp-changes.ts';
import type { SceneElement, WriteStamp } from './types.ts';

/** What the drawing decides of an element it draws again. */
const DRAWN_FIELDS = [
  'type', 'x', 'y', 'width', 'height', 'angle', 'points', 'startBinding', 'endBinding', 'boundElements', 'groupIds', 'containerId', 'frameId',
  'text', 'originalText', 'fontSize', 'lineHeight', 'autoResize', 'textAlign', 'verticalAlign', 'fileId', 'isDeleted',
] as const;

type StepInput = SequenceSpecInput['steps'][number];

/** Whether a scene is a sequence diagram's: it has lifelines. */
export const isSequenceScene = (elements: readonly SceneElement[]) => elements.some((e) => !e.isDeleted && sequenceRole(e) === 'lifeline');

/** Every message of a checked spec's steps, in document order. */
const messagesIn = (steps: readonly Step[]) => [...walkSteps(steps)].filter((step): step is Extract<Step, { step: 'message' }> => step.step === 'message');

/** Every message step of an input spec's steps, in document order, with the list that holds it. */
function* messageInputs(steps: StepInput[]): Generator<{ step: StepInput; list: StepInput[] }> {
  for (const step of steps) {
    if (typeof step === 'string' || (typeof step === 'object' && step !== null && 'from' in step)) yield { step, list: steps };
    else if (typeof step === 'object' && step !== null && 'frame' in step) {
      const frame = step as { steps?: StepInput[]; branches?: Array<{ steps: StepInput[] }> };
      yield* messageInputs(frame.steps ?? []);
      for (const branch of frame.branches ?? []) yield* messageInputs(branch.steps);
    }
  }
}

export function applySequenceEdit(elements: SceneElement[], edit: ParsedEdit, after: string | undefined, stamp: WriteStamp, isIcon: (id: string) => boolean): { elements: SceneElement[]; added: string[] } {
  const read = readSequence(elements)!;
  const oldIds = read.messageIds;
  const spec = read.spec;
  // Steps as they were, with the arrows that draw them.
  const inputs = [...messageInputs(spec.steps)];
  let at = { list: spec.steps, index: spec.steps.length };
  if (after !== undefined) {
    const k = oldIds.indexOf(after);
    if (k < 0) throw new ApiError('INVALID_SPEC', `after names ${quote(after)}, which is not a message of this diagram`);
    const { step, list } = inputs[k]!;
    at = { list, index: list.indexOf(step) + 1 };
  }
  const participants = [...(spec.participants ?? [])];
  for (const { node } of edit.nodes) participants.push({ id: node.id, ...(node.label !== node.id ? { label: node.label } : {}), ...(node.icon ? { icon: node.icon } : {}) });
  const added = edit.edges.map((e) => ({
    from: e.from,
    to: e.to,
    ...(e.label ? { label: e.label } : {}),
    ...(e.style === 'dashed' || e.style === 'dotted' ? { line: 'dashed' as const } : {}),
    ...(e.endArrowhead !== 'arrow' ? { arrowhead: e.endArrowhead } : { arrowhead: 'triangle' as const }),
    ...(e.startArrowhead !== 'none' ? { startArrowhead: e.startArrowhead } : {}),
  }));
  at.list.splice(at.index, 0, ...(added as StepInput[]));
  const { problems, spec: checked } = checkSequenceSpec({ ...spec, participants }, { isIcon });
  if (!checked) throw new ApiError(problems[0]!.code, problems[0]!.message);

  // The messages keep their ids; the new ones take the next free numbers.
  const taken = new Set(oldIds);
  let next = 1;
  const fresh = () => {
    while (taken.has(`msg-${next}`)) next++;
    taken.add(`msg-${next}`);
    return `msg-${next}`;
  };
  const ids = [...oldIds];
  // Messages before the new ones, in document order: up to the one they follow, or all of them.
  const insertAt = after !== undefined ? oldIds.indexOf(after) + 1 : oldIds.length;
  const newIds = added.map(() => fresh());
  ids.splice(insertAt, 0, ...newIds);
  messagesIn(checked.steps).forEach((message, i) => {
    message.id = ids[i]!;
  });

  const drawn = sceneFromSequence(checked, { updated: stamp.now }) as SceneElement[];
  // What the old drawing was made of: the same spec drawn as it stood.
  const before = new Set(read.drawnIds);
  const drawnIds = new Set(drawn.map((d) => d.id));
  const old = new Map(elements.map((e) => [e.id, e]));
  const kept = elements.filter((e) => !before.has(e.id) && !drawnIds.has(e.id));
  // A redrawn element takes its place, size, bindings and words from the drawing; the rest (its colours,
  // link, lock, roughness…) stays as the person left it.
  const merged = drawn.map((element) => {
    const was = old.get(element.id);
    if (!was) return element;
    const next: Record<string, unknown> = { ...was };
    for (const field of DRAWN_FIELDS) {
      if (field in element) next[field] = element[field];
      else delete next[field];
    }
    if (was.customData !== undefined || element.customData !== undefined) next.customData = { ...(was.customData as object | undefined), ...(element.customData as object | undefined) };
    return next as SceneElement;
  });
  return { elements: stampChanges(elements, [...merged, ...kept], stamp), added: [...edit.nodes.map((n) => n.node.id), ...newIds] };
}
