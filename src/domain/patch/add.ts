/**
 * The add op: checks a new element's fields against the grammar and builds it
 * as the editor would (its defaults, a fresh id, an index after every other),
 * a text measured or laid out in its container, an arrow bound at its ends
 * and attached to its shapes' outlines.
 */
import type { SceneElement } from '../edit/types.ts';
import { FORBIDDEN_KEYS, isPlainObject, quote } from '../payload.ts';
import { baseElement, BINDING_GAP, FONT_FAMILY_EXCALIFONT, FONT_SIZE } from '../scene/elements.ts';
import type { Point } from '../scene/geometry.ts';
import { getLineHeight, wrapText } from '../text/metrics.ts';
import { attachEnd, straighten } from './arrow-routing.ts';
import { relayoutText } from './cascade.ts';
import { absolutePoints, centreOf, type End, ENDS, isBoundText, isFiniteNumber, num, outlineOf, setAbsolutePoints } from './element-geometry.ts';
import {
  between,
  COMMON_FIELDS,
  describe,
  ELEMENT_TYPES,
  isPair,
  labelHint,
  MANAGED_FIELDS,
  nonNegative,
  type OpContext,
  RELATION_FIELDS,
  TEXT_CONTAINERS,
  TYPE_FIELDS,
} from './grammar.ts';
import { measure, textStyleOf } from './label-layout.ts';
import { addBoundRef, labelOf } from './references.ts';

/** What an arrow may bind to (the editor's bindable elements; a label is not one). */
const BINDABLE = new Set(['rectangle', 'ellipse', 'diamond', 'text', 'image', 'frame', 'magicframe', 'embeddable', 'iframe']);
/** Sizes for a new element given none, like the shapes sceneFromSpec draws. */
const DEFAULT_SIZE: Record<string, [number, number]> = {
  rectangle: [160, 70],
  ellipse: [160, 80],
  diamond: [180, 100],
  image: [48, 48],
  frame: [400, 300],
  magicframe: [400, 300],
  embeddable: [400, 300],
  iframe: [400, 300],
};
/** The editor's default ("round" edges) roundness for a new element. */
const DEFAULT_ROUNDNESS: Record<string, { type: number }> = { rectangle: { type: 3 }, diamond: { type: 2 }, ellipse: { type: 2 } };

/** nanoid's alphabet and length, as the editor's ids. */
const ID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const ID_LENGTH = 21;

