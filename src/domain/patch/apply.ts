/**
 * The patch engine behind POST /diagrams/:id/patch (docs/editing.md): ordered,
 * element-addressed ops applied to a scene all or nothing.
 *
 * After every op the scene holds what the editor relies on: both sides of
 * every binding written, labels inside their containers (re-wrapped as the
 * editor re-wraps them), bound arrow ends on their shapes' outlines with the
 * binding gap and a `focus` that matches them. Pure: time and nonces come in
 * the WriteStamp, and the input array and its elements are never mutated (an
 * element is copied the first time an op changes it).
 *
 * This module dispatches each op and holds the ops on existing elements
 * (update, move, resize, restyle, delete); add is in add.ts, the op grammar in
 * grammar.ts, and what follows from a change (labels, icons, arrows) in cascade.ts.
 */
import { ApiError } from '../../errors.ts';
import type { SceneElement, WriteStamp } from '../edit/types.ts';
import { FORBIDDEN_KEYS, isPlainObject, quote } from '../payload.ts';
import { type Problem, problemFrom, ProblemList, pointer, throwFirst } from '../problems.ts';
import { validateScene } from '../scene/validate.ts';
import { getLineHeight } from '../text/metrics.ts';
import { addElement } from './add.ts';
import { attachEnd } from './arrow-routing.ts';
import { moveTo, relayoutText, reshape, translate } from './cascade.ts';
import { Draft, MAX_ROUTED_POINTS, RoutingExhausted } from './draft.ts';
import { absolutePoints, bindingOf, boundRefs, ENDS, hasPoints, isBoundText, isLinear, num, setAbsolutePoints } from './element-geometry.ts';
import {
  type Check,
  COMMON_FIELDS,
  labelHint,
  MANAGED_FIELDS,
  OpContext,
  RELATION_FIELDS,
  relationHint,
  STYLE_KEYS,
  TYPE_FIELDS,
} from './grammar.ts';
import { refitArrowLabel } from './label-layout.ts';
import { opsShapeProblems } from './op-problems.ts';
import { iconsOf, labelOf, labelsOf, partsOf } from './references.ts';
import { MAX_PATCH_OPS, type PatchOpInput } from './schema.ts';

type OpOf<K extends PatchOpInput['op']> = Extract<PatchOpInput, { op: K }>;

export { MAX_PATCH_OPS };

export interface PatchOptions {
  /** Whether an icon id is in the catalog (images naming `icon-…` files must name one). */
  isIcon: (id: string) => boolean;
}

export interface PatchResult {
  elements: SceneElement[];
  /** Ops applied: all of them, since a patch applies whole or not at all. */
  applied: number;
  /** Elements removed, cascades (labels, icons) included. */
  deleted: number;
}

/**
 * Applies `ops`, which have passed the PatchOp schema (patchProblems finds the
 * problems of any value), in order to a copy of `elements`. Throws an ApiError on the
 * first bad op (INVALID_SPEC, message `ops[i]: …`), or when the result is not
 * a valid scene (validateScene's own codes); the input is left as it was.
 */
export function applyPatch(elements: SceneElement[], ops: PatchOpInput[], stamp: WriteStamp, options: PatchOptions): PatchResult {
  const shape = new ProblemList();
  opsShapeProblems(ops, shape, true);
  throwFirst(shape.list());
  return { ...runOps(elements, coalesceMoves(ops), stamp, options), applied: ops.length };
}

/** Applies ops of a well-formed list (each under its index in the list) to a copy of `elements`. */
function runOps(elements: SceneElement[], ops: Array<{ op: PatchOpInput; index: number }>, stamp: WriteStamp, options: PatchOptions): Omit<PatchResult, 'applied'> {
  const draft = new Draft(elements);
  for (const { op, index } of ops) {
    const ctx = new OpContext(draft, stamp, index);
    draft.mark();
    try {
      applyOp(ctx, op);
    } catch (error) {
      if (error instanceof RoutingExhausted) {
        ctx.fail(`this patch re-routes more than ${MAX_ROUTED_POINTS.toLocaleString('en')} arrow points in all (a shape with many long arrows moved many times): split it, or move the shape once`);
      }
      throw error;
    }
    for (const element of draft.touched()) {
      const field = nonFiniteField(element);
      if (field) ctx.fail(`this would put ${quote(element.id)} out of range (${field === 'points' ? 'its points would not be finite' : `${field} would be ${String(element[field])}`}): coordinates and sizes must stay finite numbers`);
    }
  }
  const result = draft.result(stamp);
  validateScene({ elements: result }, options);
  return { elements: result, deleted: draft.removedCount };
}

