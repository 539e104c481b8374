/**
 * The patch engine behind POST /diagrams/:id/patch (CONTRACT.md §6): ordered,
 * element-addressed ops applied to a scene all or nothing.
 *
 * After every op the scene holds what the editor relies on: both sides of
 * every binding written, labels inside their containers (re-wrapped as the
 * editor re-wraps them), bound arrow ends on their shapes' outlines with the
 * binding gap and a `focus` that matches them. Pure: time and nonces come in
 * the WriteStamp, and the input array and its elements are never mutated (an
 * element is copied the first time an op changes it).
 */
import { ApiError } from '../../errors.ts';
import { type SceneElement, touch, type WriteStamp } from '../edit/types.ts';
import { FORBIDDEN_KEYS, isPlainObject } from '../payload.ts';
import { baseElement, BINDING_GAP, type BoundRef, CSS_COLOR, FONT_FAMILY_EXCALIFONT, FONT_SIZE, indexKeyAfter, isIndexKey } from '../scene/elements.ts';
import { boundTextArea, focusOf } from '../scene/from-spec.ts';
import { type Outline, type Point, rayHitsOutline, stepBack } from '../scene/geometry.ts';
import { validateScene } from '../scene/validate.ts';
import { FILL_STYLES } from '../spec/types.ts';
import {
  BOUND_TEXT_PADDING,
  getBoundTextMaxHeight,
  getBoundTextMaxWidth,
  getLineHeight,
  getLineWidth,
  isKnownFontFamily,
  type ShapeContainerType,
  wrapText,
} from '../text/metrics.ts';