export function addElement(ctx: OpContext, raw: unknown): void {
  if (!isPlainObject(raw)) ctx.fail('"element" must be an object with at least a "type"');
  const given = raw as Record<string, unknown>;
  const type = given.type;
  if (typeof type !== 'string' || !ELEMENT_TYPES.includes(type)) ctx.fail(`element.type must be one of ${ELEMENT_TYPES.join(', ')}; got ${JSON.stringify(type)}`);
  const fields = { ...COMMON_FIELDS, ...TYPE_FIELDS[type] };
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (FORBIDDEN_KEYS.has(key)) ctx.fail(`element has a forbidden field "${key}"`);
    if (key === 'id' || key === 'type' || MANAGED_FIELDS.has(key) || RELATION_FIELDS.has(key) || key === 'isDeleted') continue;
    const check = fields[key];
    if (!check) ctx.fail(`element.${key} is not a field of a ${type}${labelHint(key, type)}`);
    ctx.check(`element.${key}`, value, check);
    values[key] = value;
  }
  if (given.isDeleted !== undefined && given.isDeleted !== false) ctx.fail('element.isDeleted must be false (or absent): add a live element');
  if (given.boundElements !== undefined && given.boundElements !== null && !(Array.isArray(given.boundElements) && given.boundElements.length === 0)) {
    ctx.fail('element.boundElements follow from the other side: bind an arrow with its startBinding/endBinding, a label with its containerId');
  }
  if (given.containerId !== undefined && given.containerId !== null && type !== 'text') ctx.fail(`element.containerId is not a field of a ${type}`);
  for (const end of ENDS) {
    const binding = given[`${end}Binding`];
    if (binding !== undefined && binding !== null && type !== 'arrow') ctx.fail(`element.${end}Binding: only an arrow binds (a ${type} cannot)`);
  }
  ctx.checkFrame(values.frameId, 'element.frameId');

  const id = given.id === undefined ? newId(ctx) : given.id;
  if (typeof id !== 'string' || id === '') ctx.fail('element.id must be a non-empty string (or absent, for a generated one)');
  if (ctx.draft.has(id)) ctx.fail(`an element with id ${quote(id)} already exists`);

  const [defaultWidth, defaultHeight] = DEFAULT_SIZE[type] ?? [0, 0];
  const box = { x: num(values.x), y: num(values.y), width: num(values.width, defaultWidth), height: num(values.height, defaultHeight) };
  const element: SceneElement = {
    ...baseElement(id, type, box, 0, ctx.stamp.now),
    roundness: DEFAULT_ROUNDNESS[type] ?? null,
    ...typeDefaults(type),
    ...values,
    ...box,
    id,
    type,
    index: ctx.draft.nextIndex(id),
    // touch() at the end makes it 1, the editor's version for a new element.
    version: 0,
  };
  if (type === 'text') return addText(ctx, element, given);
  if (type === 'arrow' || type === 'line') return addLinear(ctx, element, given);
  if (type === 'freedraw') {
    if (!Array.isArray(values.points)) ctx.fail('a freedraw needs "points"');
    setAbsolutePoints(element, absolutePoints(element));
  } else if (box.width === 0 && box.height === 0) {
    ctx.fail('width and height cannot both be 0: the editor drops such an element');
  }
  ctx.draft.insert(element);
}