/** What a check of ops stamps on the copies it throws away. */
const CHECK_STAMP: WriteStamp = { now: 0, nonce: () => 1 };

/**
 * Every problem with patch ops: their shape (PatchOp), then, given the
 * elements they would apply to, what applying each well-formed op in turn
 * finds (an op that fails is left out and the next applies to the scene as
 * it was). Paths point into the ops array: `/3/id`.
 */
export function patchProblems(ops: unknown, elements: SceneElement[] | null, options: PatchOptions): Problem[] {
  const out = new ProblemList();
  const good = opsShapeProblems(ops, out);
  if (elements === null || !Array.isArray(ops)) return out.list();
  let current = elements;
  ops.forEach((op, index) => {
    if (!good.has(index)) return;
    try {
      current = runOps(current, [{ op: op as PatchOpInput, index }], CHECK_STAMP, options).elements;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const names = isPlainObject(op) && typeof op.id === 'string' && error.message.includes(`no element has id ${quote(op.id)}`);
      out.add(problemFrom(error, pointer(names ? [index, 'id'] : [index]), names ? 'read the diagram for its element ids (shapes keep their spec node ids; labels are <id>-label)' : undefined));
    }
  });
  return out.list();
}

/**
 * The ops with each run of relative moves of one element merged into one
 * move (their sum), under the index of the run's first op: a client that
 * nudges a shape 500 times pays for re-routing its arrows once. Only plain,
 * valid relative moves whose sum stays finite are merged; anything else is
 * applied, and checked, as it is.
 */
function coalesceMoves(ops: PatchOpInput[]): Array<{ op: PatchOpInput; index: number }> {
  const plan: Array<{ op: PatchOpInput; index: number }> = [];
  const relativeMove = (op: PatchOpInput): op is { op: 'move'; id: string; dx: number; dy: number } =>
    op.op === 'move' && op.dx !== undefined && op.dy !== undefined;
  ops.forEach((op, index) => {
    const last = plan[plan.length - 1];
    if (last && relativeMove(op) && relativeMove(last.op) && last.op.id === op.id) {
      const [dx, dy] = [last.op.dx + op.dx, last.op.dy + op.dy];
      if (Number.isFinite(dx) && Number.isFinite(dy)) {
        last.op = { op: 'move', id: op.id, dx, dy };
        return;
      }
    }
    plan.push({ op, index });
  });
  return plan;
}

/** The first coordinate or size of an element that is not a finite number, if any. */
function nonFiniteField(element: SceneElement): string | null {
  for (const field of ['x', 'y', 'width', 'height'] as const) if (element[field] !== undefined && !Number.isFinite(element[field])) return field;
  if (Array.isArray(element.points) && element.points.some((p: unknown) => !Array.isArray(p) || !p.every((v) => Number.isFinite(v)))) return 'points';
  return null;
}

const FONT_KEYS = new Set(['fontSize', 'fontFamily']);
/** Style the editor applies to a selected container's label as well. */
const LABEL_FOLLOWS = ['strokeColor', 'opacity'] as const;

/** Applies one op, whose shape has been checked (opsShapeProblems): what is left to check depends on the scene. */
function applyOp(ctx: OpContext, op: PatchOpInput): void {
  switch (op.op) {
    case 'add':
      return addElement(ctx, op.element);
    case 'update':
      return update(ctx, ctx.target(op.id), op.set);
    case 'move':
      return move(ctx, ctx.target(op.id), op);
    case 'resize':
      return resize(ctx, ctx.target(op.id), op);
    case 'restyle':
      return restyle(ctx, ctx.target(op.id), op);
    case 'delete':
      return deleteElement(ctx, ctx.target(op.id));
  }
}