export const MAX_PATCH_OPS = 500;

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
 * Applies `ops` in order to a copy of `elements`. Throws an ApiError on the
 * first bad op (INVALID_SPEC, message `ops[i]: …`), or when the result is not
 * a valid scene (validateScene's own codes); the input is left as it was.
 */
export function applyPatch(elements: SceneElement[], ops: unknown, stamp: WriteStamp, options: PatchOptions): PatchResult {
  if (!Array.isArray(ops)) throw new ApiError('INVALID_SPEC', 'ops must be an array of patch ops');
  if (ops.length === 0) throw new ApiError('INVALID_SPEC', 'ops must hold at least one op');
  if (ops.length > MAX_PATCH_OPS) throw new ApiError('INVALID_SPEC', `ops holds ${ops.length} ops; the limit is ${MAX_PATCH_OPS}`);
  const draft = new Draft(elements);
  const patcher = new Patcher(draft, stamp);
  ops.forEach((op, index) => patcher.apply(op, index));
  const result = draft.result(stamp);
  validateScene({ elements: result }, options);
  return { elements: result, applied: ops.length, deleted: draft.removedCount };
}

// ---------------------------------------------------------------------------
// The op grammar

type OpKind = 'add' | 'update' | 'move' | 'resize' | 'restyle' | 'delete';
type End = 'start' | 'end';
const ENDS: readonly End[] = ['start', 'end'];

const STYLE_KEYS = ['strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'opacity', 'fontSize', 'fontFamily'] as const;
const FONT_KEYS = new Set(['fontSize', 'fontFamily']);
/** Style the editor applies to a selected container's label as well. */
const LABEL_FOLLOWS = ['strokeColor', 'opacity'] as const;

const OP_KEYS: Record<OpKind, ReadonlySet<string>> = {
  add: new Set(['op', 'element']),
  update: new Set(['op', 'id', 'set']),
  move: new Set(['op', 'id', 'x', 'y', 'dx', 'dy']),
  resize: new Set(['op', 'id', 'width', 'height']),
  restyle: new Set(['op', 'id', ...STYLE_KEYS]),
  delete: new Set(['op', 'id']),
};
const OP_KINDS = Object.keys(OP_KEYS) as OpKind[];

type Check = (value: unknown) => string | null;

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPair = (value: unknown): boolean => Array.isArray(value) && value.length === 2 && value.every(isFiniteNumber);

const finite: Check = (v) => (isFiniteNumber(v) ? null : 'must be a finite number');
const nonNegative: Check = (v) => (isFiniteNumber(v) && v >= 0 ? null : 'must be a number ≥ 0');
const positive: Check = (v) => (isFiniteNumber(v) && v > 0 ? null : 'must be a number above 0');
const between =
  (min: number, max: number, { aboveMin = false, integer = false } = {}): Check =>
  (v) =>
    isFiniteNumber(v) && (aboveMin ? v > min : v >= min) && v <= max && (!integer || Number.isInteger(v))
      ? null
      : `must be ${integer ? 'an integer' : 'a number'} ${aboveMin ? 'above' : 'from'} ${min} ${aboveMin ? 'and at most' : 'to'} ${max}`;
const integer: Check = (v) => (Number.isSafeInteger(v) ? null : 'must be an integer');
const oneOf =
  (allowed: readonly (string | null)[]): Check =>
  (v) =>
    allowed.includes(v as string | null) ? null : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
const booleanOrNull: Check = (v) => (v === null || typeof v === 'boolean' ? null : 'must be true, false or null');
const nonEmptyString: Check = (v) => (typeof v === 'string' && v !== '' ? null : 'must be a non-empty string (the editor deletes empty text)');
const stringOrNull: Check = (v) => (v === null || typeof v === 'string' ? null : 'must be a string or null');
const plainObject: Check = (v) => (isPlainObject(v) ? null : 'must be an object');
const arrayOrNull: Check = (v) => (v === null || Array.isArray(v) ? null : 'must be an array or null');
const onlyNull: Check = (v) => (v === null ? null : 'must be null (the editor resets it on load)');
const stringList: Check = (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '') ? null : 'must be an array of non-empty strings');
const numberList: Check = (v) => (Array.isArray(v) && v.every(isFiniteNumber) ? null : 'must be an array of numbers');
const colour: Check = (v) => (typeof v === 'string' && CSS_COLOR.test(v) ? null : 'must be a CSS colour such as "#1e1e1e" or "transparent"');
const fontFamily: Check = (v) => (isFiniteNumber(v) && isKnownFontFamily(v) ? null : 'must be a known font family: 1 Virgil, 2 Helvetica, 3 Cascadia, 5 Excalifont, 6 Nunito, 7 Lilita One, 8 Comic Shanns, 9 Liberation Sans');
const points: Check = (v) => (Array.isArray(v) && v.length >= 2 && v.every(isPair) ? null : 'must be an array of at least two [x, y] pairs of numbers');
const roundness: Check = (v) =>
  v === null || (isPlainObject(v) && [1, 2, 3].includes(v.type as number) && Object.keys(v).every((k) => k === 'type' || (k === 'value' && isFiniteNumber(v.value))))
    ? null
    : 'must be null or { "type": 1, 2 or 3, "value"?: number }';
const scale: Check = (v) => (Array.isArray(v) && v.length === 2 && v.every((s) => s === 1 || s === -1) ? null : 'must be [sx, sy], each 1 or -1');
const crop: Check = (v) =>
  v === null || (isPlainObject(v) && ['x', 'y', 'width', 'height', 'naturalWidth', 'naturalHeight'].every((k) => isFiniteNumber(v[k]))) ? null : 'must be null or { x, y, width, height, naturalWidth, naturalHeight }';

const ARROWHEADS = [null, 'arrow', 'bar', 'dot', 'circle', 'circle_outline', 'triangle', 'triangle_outline', 'diamond', 'diamond_outline', 'crowfoot_one', 'crowfoot_many', 'crowfoot_one_or_many'];
const STROKE_STYLES = ['solid', 'dashed', 'dotted'];

/** Sane ranges for the style numbers (the editor's own choices lie well inside them). */
const STYLE_CHECKS: Record<(typeof STYLE_KEYS)[number], Check> = {
  strokeColor: colour,
  backgroundColor: colour,
  fillStyle: oneOf(FILL_STYLES),
  strokeWidth: between(0, 50, { aboveMin: true }),
  strokeStyle: oneOf(STROKE_STYLES),
  roughness: between(0, 5),
  opacity: between(0, 100),
  fontSize: between(1, 500),
  fontFamily,
};

/** Fields every element has, with what a value must be. */
const COMMON_FIELDS: Record<string, Check> = {
  x: finite,
  y: finite,
  width: nonNegative,
  height: nonNegative,
  angle: finite,
  strokeColor: colour,
  backgroundColor: colour,
  fillStyle: STYLE_CHECKS.fillStyle,
  strokeWidth: STYLE_CHECKS.strokeWidth,
  strokeStyle: STYLE_CHECKS.strokeStyle,
  roughness: STYLE_CHECKS.roughness,
  opacity: STYLE_CHECKS.opacity,
  roundness,
  seed: integer,
  groupIds: stringList,
  frameId: stringOrNull,
  link: stringOrNull,
  locked: boolean,
  customData: plainObject,
};

/** The element types the editor (0.18) keeps, with the fields each adds to the common ones. */
const TYPE_FIELDS: Record<string, Record<string, Check>> = {
  rectangle: {},
  ellipse: {},
  diamond: {},
  embeddable: {},
  iframe: {},
  text: {
    text: nonEmptyString,
    originalText: nonEmptyString,
    fontSize: STYLE_CHECKS.fontSize,
    fontFamily,
    textAlign: oneOf(['left', 'center', 'right']),
    verticalAlign: oneOf(['top', 'middle', 'bottom']),
    autoResize: boolean,
    lineHeight: between(0, 10, { aboveMin: true }),
  },
  arrow: {
    points,
    lastCommittedPoint: onlyNull,
    startArrowhead: oneOf(ARROWHEADS),
    endArrowhead: oneOf(ARROWHEADS),
    elbowed: boolean,
    fixedSegments: arrayOrNull,
    startIsSpecial: booleanOrNull,
    endIsSpecial: booleanOrNull,
  },
  line: { points, lastCommittedPoint: onlyNull, startArrowhead: oneOf(ARROWHEADS), endArrowhead: oneOf(ARROWHEADS) },
  freedraw: { points, pressures: numberList, simulatePressure: boolean, lastCommittedPoint: onlyNull },
  image: { fileId: stringOrNull, status: oneOf(['pending', 'saved', 'error']), scale, crop },
  frame: { name: stringOrNull },
  magicframe: { name: stringOrNull },
};
const ELEMENT_TYPES = Object.keys(TYPE_FIELDS);

/** Fields that state a relation between elements: derived on add, refused by update. */
const RELATION_FIELDS = new Set(['containerId', 'startBinding', 'endBinding', 'boundElements']);
/** Fields the server keeps (z-order and the version clock): assigned on add, refused by update. */
const MANAGED_FIELDS = new Set(['index', 'version', 'versionNonce', 'updated']);

const LINEAR = new Set(['arrow', 'line']);
const FRAMES = new Set(['frame', 'magicframe']);
/** What an arrow may bind to (the editor's bindable elements; a label is not one). */
const BINDABLE = new Set(['rectangle', 'ellipse', 'diamond', 'text', 'image', 'frame', 'magicframe', 'embeddable', 'iframe']);
/** What a text may be bound to. */
const TEXT_CONTAINERS = new Set(['rectangle', 'ellipse', 'diamond', 'arrow']);
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

/** Below this, points count as on the same line. */
const EPSILON = 1e-6;
/** The shortest end segment a re-route keeps; shorter, it straightens the arrow instead. */
const MIN_END_SEGMENT = 1;
/** nanoid's alphabet and length, as the editor's ids. */
const ID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const ID_LENGTH = 21;

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

// ---------------------------------------------------------------------------
// Geometry of elements

interface Binding {
  elementId: string;
  focus?: number;
  gap?: number;
  fixedPoint?: unknown;
}

const num = (value: unknown, fallback = 0): number => (isFiniteNumber(value) ? value : fallback);
const round2 = (value: number): number => Math.round(value * 100) / 100 || 0;
const outlineOf = (e: SceneElement): Outline => ({ type: e.type, x: num(e.x), y: num(e.y), width: num(e.width), height: num(e.height) });
const centreOf = (box: Outline): Point => [box.x + box.width / 2, box.y + box.height / 2];
const sameBox = (a: Outline, b: Outline) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
/** Whether a point lies strictly inside a shape's outline (a box, an ellipse or a diamond). */
function isInside(p: Point, shape: Outline): boolean {
  const a = shape.width / 2;
  const b = shape.height / 2;
  if (a <= 0 || b <= 0) return false;
  const dx = Math.abs(p[0] - (shape.x + a)) / a;
  const dy = Math.abs(p[1] - (shape.y + b)) / b;
  if (shape.type === 'ellipse') return dx * dx + dy * dy < 1;
  if (shape.type === 'diamond') return dx + dy < 1;
  return dx < 1 && dy < 1;
}
const isLinear = (e: SceneElement) => LINEAR.has(e.type);
const hasPoints = (e: SceneElement) => isLinear(e) || e.type === 'freedraw';
const isBoundText = (e: SceneElement) => e.type === 'text' && typeof e.containerId === 'string';

function bindingOf(e: SceneElement, end: End): Binding | null {
  const binding = e[`${end}Binding`];
  return isPlainObject(binding) && typeof binding.elementId === 'string' ? (binding as unknown as Binding) : null;
}

function boundRefs(e: SceneElement): BoundRef[] {
  return Array.isArray(e.boundElements) ? (e.boundElements as unknown[]).filter((r): r is BoundRef => isPlainObject(r) && typeof r.id === 'string') : [];
}

/** The gap a re-attached end keeps: the binding's own when it is a sensible one. */
function gapOf(binding: Binding): number {
  return isFiniteNumber(binding.gap) && binding.gap >= 1 && binding.gap <= 32 ? binding.gap : BINDING_GAP;
}

/** A linear element's points in scene coordinates. */
function absolutePoints(e: SceneElement): Point[] {
  if (!Array.isArray(e.points)) return [];
  const x = num(e.x);
  const y = num(e.y);
  return (e.points as unknown[]).filter((p): p is number[] => Array.isArray(p)).map((p) => [x + num(p[0]), y + num(p[1])]);
}

/**
 * Stores scene points on a linear element as the editor keeps them: rounded
 * to hundredths, relative to the first (which is [0, 0]), and width/height
 * the points' extent computed exactly as the editor recomputes it.
 */
function setAbsolutePoints(e: SceneElement, absolute: Point[]): void {
  const rounded = absolute.map(([x, y]) => [round2(x), round2(y)] as Point);
  const [x0, y0] = rounded[0]!;
  const relative = rounded.map(([x, y]) => [round2(x - x0), round2(y - y0)] as Point);
  const xs = relative.map((p) => p[0]);
  const ys = relative.map((p) => p[1]);
  e.x = x0;
  e.y = y0;
  e.points = relative;
  e.width = Math.max(...xs) - Math.min(...xs);
  e.height = Math.max(...ys) - Math.min(...ys);
}

function axisOf(from: Point, to: Point): 'horizontal' | 'vertical' | null {
  const flatY = Math.abs(to[1] - from[1]) < EPSILON;
  const flatX = Math.abs(to[0] - from[0]) < EPSILON;
  if (flatY && !flatX) return 'horizontal';
  if (flatX && !flatY) return 'vertical';
  return null;
}

/** Whether every point lies on the line through the first and the last. */
function isStraight(pts: Point[]): boolean {
  const a = pts[0]!;
  const b = pts[pts.length - 1]!;
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (length < EPSILON) return pts.every((p) => Math.hypot(p[0] - a[0], p[1] - a[1]) < EPSILON);
  return pts.every((p) => Math.abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length < 0.01);
}

/**
 * Where an arrow end heading from `from` through `through` lands on a shape:
 * the gap short of its outline, or, leaving the shape from inside, the gap past it.
 */
function land(from: Point, through: Point, outline: Outline, gap: number): Point | null {
  const hit = rayHitsOutline(from, through, outline);
  if (!hit) return null;
  if (!isInside(from, outline)) return stepBack(from, hit, gap);
  const length = Math.hypot(through[0] - from[0], through[1] - from[1]);
  return [hit[0] + ((through[0] - from[0]) / length) * gap, hit[1] + ((through[1] - from[1]) / length) * gap];
}

/** The polyline laid straight from `start` to `end`, each point kept at its fraction of the length. */
function spread(pts: Point[], start: Point, end: Point): Point[] {
  const lengths = pts.slice(1).map((p, i) => Math.hypot(p[0] - pts[i]![0], p[1] - pts[i]![1]));
  const total = lengths.reduce((a, b) => a + b, 0);
  let walked = 0;
  return pts.map((_, i) => {
    if (i > 0) walked += lengths[i - 1]!;
    const t = total > 0 ? walked / total : i / (pts.length - 1);
    return [start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t];
  });
}

/**
 * The map from one box to another: a point inside keeps its place relative to
 * the box; a point outside keeps its distance from the nearest side (so an
 * arrow end keeps its gap and a self-loop its reach).
 */
function boxMap(from: Outline, to: Outline): (p: Point) => Point {
  const coordinate = (v: number, start: number, size: number, newStart: number, newSize: number) => {
    if (v < start) return newStart + (v - start);
    if (v > start + size) return newStart + newSize + (v - start - size);
    return newStart + (size > 0 ? ((v - start) * newSize) / size : 0);
  };
  return ([x, y]) => [coordinate(x, from.x, from.width, to.x, to.width), coordinate(y, from.y, from.height, to.y, to.height)];
}

/** Where the editor centres an arrow's label: its middle point, or the middle of its middle segment. */
function middleOf(pts: Point[]): Point | null {
  if (pts.length < 2) return null;
  if (pts.length % 2 === 1) return pts[(pts.length - 1) / 2]!;
  const a = pts[pts.length / 2 - 1]!;
  const b = pts[pts.length / 2]!;
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

function textContainerType(type: string): ShapeContainerType {
  return type === 'ellipse' || type === 'diamond' ? type : 'rectangle';
}

/** The editor's computeContainerDimensionForBoundText: the container size a text size needs. */
function containerDimensionFor(textSize: number, type: ShapeContainerType): number {
  const size = Math.ceil(textSize);
  const padding = BOUND_TEXT_PADDING * 2;
  if (type === 'ellipse') return Math.round(((size + padding) / Math.sqrt(2)) * 2);
  if (type === 'diamond') return 2 * (size + padding);
  return size + padding;
}

/** A text's size as the editor measures it, with the element's own line height. */
function measure(text: string, fontSize: number, family: number, lineHeight: number): { width: number; height: number } {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  const width = Math.max(0, ...lines.map((line) => getLineWidth(line || ' ', fontSize, family)));
  return { width, height: fontSize * lineHeight * lines.length };
}

interface TextStyle {
  fontSize: number;
  fontFamily: number;
  lineHeight: number;
  original: string;
}

/** A text element's font and original text, or null when the editor's metrics cannot measure it. */
function textStyleOf(e: SceneElement): TextStyle | null {
  const family = num(e.fontFamily, FONT_FAMILY_EXCALIFONT);
  if (!isKnownFontFamily(family)) return null;
  const original = typeof e.originalText === 'string' && e.originalText !== '' ? e.originalText : typeof e.text === 'string' ? e.text : '';
  if (original === '') return null;
  const lineHeight = isFiniteNumber(e.lineHeight) && e.lineHeight > 0 ? e.lineHeight : getLineHeight(family);
  return { fontSize: num(e.fontSize, FONT_SIZE) || FONT_SIZE, fontFamily: family, lineHeight, original };
}

// ---------------------------------------------------------------------------
// The working copy

/** References between elements, by id, each list possibly stale: callers check the element still refers. */
interface Relations {
  /** Container id → the texts whose containerId names it. */
  labels: Map<string, string[]>;
  /** Element id → the linear elements bound to it at an end. */
  arrows: Map<string, string[]>;
  /** Frame id → the elements whose frameId names it. */
  members: Map<string, string[]>;
  /** Group id → the images in it. */
  images: Map<string, string[]>;
}

function indexRelations(elements: Iterable<SceneElement>): Relations {
  const relations: Relations = { labels: new Map(), arrows: new Map(), members: new Map(), images: new Map() };
  const note = (map: Map<string, string[]>, key: string, id: string) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const e of elements) {
    if (e.type === 'text' && typeof e.containerId === 'string') note(relations.labels, e.containerId, e.id);
    if (typeof e.frameId === 'string') note(relations.members, e.frameId, e.id);
    if (e.type === 'image' && Array.isArray(e.groupIds)) for (const group of e.groupIds) if (typeof group === 'string') note(relations.images, group, e.id);
    if (isLinear(e)) {
      const targets = new Set(ENDS.map((end) => bindingOf(e, end)?.elementId).filter((id) => id !== undefined));
      for (const target of targets) note(relations.arrows, target, e.id);
    }
  }
  return relations;
}

/**
 * The scene being patched: a copy of the input array whose elements are
 * copied on first change, with removals and changes tracked by slot so that
 * each changed element is stamped once at the end.
 */
class Draft {
  private readonly slots: SceneElement[];
  private readonly slotOf = new Map<string, number>();
  private readonly owned = new Set<number>();
  private readonly removed = new Set<number>();
  private readonly changed = new Set<number>();
  private lastIndex: string | null = null;
  private relationIndex: Relations | null = null;

  constructor(input: readonly SceneElement[]) {
    this.slots = [...input];
    this.slots.forEach((e, slot) => {
      this.slotOf.set(e.id, slot);
      if (isIndexKey(e.index) && (this.lastIndex === null || e.index > this.lastIndex)) this.lastIndex = e.index;
    });
  }

  /** Whether an element (deleted-flagged ones included) holds this id. */
  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** A live element: present and not flagged isDeleted. */
  get(id: string): SceneElement | undefined {
    const slot = this.slotOf.get(id);
    const element = slot === undefined ? undefined : this.slots[slot];
    return element && element.isDeleted !== true ? element : undefined;
  }

  /** The element, copied if this patch has not changed it yet, and marked changed. */
  edit(id: string): SceneElement {
    const slot = this.slotOf.get(id);
    if (slot === undefined) throw new Error(`patch draft: no element ${id}`);
    if (!this.owned.has(slot)) {
      this.slots[slot] = { ...this.slots[slot]! };
      this.owned.add(slot);
    }
    this.changed.add(slot);
    return this.slots[slot]!;
  }

  insert(element: SceneElement): void {
    const slot = this.slots.push(element) - 1;
    this.slotOf.set(element.id, slot);
    this.owned.add(slot);
    this.changed.add(slot);
    this.relationsChanged();
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.removed.add(slot);
    this.slotOf.delete(id);
    this.relationsChanged();
  }

  /** Who refers to whom; built on first use after a change, so that lookups need no scan of the scene. */
  relations(): Relations {
    this.relationIndex ??= indexRelations(this.live());
    return this.relationIndex;
  }

  /** To be called when a containerId, binding, frameId or groupIds changes. */
  relationsChanged(): void {
    this.relationIndex = null;
  }

  /** Live elements, in scene order. */
  *live(): Generator<SceneElement> {
    for (let slot = 0; slot < this.slots.length; slot++) {
      const element = this.slots[slot]!;
      if (!this.removed.has(slot) && element.isDeleted !== true) yield element;
    }
  }

  /** The next fractional index: after every index in the scene, so an appended element sorts last. */
  nextIndex(): string {
    this.lastIndex = indexKeyAfter(this.lastIndex);
    return this.lastIndex;
  }

  get removedCount(): number {
    return this.removed.size;
  }

  result(stamp: WriteStamp): SceneElement[] {
    const out: SceneElement[] = [];
    this.slots.forEach((element, slot) => {
      if (this.removed.has(slot)) return;
      out.push(this.changed.has(slot) ? touch(element, stamp) : element);
    });
    return out;
  }
}

// ---------------------------------------------------------------------------
// Applying ops

class Patcher {
  private at = 0;

  constructor(
    private readonly draft: Draft,
    private readonly stamp: WriteStamp,
  ) {}

  apply(raw: unknown, index: number): void {
    this.at = index;
    if (!isPlainObject(raw)) this.fail('each op must be an object with an "op"');
    const op = raw as Record<string, unknown>;
    const kind = op.op as OpKind;
    if (typeof op.op !== 'string' || !OP_KINDS.includes(kind)) this.fail(`"op" must be one of ${OP_KINDS.join(', ')}; got ${JSON.stringify(op.op)}`);
    for (const key of Object.keys(op)) if (!OP_KEYS[kind].has(key)) this.fail(`a ${kind} op has no field "${key}"`);
    switch (kind) {
      case 'add':
        return this.add(op.element);
      case 'update':
        return this.update(this.target(op.id), op.set);
      case 'move':
        return this.move(this.target(op.id), op);
      case 'resize':
        return this.resize(this.target(op.id), op);
      case 'restyle':
        return this.restyle(this.target(op.id), op);
      case 'delete':
        return this.delete(this.target(op.id));
    }
  }

  private fail(message: string): never {
    throw new ApiError('INVALID_SPEC', `ops[${this.at}]: ${message}`);
  }

  private target(id: unknown): SceneElement {
    if (typeof id !== 'string' || id === '') this.fail('"id" must be a non-empty string');
    const element = this.draft.get(id);
    if (!element) this.fail(`no element has id ${quote(id)}`);
    return element;
  }

  private check(where: string, value: unknown, check: Check): void {
    const problem = check(value);
    if (problem !== null) this.fail(`${where} ${problem}`);
  }

  // -------------------------------------------------------------------------
  // add

  private add(raw: unknown): void {
    if (!isPlainObject(raw)) this.fail('"element" must be an object with at least a "type"');
    const given = raw as Record<string, unknown>;
    const type = given.type;
    if (typeof type !== 'string' || !ELEMENT_TYPES.includes(type)) this.fail(`element.type must be one of ${ELEMENT_TYPES.join(', ')}; got ${JSON.stringify(type)}`);
    const fields = { ...COMMON_FIELDS, ...TYPE_FIELDS[type] };
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(given)) {
      if (FORBIDDEN_KEYS.has(key)) this.fail(`element has a forbidden field "${key}"`);
      if (key === 'id' || key === 'type' || MANAGED_FIELDS.has(key) || RELATION_FIELDS.has(key) || key === 'isDeleted') continue;
      const check = fields[key];
      if (!check) this.fail(`element.${key} is not a field of a ${type}${labelHint(key, type)}`);
      this.check(`element.${key}`, value, check);
      values[key] = value;
    }
    if (given.isDeleted !== undefined && given.isDeleted !== false) this.fail('element.isDeleted must be false (or absent): add a live element');
    if (given.boundElements !== undefined && given.boundElements !== null && !(Array.isArray(given.boundElements) && given.boundElements.length === 0)) {
      this.fail('element.boundElements follow from the other side: bind an arrow with its startBinding/endBinding, a label with its containerId');
    }
    if (given.containerId !== undefined && given.containerId !== null && type !== 'text') this.fail(`element.containerId is not a field of a ${type}`);
    for (const end of ENDS) {
      const binding = given[`${end}Binding`];
      if (binding !== undefined && binding !== null && type !== 'arrow') this.fail(`element.${end}Binding: only an arrow binds (a ${type} cannot)`);
    }
    this.checkFrame(values.frameId, 'element.frameId');

    const id = given.id === undefined ? this.newId() : given.id;
    if (typeof id !== 'string' || id === '') this.fail('element.id must be a non-empty string (or absent, for a generated one)');
    if (this.draft.has(id)) this.fail(`an element with id ${quote(id)} already exists`);

    const [defaultWidth, defaultHeight] = DEFAULT_SIZE[type] ?? [0, 0];
    const box = { x: num(values.x), y: num(values.y), width: num(values.width, defaultWidth), height: num(values.height, defaultHeight) };
    const element: SceneElement = {
      ...baseElement(id, type, box, 0, this.stamp.now),
      roundness: DEFAULT_ROUNDNESS[type] ?? null,
      ...typeDefaults(type),
      ...values,
      ...box,
      id,
      type,
      index: this.draft.nextIndex(),
      // touch() at the end makes it 1, the editor's version for a new element.
      version: 0,
    };
    if (type === 'text') return this.addText(element, given);
    if (type === 'arrow' || type === 'line') return this.addLinear(element, given);
    if (type === 'freedraw') {
      if (!Array.isArray(values.points)) this.fail('a freedraw needs "points"');
      setAbsolutePoints(element, absolutePoints(element));
    } else if (box.width === 0 && box.height === 0) {
      this.fail('width and height cannot both be 0: the editor drops such an element');
    }
    this.draft.insert(element);
  }

  private newId(): string {
    let id = '';
    for (let i = 0; i < ID_LENGTH; i++) id += ID_ALPHABET[this.stamp.nonce() & 63];
    // A nonce source that repeats itself still yields a free id.
    for (let n = 2; this.draft.has(id); n++) id = `${id.replace(/-\d+$/, '')}-${n}`;
    return id;
  }

  private checkFrame(frameId: unknown, where: string): void {
    if (typeof frameId !== 'string') return;
    const frame = this.draft.get(frameId);
    if (!frame || !FRAMES.has(frame.type)) this.fail(`${where} ${quote(frameId)} names no frame`);
  }

  private addText(element: SceneElement, given: Record<string, unknown>): void {
    if (typeof element.text !== 'string') this.fail('a text needs "text" (a non-empty string)');
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
      this.draft.insert(element);
      return;
    }
    if (typeof containerId !== 'string') this.fail('element.containerId must be a string or null');
    const container = this.draft.get(containerId);
    if (!container) this.fail(`element.containerId ${quote(containerId)} names no element`);
    if (!TEXT_CONTAINERS.has(container.type)) this.fail(`element.containerId ${quote(containerId)} is ${describe(container)}; a label goes in a rectangle, ellipse, diamond or arrow`);
    if (this.labelOf(containerId)) this.fail(`${quote(containerId)} already has a label: update that text instead`);
    // The editor's labels are centred; its position and size follow from the container.
    element.containerId = containerId;
    if (given.textAlign === undefined) element.textAlign = 'center';
    if (given.verticalAlign === undefined) element.verticalAlign = 'middle';
    this.draft.insert(element);
    this.addBoundRef(containerId, { id: element.id, type: 'text' });
    this.relayoutText(element.id, 'content');
  }

  private addLinear(element: SceneElement, given: Record<string, unknown>): void {
    const type = element.type;
    const targets: Partial<Record<End, SceneElement>> = {};
    for (const end of ENDS) {
      element[`${end}Binding`] = null;
      const raw = given[`${end}Binding`];
      if (raw === undefined || raw === null) continue;
      const where = `element.${end}Binding`;
      if (!isPlainObject(raw) || typeof raw.elementId !== 'string') this.fail(`${where} must be null or { "elementId": "…", "focus"?, "gap"? }`);
      for (const key of Object.keys(raw)) if (!['elementId', 'focus', 'gap', 'fixedPoint'].includes(key)) this.fail(`${where} has no field "${key}"`);
      if (raw.focus !== undefined) this.check(`${where}.focus`, raw.focus, between(-1, 1));
      if (raw.gap !== undefined) this.check(`${where}.gap`, raw.gap, nonNegative);
      if (raw.fixedPoint !== undefined) this.check(`${where}.fixedPoint`, raw.fixedPoint, (v) => (isPair(v) ? null : 'must be an [x, y] pair of numbers'));
      const target = this.draft.get(raw.elementId);
      if (!target) this.fail(`${where}.elementId ${quote(raw.elementId)} names no element`);
      if (!BINDABLE.has(target.type) || isBoundText(target)) this.fail(`${where}.elementId ${quote(raw.elementId)} is ${describe(target)}, which an arrow cannot bind to`);
      if (element.elbowed === true && raw.fixedPoint === undefined) this.fail(`${where}: an elbow arrow binds with a "fixedPoint"`);
      targets[end] = target;
      element[`${end}Binding`] = { elementId: raw.elementId, focus: num(raw.focus), gap: isFiniteNumber(raw.gap) && raw.gap >= 1 && raw.gap <= 32 ? raw.gap : BINDING_GAP, ...(raw.fixedPoint ? { fixedPoint: raw.fixedPoint } : {}) };
    }
    const hasGeometry = given.points !== undefined || given.width !== undefined || given.height !== undefined;
    let pts: Point[];
    if (Array.isArray(given.points)) pts = absolutePoints(element);
    else if (hasGeometry) pts = [[num(element.x), num(element.y)], [num(element.x) + num(element.width), num(element.y) + num(element.height)]];
    else if (targets.start && targets.end && targets.start !== targets.end) pts = [centreOf(outlineOf(targets.start)), centreOf(outlineOf(targets.end))];
    else this.fail(`a ${type} needs "points", or "width" and "height", or both ends bound to two different elements`);
    if (!hasGeometry) pts = this.straighten(element, pts);
    else for (const end of ENDS) if (targets[end]) pts = this.attachEnd(element, pts, end);
    setAbsolutePoints(element, pts);
    this.draft.insert(element);
    for (const end of ENDS) if (targets[end]) this.addBoundRef(targets[end].id, { id: element.id, type: 'arrow' });
  }

  // -------------------------------------------------------------------------
  // update

  private update(element: SceneElement, raw: unknown): void {
    if (!isPlainObject(raw) || Object.keys(raw).length === 0) this.fail('"set" must be an object with at least one field');
    const set = raw as Record<string, unknown>;
    const fields: Record<string, Check> = { ...COMMON_FIELDS, ...(TYPE_FIELDS[element.type] ?? {}) };
    for (const [key, value] of Object.entries(set)) {
      if (FORBIDDEN_KEYS.has(key)) this.fail(`set has a forbidden field "${key}"`);
      if (key === 'id' || key === 'type') this.fail(`set.${key} cannot be changed: delete the element and add a new one`);
      if (RELATION_FIELDS.has(key)) this.fail(`set.${key} cannot be changed by update: ${relationHint(key)}`);
      if (MANAGED_FIELDS.has(key)) this.fail(`set.${key} is kept by the server (z-order and the version clock)`);
      if (key === 'isDeleted') this.fail('set.isDeleted cannot be changed: use a delete op');
      const check = fields[key];
      if (!check) this.fail(`set.${key} is not a field of a ${element.type}${labelHint(key, element.type)}`);
      this.check(`set.${key}`, value, check);
    }
    this.checkFrame(set.frameId, 'set.frameId');
    const id = element.id;
    const { x, y, width, height, points: newPoints, ...rest } = set;
    const moves = x !== undefined || y !== undefined;
    const sizes = width !== undefined || height !== undefined;
    if (hasPoints(element) && sizes) this.fail(`set.width/height of a ${element.type} follow its points: set "points" instead`);
    if (isBoundText(element) && (moves || sizes)) this.fail(`a label's position and size follow its container ${quote(element.containerId as string)}: move or resize that instead`);
    if (element.type === 'text' && height !== undefined) this.fail(`set.height of a text follows its text and font`);
    if (element.type === 'text' && width !== undefined && set.autoResize === true) this.fail('set.width with autoResize true: an auto-sized text takes the width of its text');
    if (rest.elbowed === true && ENDS.some((end) => { const b = bindingOf(element, end); return b !== null && b.fixedPoint === undefined; })) {
      this.fail('set.elbowed: an elbow arrow binds with a "fixedPoint", which this arrow\'s bindings lack');
    }

    if (Object.keys(rest).length > 0 || (element.type === 'text' && width !== undefined)) {
      const edited = this.draft.edit(id);
      Object.assign(edited, rest);
      if (rest.frameId !== undefined || rest.groupIds !== undefined) this.draft.relationsChanged();
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
        const label = this.labelOf(id);
        if (label) this.draft.edit(label.id).angle = rest.angle;
      }
    }

    if (element.type === 'text') {
      const font = set.fontSize !== undefined || set.fontFamily !== undefined || set.lineHeight !== undefined;
      const content = set.text !== undefined || set.originalText !== undefined || set.autoResize !== undefined || width !== undefined || set.textAlign !== undefined || set.verticalAlign !== undefined;
      if (font || content) this.relayoutText(id, font ? 'font' : 'content');
      if (moves) this.moveTo(id, x, y);
      return;
    }
    if (hasPoints(element) && (moves || newPoints !== undefined)) {
      const edited = this.draft.edit(id);
      if (x !== undefined) edited.x = x;
      if (y !== undefined) edited.y = y;
      if (newPoints !== undefined) edited.points = newPoints;
      let pts = absolutePoints(edited);
      for (const end of ENDS) if (bindingOf(edited, end) && this.draft.get(bindingOf(edited, end)!.elementId)) pts = this.attachEnd(edited, pts, end);
      setAbsolutePoints(edited, pts);
      this.refitArrowLabel(id);
      return;
    }
    if (sizes) this.reshape(id, num(width, num(element.width)), num(height, num(element.height)));
    if (moves) this.moveTo(id, x, y);
  }

  /** Moves an element so its x/y become those given (either may be absent). */
  private moveTo(id: string, x: unknown, y: unknown): void {
    const element = this.draft.get(id)!;
    const dx = isFiniteNumber(x) ? x - num(element.x) : 0;
    const dy = isFiniteNumber(y) ? y - num(element.y) : 0;
    if (dx !== 0 || dy !== 0) this.translate(id, dx, dy);
  }

  // -------------------------------------------------------------------------
  // move

  private move(element: SceneElement, op: Record<string, unknown>): void {
    const absolute = op.x !== undefined || op.y !== undefined;
    const relative = op.dx !== undefined || op.dy !== undefined;
    if (absolute === relative) this.fail('a move takes either "x" and "y" or "dx" and "dy"');
    const [a, b] = absolute ? (['x', 'y'] as const) : (['dx', 'dy'] as const);
    this.check(`"${a}"`, op[a], finite);
    this.check(`"${b}"`, op[b], finite);
    if (isBoundText(element)) this.fail(`${quote(element.id)} is the label of ${quote(element.containerId as string)}: move the container instead`);
    if (absolute) this.moveTo(element.id, op.x, op.y);
    else if (op.dx !== 0 || op.dy !== 0) this.translate(element.id, op.dx as number, op.dy as number);
  }

  /**
   * Moves an element with what it carries (its labels, the icons grouped
   * inside it, a frame's members), re-routes the arrows bound to any of those,
   * moves arrows bound at both ends within them, and unbinds the ends of moved
   * arrows whose shapes stay behind.
   */
  private translate(id: string, dx: number, dy: number): void {
    const carried = this.carried(id);
    for (const member of carried) this.shift(member, dx, dy);
    const shiftPoint = ([x, y]: Point): Point => [x + dx, y + dy];
    for (const arrowId of this.arrowsBoundTo(carried)) {
      const arrow = this.draft.get(arrowId)!;
      const inside = (end: End) => {
        const binding = bindingOf(arrow, end);
        return binding !== null && carried.has(binding.elementId);
      };
      if (carried.has(arrowId)) {
        for (const end of ENDS) if (bindingOf(arrow, end) && !inside(end)) this.unbind(arrowId, end);
      } else if (inside('start') && inside('end')) {
        this.shift(arrowId, dx, dy);
        const label = this.labelOf(arrowId);
        if (label && !carried.has(label.id)) this.shift(label.id, dx, dy);
      } else {
        this.reroute(arrowId, ENDS.filter(inside), shiftPoint);
      }
    }
  }

  private shift(id: string, dx: number, dy: number): void {
    const element = this.draft.edit(id);
    element.x = num(element.x) + dx;
    element.y = num(element.y) + dy;
  }

  /** The element and everything that moves with it. */
  private carried(id: string): Set<string> {
    const carried = new Set([id]);
    const queue = [id];
    const take = (member: string) => {
      if (carried.has(member)) return;
      carried.add(member);
      queue.push(member);
    };
    while (queue.length > 0) {
      const element = this.draft.get(queue.pop()!)!;
      for (const label of this.labelsOf(element.id)) take(label.id);
      if (FRAMES.has(element.type)) for (const member of this.draft.relations().members.get(element.id) ?? []) if (this.draft.get(member)?.frameId === element.id) take(member);
      for (const icon of this.iconsOf(element)) take(icon);
    }
    return carried;
  }

  /**
   * The images drawn as a shape's icon: grouped with it and centred inside it
   * (sceneFromSpec's icons). They move, resize and delete with the shape.
   */
  private iconsOf(shape: SceneElement): string[] {
    if (shape.type === 'text' || shape.type === 'image' || hasPoints(shape) || !Array.isArray(shape.groupIds) || shape.groupIds.length === 0) return [];
    const box = outlineOf(shape);
    const icons = new Set<string>();
    for (const group of shape.groupIds as unknown[]) {
      for (const id of this.draft.relations().images.get(group as string) ?? []) {
        const image = this.draft.get(id);
        if (image && (image.groupIds as unknown[]).includes(group) && isInside(centreOf(outlineOf(image)), box)) icons.add(id);
      }
    }
    return [...icons];
  }

  /** Live linear elements bound at an end to one of `ids`, or among them and bound at all. */
  private arrowsBoundTo(ids: Set<string>): string[] {
    const arrows = new Set<string>();
    const index = this.draft.relations().arrows;
    for (const id of ids) {
      for (const arrowId of index.get(id) ?? []) {
        const arrow = this.draft.get(arrowId);
        if (arrow && ENDS.some((end) => bindingOf(arrow, end)?.elementId === id)) arrows.add(arrowId);
      }
      const element = this.draft.get(id)!;
      if (isLinear(element) && ENDS.some((end) => bindingOf(element, end) !== null)) arrows.add(id);
    }
    return [...arrows];
  }

  private unbind(arrowId: string, end: End): void {
    const arrow = this.draft.edit(arrowId);
    const targetId = bindingOf(arrow, end)!.elementId;
    arrow[`${end}Binding`] = null;
    this.draft.relationsChanged();
    const other = bindingOf(arrow, end === 'start' ? 'end' : 'start');
    if (other?.elementId !== targetId) this.removeBoundRef(targetId, arrowId);
  }

  // -------------------------------------------------------------------------
  // resize

  private resize(element: SceneElement, op: Record<string, unknown>): void {
    this.check('"width"', op.width, positive);
    this.check('"height"', op.height, positive);
    if (hasPoints(element)) this.fail(`${quote(element.id)} is a ${element.type}: its size follows its points (update "points")`);
    if (element.type === 'text') this.fail(`${quote(element.id)} is a text: its size follows its text and font (restyle fontSize, or update width for a wrapping text)`);
    this.reshape(element.id, op.width as number, op.height as number);
  }

  /**
   * Gives a shape a new size, top-left corner fixed; its label is re-wrapped in
   * it as the editor does (the shape grows when the label cannot fit), its
   * icons keep their place, and its arrows are re-attached to the new outline.
   */
  private reshape(id: string, width: number, height: number): void {
    const before = outlineOf(this.draft.get(id)!);
    const icons = this.iconsOf(this.draft.get(id)!);
    const shape = this.draft.edit(id);
    shape.width = width;
    shape.height = height;
    const label = this.labelOf(id);
    if (label) this.fitLabel(label.id);
    this.followBox(id, before, icons);
  }

  /** Re-fits a container around its label after the label changed. */
  private refit(containerId: string): void {
    const container = this.draft.get(containerId)!;
    this.reshape(containerId, num(container.width), num(container.height));
  }

  /** After an element's box changed: its icons keep their relative place and its arrows are re-attached. */
  private followBox(id: string, before: Outline, icons: string[]): void {
    const after = outlineOf(this.draft.get(id)!);
    if (sameBox(before, after)) return;
    const map = boxMap(before, after);
    for (const iconId of icons) {
      const icon = this.draft.edit(iconId);
      const [cx, cy] = map(centreOf(outlineOf(icon)));
      icon.x = cx - num(icon.width) / 2;
      icon.y = cy - num(icon.height) / 2;
    }
    for (const arrowId of this.arrowsBoundTo(new Set([id]))) {
      const arrow = this.draft.get(arrowId)!;
      const ends = ENDS.filter((end) => bindingOf(arrow, end)?.elementId === id);
      if (ends.length === 2) this.scaleLoop(arrowId, map);
      else this.reroute(arrowId, ends, map);
    }
  }

  /** An arrow from a shape back to itself scales with the shape, and its ends are re-attached. */
  private scaleLoop(arrowId: string, map: (p: Point) => Point): void {
    const arrow = this.draft.edit(arrowId);
    let pts = absolutePoints(arrow).map(map);
    if (pts.length < 2) return;
    for (const end of ENDS) pts = this.attachEnd(arrow, pts, end);
    setAbsolutePoints(arrow, pts);
    this.refitArrowLabel(arrowId);
  }

  // -------------------------------------------------------------------------
  // restyle

  private restyle(element: SceneElement, op: Record<string, unknown>): void {
    const keys = STYLE_KEYS.filter((key) => op[key] !== undefined);
    if (keys.length === 0) this.fail(`a restyle needs at least one of ${STYLE_KEYS.join(', ')}`);
    for (const key of keys) this.check(`"${key}"`, op[key], STYLE_CHECKS[key]);
    const fontKeys = keys.filter((key) => FONT_KEYS.has(key));
    let textId: string | null = null;
    if (fontKeys.length > 0) {
      textId = element.type === 'text' ? element.id : (this.labelOf(element.id)?.id ?? null);
      if (textId === null) this.fail(`${fontKeys.join(' and ')} apply to text, and ${element.type} ${quote(element.id)} has no label`);
    }
    const shapeKeys = keys.filter((key) => !FONT_KEYS.has(key));
    if (shapeKeys.length > 0) {
      const edited = this.draft.edit(element.id);
      for (const key of shapeKeys) edited[key] = op[key];
      const label = element.type === 'text' ? undefined : this.labelOf(element.id);
      const follows = LABEL_FOLLOWS.filter((key) => op[key] !== undefined);
      if (label && follows.length > 0) {
        const editedLabel = this.draft.edit(label.id);
        for (const key of follows) editedLabel[key] = op[key];
      }
    }
    if (textId !== null) {
      const text = this.draft.edit(textId);
      if (op.fontSize !== undefined) text.fontSize = op.fontSize;
      if (op.fontFamily !== undefined) {
        text.fontFamily = op.fontFamily;
        text.lineHeight = getLineHeight(op.fontFamily as number);
      }
      this.relayoutText(textId, 'font');
    }
  }

  // -------------------------------------------------------------------------
  // delete

  /**
   * Removes the element with its labels (an arrow's too) and its icons, and
   * clears every reference to what was removed: arrow bindings become null,
   * boundElements entries go, frame members leave the frame.
   */
  private delete(element: SceneElement): void {
    const doomed = new Set([element.id, ...this.iconsOf(element)]);
    for (const id of [...doomed]) for (const label of this.labelsOf(id)) doomed.add(label.id);
    for (const id of doomed) this.draft.remove(id);
    for (const other of [...this.draft.live()]) {
      const refs = boundRefs(other);
      const staleRefs = Array.isArray(other.boundElements) && refs.some((r) => doomed.has(r.id));
      const staleEnds = ENDS.filter((end) => doomed.has(bindingOf(other, end)?.elementId as string));
      const staleContainer = typeof other.containerId === 'string' && doomed.has(other.containerId);
      const staleFrame = typeof other.frameId === 'string' && doomed.has(other.frameId);
      if (!staleRefs && staleEnds.length === 0 && !staleContainer && !staleFrame) continue;
      const edited = this.draft.edit(other.id);
      if (staleRefs) edited.boundElements = (edited.boundElements as unknown[]).filter((r) => !(isPlainObject(r) && doomed.has(r.id as string)));
      for (const end of staleEnds) edited[`${end}Binding`] = null;
      if (staleContainer) edited.containerId = null;
      if (staleFrame) edited.frameId = null;
    }
    this.draft.relationsChanged();
  }

  // -------------------------------------------------------------------------
  // Labels and text

  /** The live text bound to a container: the one its boundElements lists, else any naming it. */
  private labelOf(containerId: string): SceneElement | undefined {
    const container = this.draft.get(containerId);
    if (!container) return undefined;
    for (const ref of boundRefs(container)) {
      const text = ref.type === 'text' ? this.draft.get(ref.id) : undefined;
      if (text?.type === 'text' && text.containerId === containerId) return text;
    }
    return this.labelsOf(containerId)[0];
  }

  /** Every live text whose containerId names the element. */
  private labelsOf(containerId: string): SceneElement[] {
    const ids = this.draft.relations().labels.get(containerId) ?? [];
    return ids.map((id) => this.draft.get(id)).filter((text): text is SceneElement => text?.type === 'text' && text.containerId === containerId);
  }

  /**
   * Lays a text out again after its text, font or width changed, as the
   * editor's redrawTextBoundingBox does: a label is re-wrapped in its
   * container (which grows if it must); a standalone text is re-measured,
   * keeping its aligned edge (and, for a font change, its vertical centre).
   */
  private relayoutText(id: string, change: 'font' | 'content'): void {
    const text = this.draft.get(id)!;
    const container = typeof text.containerId === 'string' ? this.draft.get(text.containerId) : undefined;
    if (container) {
      if (container.type === 'arrow') this.fitLabel(id);
      else this.refit(container.id);
      return;
    }
    const style = textStyleOf(text);
    if (!style) return;
    const before = outlineOf(text);
    const edited = this.draft.edit(id);
    if (edited.autoResize === false) {
      edited.text = wrapText(style.original, style.fontSize, num(edited.width), style.fontFamily);
      edited.height = measure(edited.text as string, style.fontSize, style.fontFamily, style.lineHeight).height;
    } else {
      if (typeof edited.text !== 'string' || edited.text === '') edited.text = style.original;
      const size = measure(edited.text as string, style.fontSize, style.fontFamily, style.lineHeight);
      edited.width = size.width;
      edited.height = size.height;
      if (edited.textAlign === 'center') edited.x = before.x + (before.width - size.width) / 2;
      else if (edited.textAlign === 'right') edited.x = before.x + (before.width - size.width);
      if (change === 'font') edited.y = before.y + (before.height - size.height) / 2;
    }
    this.followBox(id, before, []);
  }

  /**
   * Wraps and places a label in its container as the editor does: wrapped at
   * the container's text width, positioned by its alignment (an arrow's label
   * centred on the arrow's middle); a shape too small for it grows.
   */
  private fitLabel(labelId: string): void {
    const label = this.draft.edit(labelId);
    const container = this.draft.get(label.containerId as string);
    if (!container) return;
    const style = textStyleOf(label);
    if (container.type === 'arrow') {
      if (style) {
        const maxWidth = getBoundTextMaxWidth('arrow', num(container.width), style.fontSize);
        label.text = wrapText(style.original, style.fontSize, maxWidth, style.fontFamily);
        Object.assign(label, measure(label.text as string, style.fontSize, style.fontFamily, style.lineHeight));
      }
      const middle = middleOf(absolutePoints(container));
      if (middle) {
        label.x = middle[0] - num(label.width) / 2;
        label.y = middle[1] - num(label.height) / 2;
      }
      return;
    }
    const type = textContainerType(container.type);
    if (style) {
      const maxWidth = getBoundTextMaxWidth(type, num(container.width));
      label.text = wrapText(style.original, style.fontSize, maxWidth, style.fontFamily);
      const size = measure(label.text as string, style.fontSize, style.fontFamily, style.lineHeight);
      label.width = size.width;
      label.height = size.height;
      if (size.height > getBoundTextMaxHeight(type, num(container.height))) this.draft.edit(container.id).height = containerDimensionFor(size.height, type);
      if (size.width > maxWidth) this.draft.edit(container.id).width = containerDimensionFor(size.width, type);
    }
    const area = boundTextArea(type, outlineOf(this.draft.get(container.id)!));
    const width = num(label.width);
    const height = num(label.height);
    label.x = label.textAlign === 'left' ? area.x : label.textAlign === 'right' ? area.x + (area.width - width) : area.x + (area.width / 2 - width / 2);
    label.y = label.verticalAlign === 'top' ? area.y : label.verticalAlign === 'bottom' ? area.y + (area.height - height) : area.y + (area.height / 2 - height / 2);
  }

  private refitArrowLabel(arrowId: string): void {
    const label = this.labelOf(arrowId);
    if (label) this.fitLabel(label.id);
  }

  private addBoundRef(targetId: string, ref: BoundRef): void {
    const target = this.draft.get(targetId)!;
    if (boundRefs(target).some((r) => r.id === ref.id)) return;
    const edited = this.draft.edit(targetId);
    edited.boundElements = [...(Array.isArray(edited.boundElements) ? edited.boundElements : []), ref];
  }

  private removeBoundRef(targetId: string, refId: string): void {
    const target = this.draft.get(targetId);
    if (!target || !boundRefs(target).some((r) => r.id === refId)) return;
    const edited = this.draft.edit(targetId);
    edited.boundElements = (edited.boundElements as unknown[]).filter((r) => !(isPlainObject(r) && r.id === refId));
  }

  // -------------------------------------------------------------------------
  // Arrow ends

  /** Re-routes an arrow whose bound ends' shapes changed; `transform` maps an old end to where its shape took it. */
  private reroute(arrowId: string, ends: End[], transform: (p: Point) => Point): void {
    const arrow = this.draft.edit(arrowId);
    let pts = absolutePoints(arrow);
    if (pts.length < 2) return;
    for (const end of ends) pts = this.rerouteEnd(arrow, pts, end, transform);
    setAbsolutePoints(arrow, pts);
    this.refitArrowLabel(arrowId);
  }

  /**
   * One end follows its shape. A straight axis-parallel arrow stays on its
   * line while the line still meets the shape. Otherwise, when the end segment
   * is horizontal or vertical, the points on it up to the route's next turn
   * move across with the end, so the route stays orthogonal; a slanted end
   * segment is re-aimed at the shape's centre. When that fails (the end would
   * fold back past the turn), an orthogonal arrow is re-drawn as a Z from its
   * other end, and failing that laid straight between its shapes.
   */
  private rerouteEnd(arrow: SceneElement, pts: Point[], end: End, transform: (p: Point) => Point): Point[] {
    const binding = bindingOf(arrow, end)!;
    const outline = outlineOf(this.draft.get(binding.elementId)!);
    const gap = gapOf(binding);
    const n = pts.length;
    const k = end === 'start' ? 0 : n - 1;
    const step = end === 'start' ? 1 : -1;
    const far = n - 1 - k;
    const tip = pts[k]!;
    const neighbour = pts[k + step]!;
    const axis = axisOf(neighbour, tip);
    if (isStraight(pts)) {
      if (axis !== null && !isInside(pts[far]!, outline)) {
        const from = pts[far]!;
        const hit = rayHitsOutline(from, tip, outline);
        const newTip = hit && stepBack(from, hit, gap);
        if (newTip && (newTip[0] - from[0]) * (tip[0] - from[0]) + (newTip[1] - from[1]) * (tip[1] - from[1]) > 0 && Math.hypot(newTip[0] - from[0], newTip[1] - from[1]) >= MIN_END_SEGMENT) {
          this.setEnd(arrow, end, focusOf(from, newTip, this.draft.get(binding.elementId)!), gap);
          return spread(pts, end === 'start' ? newTip : pts[0]!, end === 'end' ? newTip : pts[n - 1]!);
        }
      }
      return this.elbow(arrow, pts, end) ?? this.straighten(arrow, pts);
    }
    if (axis !== null) {
      // The run: the end and the points after it on the same line, up to the corner where the route turns.
      const target = transform(tip);
      const across = axis === 'horizontal' ? 1 : 0;
      const along = axis === 'horizontal' ? 0 : 1;
      let corner = k + step;
      while (corner + step !== far && Math.abs(pts[corner + step]![across] - tip[across]) < EPSILON) corner += step;
      const moved = pts.map((p) => [p[0], p[1]] as Point);
      moved[corner]![across] = target[across];
      const from = moved[corner]!;
      const hit = rayHitsOutline(from, target, outline);
      const newTip = hit && stepBack(from, hit, gap);
      const was = tip[along] - from[along];
      const now = newTip ? newTip[along] - from[along] : 0;
      if (newTip && !isInside(from, outline) && Math.sign(now) === Math.sign(was) && Math.abs(now) >= MIN_END_SEGMENT) {
        moved[k] = newTip;
        for (let i = k + step; i !== corner; i += step) {
          moved[i]![across] = target[across];
          moved[i]![along] = from[along] + ((pts[i]![along] - from[along]) / was) * now;
        }
        this.setEnd(arrow, end, focusOf(from, newTip, this.draft.get(binding.elementId)!), gap);
        return moved;
      }
      return this.elbow(arrow, pts, end) ?? this.straighten(arrow, pts);
    }
    if (!isInside(neighbour, outline)) {
      const hit = rayHitsOutline(neighbour, centreOf(outline), outline);
      if (hit) {
        const moved = [...pts];
        moved[k] = stepBack(neighbour, hit, gap);
        this.setEnd(arrow, end, 0, gap);
        return moved;
      }
    }
    return this.straighten(arrow, pts);
  }

  /**
   * Re-routes an orthogonal arrow from its other end, which stays as it is:
   * out along that end's first segment to halfway, across, and into the
   * facing side of the shape at its centre line (a Z, as the layout draws
   * arrows between ranks). Null when the shape does not lie ahead of that end.
   */
  private elbow(arrow: SceneElement, pts: Point[], end: End): Point[] | null {
    const n = pts.length;
    const far = end === 'start' ? n - 1 : 0;
    const fixed = pts[far]!;
    const next = pts[far === 0 ? 1 : n - 2]!;
    const axis = axisOf(fixed, next);
    if (axis === null) return null;
    const binding = bindingOf(arrow, end)!;
    const box = outlineOf(this.draft.get(binding.elementId)!);
    const gap = gapOf(binding);
    const along = axis === 'vertical' ? 1 : 0;
    const direction = Math.sign(next[along] - fixed[along]);
    const entry = direction > 0 ? (along ? box.y : box.x) - gap : (along ? box.y + box.height : box.x + box.width) + gap;
    if ((entry - fixed[along]) * direction < 2 * MIN_END_SEGMENT) return null;
    const middle = (fixed[along] + entry) / 2;
    const [cx, cy] = centreOf(box);
    const route: Point[] = along ? [fixed, [fixed[0], middle], [cx, middle], [cx, entry]] : [fixed, [middle, fixed[1]], [middle, cy], [entry, cy]];
    this.setEnd(arrow, end, 0, gap);
    return end === 'start' ? route.reverse() : route;
  }

  /**
   * Lays an arrow straight: each bound end on its shape's outline, on the line
   * between the shapes' centres (a free end stays put), the other points
   * spread along it in their order.
   */
  private straighten(arrow: SceneElement, pts: Point[]): Point[] {
    const n = pts.length;
    const shapes = ENDS.map((end) => {
      const binding = bindingOf(arrow, end);
      const shape = binding ? this.draft.get(binding.elementId) : undefined;
      return binding && shape ? { binding, outline: outlineOf(shape) } : null;
    });
    const anchors: Point[] = [shapes[0] ? centreOf(shapes[0].outline) : pts[0]!, shapes[1] ? centreOf(shapes[1].outline) : pts[n - 1]!];
    const ends: Point[] = [pts[0]!, pts[n - 1]!];
    ENDS.forEach((end, i) => {
      const bound = shapes[i];
      if (!bound) return;
      const from = anchors[1 - i]!;
      const gap = gapOf(bound.binding);
      // Shapes that overlap: leave this one on the side facing the other.
      const landed = isInside(from, bound.outline) ? land(anchors[i]!, from, bound.outline, gap) : land(from, anchors[i]!, bound.outline, gap);
      if (!landed) return;
      ends[i] = landed;
      this.setEnd(arrow, end, 0, gap);
    });
    return spread(pts, ends[0]!, ends[1]!);
  }

  /** Puts a bound end on its shape's outline, along its end segment when that is axis-parallel, else aimed at the centre. */
  private attachEnd(arrow: SceneElement, pts: Point[], end: End): Point[] {
    const binding = bindingOf(arrow, end)!;
    const shape = this.draft.get(binding.elementId)!;
    const outline = outlineOf(shape);
    const gap = gapOf(binding);
    const k = end === 'start' ? 0 : pts.length - 1;
    const neighbour = pts[end === 'start' ? 1 : pts.length - 2]!;
    const moved = [...pts];
    const along = axisOf(neighbour, pts[k]!) !== null ? land(neighbour, pts[k]!, outline, gap) : null;
    if (along) {
      moved[k] = along;
      this.setEnd(arrow, end, focusOf(neighbour, along, shape), gap);
      return moved;
    }
    const centre = centreOf(outline);
    const aimed = isInside(neighbour, outline) ? land(centre, neighbour, outline, gap) : land(neighbour, centre, outline, gap);
    if (aimed) {
      moved[k] = aimed;
      this.setEnd(arrow, end, 0, gap);
    }
    return moved;
  }

  /** Records a re-attached end's focus and gap (an elbow arrow's fixed-point binding is left as it is). */
  private setEnd(arrow: SceneElement, end: End, focus: number, gap: number): void {
    const binding = bindingOf(arrow, end)!;
    if (binding.fixedPoint !== undefined) return;
    arrow[`${end}Binding`] = { ...binding, focus, gap };
  }
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

function describe(element: SceneElement): string {
  if (isBoundText(element)) return `the label of ${quote(element.containerId as string)}`;
  return `${/^[aeiou]/.test(element.type) ? 'an' : 'a'} ${element.type}`;
}

function labelHint(key: string, type: string): string {
  if (key !== 'label' || type === 'text') return '';
  return type === 'arrow' || TEXT_CONTAINERS.has(type)
    ? '; a label is a text element of its own: change its "text", or add one with "containerId"'
    : '';
}

function relationHint(key: string): string {
  switch (key) {
    case 'containerId':
      return 'delete the label and add a text with the new containerId';
    case 'boundElements':
      return 'they follow from the arrows’ bindings and the labels’ containerId';
    default:
      return 'delete the arrow and add one bound as wanted, or move it to unbind it';
  }
}