function newId(ctx: OpContext): string {
  let id = '';
  for (let i = 0; i < ID_LENGTH; i++) id += ID_ALPHABET[ctx.stamp.nonce() & 63];
  // A nonce source that repeats itself still yields a free id.
  for (let n = 2; ctx.draft.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
  return id;
}

function addText(ctx: OpContext, element: SceneElement, given: Record<string, unknown>): void {
  const draft = ctx.draft;
  if (typeof element.text !== 'string') ctx.fail('a text needs "text" (a non-empty string)');
  if (typeof element.originalText !== 'string') element.originalText = element.text;
  if (!isFiniteNumber(element.lineHeight)) element.lineHeight = getLineHeight(num(element.fontFamily));
  const containerId = given.containerId;
  if (containerId === undefined || containerId === null) {
    element.containerId = null;
    const style = textStyleOf(element)!;
    if (element.autoResize === false) {
      if (given.width === undefined) element.width = measure(style.original, style.fontSize, style.fontFamily, style.lineHeight).width;
      element.text = wrapText(style.original, style.fontSize, num(element.width), style.fontFamily);
    }
    const size = measure(element.text as string, style.fontSize, style.fontFamily, style.lineHeight);
    if (given.width === undefined) element.width = size.width;
    if (given.height === undefined) element.height = size.height;
    draft.insert(element);
    return;
  }
  if (typeof containerId !== 'string') ctx.fail('element.containerId must be a string or null');
  const container = draft.get(containerId);
  if (!container) ctx.fail(`element.containerId ${quote(containerId)} names no element`);
  if (!TEXT_CONTAINERS.has(container.type)) ctx.fail(`element.containerId ${quote(containerId)} is ${describe(container)}; a label goes in a rectangle, ellipse, diamond or arrow`);
  if (labelOf(draft, containerId)) ctx.fail(`${quote(containerId)} already has a label: update that text instead`);
  // The editor's labels are centred; its position and size follow from the container.
  element.containerId = containerId;
  if (given.textAlign === undefined) element.textAlign = 'center';
  if (given.verticalAlign === undefined) element.verticalAlign = 'middle';
  draft.insert(element);
  addBoundRef(draft, containerId, { id: element.id, type: 'text' });
  relayoutText(draft, element.id, 'content');
}

function addLinear(ctx: OpContext, element: SceneElement, given: Record<string, unknown>): void {
  const draft = ctx.draft;
  const type = element.type;
  const targets: Partial<Record<End, SceneElement>> = {};
  for (const end of ENDS) {
    element[`${end}Binding`] = null;
    const raw = given[`${end}Binding`];
    if (raw === undefined || raw === null) continue;
    const where = `element.${end}Binding`;
    if (!isPlainObject(raw) || typeof raw.elementId !== 'string') ctx.fail(`${where} must be null or { "elementId": "…", "focus"?, "gap"? }`);
    for (const key of Object.keys(raw)) if (!['elementId', 'focus', 'gap', 'fixedPoint'].includes(key)) ctx.fail(`${where} has no field "${key}"`);
    if (raw.focus !== undefined) ctx.check(`${where}.focus`, raw.focus, between(-1, 1));
    if (raw.gap !== undefined) ctx.check(`${where}.gap`, raw.gap, nonNegative);
    if (raw.fixedPoint !== undefined) ctx.check(`${where}.fixedPoint`, raw.fixedPoint, (v) => (isPair(v) ? null : 'must be an [x, y] pair of numbers'));
    const target = draft.get(raw.elementId);
    if (!target) ctx.fail(`${where}.elementId ${quote(raw.elementId)} names no element`);
    if (!BINDABLE.has(target.type) || isBoundText(target)) ctx.fail(`${where}.elementId ${quote(raw.elementId)} is ${describe(target)}, which an arrow cannot bind to`);
    if (element.elbowed === true && raw.fixedPoint === undefined) ctx.fail(`${where}: an elbow arrow binds with a "fixedPoint"`);
    targets[end] = target;
    element[`${end}Binding`] = { elementId: raw.elementId, focus: num(raw.focus), gap: isFiniteNumber(raw.gap) && raw.gap >= 1 && raw.gap <= 32 ? raw.gap : BINDING_GAP, ...(raw.fixedPoint ? { fixedPoint: raw.fixedPoint } : {}) };
  }
  const hasGeometry = given.points !== undefined || given.width !== undefined || given.height !== undefined;
  let pts: Point[];
  if (Array.isArray(given.points)) pts = absolutePoints(element);
  else if (hasGeometry) pts = [[num(element.x), num(element.y)], [num(element.x) + num(element.width), num(element.y) + num(element.height)]];
  else if (targets.start && targets.end && targets.start !== targets.end) pts = [centreOf(outlineOf(targets.start)), centreOf(outlineOf(targets.end))];
  else ctx.fail(`a ${type} needs "points", or "width" and "height", or both ends bound to two different elements`);
  if (!hasGeometry) pts = straighten(draft, element, pts);
  else for (const end of ENDS) if (targets[end]) pts = attachEnd(draft, element, pts, end);
  setAbsolutePoints(element, pts);
  draft.insert(element);
  for (const end of ENDS) if (targets[end]) addBoundRef(draft, targets[end].id, { id: element.id, type: 'arrow' });
}

function typeDefaults(type: string): Record<string, unknown> {
  switch (type) {
    case 'text':
      return { fontSize: FONT_SIZE, fontFamily: FONT_FAMILY_EXCALIFONT, textAlign: 'left', verticalAlign: 'top', containerId: null, autoResize: true };
    case 'arrow':
      return { points: [], lastCommittedPoint: null, startBinding: null, endBinding: null, startArrowhead: null, endArrowhead: 'arrow', elbowed: false };
    case 'line':
      return { points: [], lastCommittedPoint: null, startBinding: null, endBinding: null, startArrowhead: null, endArrowhead: null };
    case 'freedraw':
      return { points: [], pressures: [], simulatePressure: true, lastCommittedPoint: null };
    case 'image':
      return { fileId: null, status: 'saved', scale: [1, 1], crop: null };
    case 'frame':
    case 'magicframe':
      return { name: null };
    default:
      return {};
  }
}