function update(ctx: OpContext, element: SceneElement, set: Record<string, unknown>): void {
  const draft = ctx.draft;
  const fields: Record<string, Check> = { ...COMMON_FIELDS, ...(TYPE_FIELDS[element.type] ?? {}) };
  for (const [key, value] of Object.entries(set)) {
    if (FORBIDDEN_KEYS.has(key)) ctx.fail(`set has a forbidden field "${key}"`);
    if (key === 'id' || key === 'type') ctx.fail(`set.${key} cannot be changed: delete the element and add a new one`);
    if (RELATION_FIELDS.has(key)) ctx.fail(`set.${key} cannot be changed by update: ${relationHint(key)}`);
    if (MANAGED_FIELDS.has(key)) ctx.fail(`set.${key} is kept by the server (z-order and the version clock)`);
    if (key === 'isDeleted') ctx.fail('set.isDeleted cannot be changed: use a delete op');
    const check = fields[key];
    if (!check) ctx.fail(`set.${key} is not a field of a ${element.type}${labelHint(key, element.type)}`);
    ctx.check(`set.${key}`, value, check);
  }
  ctx.checkFrame(set.frameId, 'set.frameId');
  const id = element.id;
  const { x, y, width, height, points: newPoints, ...rest } = set;
  const moves = x !== undefined || y !== undefined;
  const sizes = width !== undefined || height !== undefined;
  if (hasPoints(element) && sizes) ctx.fail(`set.width/height of a ${element.type} follow its points: set "points" instead`);
  if (isBoundText(element) && (moves || sizes)) ctx.fail(`a label's position and size follow its container ${quote(element.containerId as string)}: move or resize that instead`);
  if (element.type === 'text' && height !== undefined) ctx.fail(`set.height of a text follows its text and font`);
  if (element.type === 'text' && width !== undefined && set.autoResize === true) ctx.fail('set.width with autoResize true: an auto-sized text takes the width of its text');
  if (rest.elbowed === true && ENDS.some((end) => { const b = bindingOf(element, end); return b !== null && b.fixedPoint === undefined; })) {
    ctx.fail('set.elbowed: an elbow arrow binds with a "fixedPoint", which this arrow\'s bindings lack');
  }

  if (Object.keys(rest).length > 0 || (element.type === 'text' && width !== undefined)) {
    const edited = draft.edit(id);
    Object.assign(edited, rest);
    if (rest.frameId !== undefined || rest.groupIds !== undefined) draft.relationsChanged();
    if (element.type === 'text') {
      if (rest.text !== undefined && rest.originalText === undefined) edited.originalText = rest.text;
      if (rest.originalText !== undefined && rest.text === undefined) edited.text = rest.originalText;
      if (rest.fontFamily !== undefined && rest.lineHeight === undefined) edited.lineHeight = getLineHeight(rest.fontFamily as number);
      if (width !== undefined) {
        edited.width = width;
        edited.autoResize = false;
      }
    }
    if (rest.angle !== undefined && !isLinear(element)) {
      const label = labelOf(draft, id);
      if (label) draft.edit(label.id).angle = rest.angle;
    }
  }

  if (element.type === 'text') {
    const font = set.fontSize !== undefined || set.fontFamily !== undefined || set.lineHeight !== undefined;
    const content = set.text !== undefined || set.originalText !== undefined || set.autoResize !== undefined || width !== undefined || set.textAlign !== undefined || set.verticalAlign !== undefined;
    if (font || content) relayoutText(draft, id, font ? 'font' : 'content');
    if (moves) moveTo(draft, id, x, y);
    return;
  }
  if (hasPoints(element) && (moves || newPoints !== undefined)) {
    const edited = draft.edit(id);
    if (x !== undefined) edited.x = x;
    if (y !== undefined) edited.y = y;
    if (newPoints !== undefined) edited.points = newPoints;
    let pts = absolutePoints(edited);
    for (const end of ENDS) if (bindingOf(edited, end) && draft.get(bindingOf(edited, end)!.elementId)) pts = attachEnd(draft, edited, pts, end);
    setAbsolutePoints(edited, pts);
    refitArrowLabel(draft, id);
    return;
  }
  if (sizes) reshape(draft, id, num(width, num(element.width)), num(height, num(element.height)));
  if (moves) moveTo(draft, id, x, y);
}

/** A move with one pair, x and y or dx and dy (opsShapeProblems). */
function move(ctx: OpContext, element: SceneElement, op: OpOf<'move'>): void {
  const absolute = op.x !== undefined;
  if (isBoundText(element)) ctx.fail(`${quote(element.id)} is the label of ${quote(element.containerId as string)}: move the container instead`);
  if (absolute) moveTo(ctx.draft, element.id, op.x, op.y);
  else if (op.dx !== 0 || op.dy !== 0) translate(ctx.draft, element.id, op.dx as number, op.dy as number);
}

function resize(ctx: OpContext, element: SceneElement, op: OpOf<'resize'>): void {
  if (hasPoints(element)) ctx.fail(`${quote(element.id)} is a ${element.type}: its size follows its points (update "points")`);
  if (element.type === 'text') ctx.fail(`${quote(element.id)} is a text: its size follows its text and font (restyle fontSize, or update width for a wrapping text)`);
  reshape(ctx.draft, element.id, op.width as number, op.height as number);
}

/** A restyle with at least one style field, each in its range (opsShapeProblems). */
function restyle(ctx: OpContext, element: SceneElement, op: OpOf<'restyle'>): void {
  const draft = ctx.draft;
  const keys = STYLE_KEYS.filter((key) => op[key] !== undefined);
  const fontKeys = keys.filter((key) => FONT_KEYS.has(key));
  let textId: string | null = null;
  if (fontKeys.length > 0) {
    textId = element.type === 'text' ? element.id : (labelOf(draft, element.id)?.id ?? null);
    if (textId === null) ctx.fail(`${fontKeys.join(' and ')} apply to text, and ${element.type} ${quote(element.id)} has no label`);
  }
  const shapeKeys = keys.filter((key) => !FONT_KEYS.has(key));
  if (shapeKeys.length > 0) {
    const edited = draft.edit(element.id);
    for (const key of shapeKeys) edited[key] = op[key];
    const label = element.type === 'text' ? undefined : labelOf(draft, element.id);
    const follows = LABEL_FOLLOWS.filter((key) => op[key] !== undefined);
    if (label && follows.length > 0) {
      const editedLabel = draft.edit(label.id);
      for (const key of follows) editedLabel[key] = op[key];
    }
  }
  if (textId !== null) {
    const text = draft.edit(textId);
    if (op.fontSize !== undefined) text.fontSize = op.fontSize;
    if (op.fontFamily !== undefined) {
      text.fontFamily = op.fontFamily;
      text.lineHeight = getLineHeight(op.fontFamily as number);
    }
    relayoutText(draft, textId, 'font');
  }
}

/**
 * Removes the element with its labels (an arrow's too), its icons and the
 * lines and dots drawn as part of it (partsOf), and
 * clears every reference to what was removed: arrow bindings become null,
 * boundElements entries go, frame members leave the frame.
 */
function deleteElement(ctx: OpContext, element: SceneElement): void {
  const draft = ctx.draft;
  const doomed = new Set([element.id, ...iconsOf(draft, element), ...partsOf(draft, element)]);
  for (const id of [...doomed]) for (const label of labelsOf(draft, id)) doomed.add(label.id);
  for (const id of doomed) draft.remove(id);
  for (const other of [...draft.live()]) {
    const refs = boundRefs(other);
    const staleRefs = Array.isArray(other.boundElements) && refs.some((r) => doomed.has(r.id));
    const staleEnds = ENDS.filter((end) => doomed.has(bindingOf(other, end)?.elementId as string));
    const staleContainer = typeof other.containerId === 'string' && doomed.has(other.containerId);
    const staleFrame = typeof other.frameId === 'string' && doomed.has(other.frameId);
    if (!staleRefs && staleEnds.length === 0 && !staleContainer && !staleFrame) continue;
    const edited = draft.edit(other.id);
    if (staleRefs) edited.boundElements = (edited.boundElements as unknown[]).filter((r) => !(isPlainObject(r) && doomed.has(r.id as string)));
    for (const end of staleEnds) edited[`${end}Binding`] = null;
    if (staleContainer) edited.containerId = null;
    if (staleFrame) edited.frameId = null;
  }
  draft.relationsChanged();
}
