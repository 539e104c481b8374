/**
 * What a SceneDelta did, told two ways: per element (added, removed, changed
 * and which aspects of it changed) for a client to highlight, and as one
 * line a person reads in a revision list ("moved db, relabelled api as
 * gateway, deleted cache and its arrows").
 *
 * Cheap on a large scene: one pass over `before` builds its id and label
 * indexes; everything else looks only at what the delta names. Pure.
 */
import type { SceneElement } from '../edit/types.ts';
import type { SceneDelta } from './delta.ts';

export type ChangeAspect = 'geometry' | 'style' | 'text' | 'binding' | 'other';

export interface SceneChanges {
  /** Ids present after and absent before, in after order. */
  added: string[];
  /** Ids present before and absent after, in before order. */
  removed: string[];
  /** Ids present on both sides whose data differs, in after order; aspects [] when only bookkeeping (version, nonce…) changed. */
  changed: { id: string; aspects: ChangeAspect[] }[];
  /** One line a person reads; "no changes to the elements" when there are none. */
  summary: string;
}

const ASPECT_ORDER: readonly ChangeAspect[] = ['geometry', 'style', 'text', 'binding', 'other'];

const FIELDS_BY_ASPECT: Record<Exclude<ChangeAspect, 'other'>, readonly string[]> = {
  geometry: ['x', 'y', 'width', 'height', 'angle', 'points', 'lastCommittedPoint', 'scale', 'crop'],
  style: [
    'strokeColor', 'backgroundColor', 'fillStyle', 'strokeWidth', 'strokeStyle', 'roughness', 'opacity', 'roundness',
    'fontSize', 'fontFamily', 'textAlign', 'verticalAlign', 'startArrowhead', 'endArrowhead', 'elbowed', 'lineHeight',
  ],
  text: ['text', 'originalText', 'autoResize'],
  binding: ['boundElements', 'startBinding', 'endBinding', 'containerId', 'frameId', 'groupIds', 'link'],
};
/** Fields the editor rewrites on every change: they are never an aspect on their own. */
const BOOKKEEPING = new Set(['version', 'versionNonce', 'updated', 'seed', 'index']);
const ASPECT_OF_FIELD = new Map<string, ChangeAspect>(
  Object.entries(FIELDS_BY_ASPECT).flatMap(([aspect, fields]) => fields.map((field) => [field, aspect as ChangeAspect] as const)),
);

/** The aspect a changed field belongs to; null for bookkeeping. */
export function aspectOfField(field: string): ChangeAspect | null {
  return BOOKKEEPING.has(field) ? null : (ASPECT_OF_FIELD.get(field) ?? 'other');
}

/** Structural equality of JSON-like values (a key holding undefined counts as absent). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameValue(item, (b as unknown[])[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}

/** The fields whose values differ between two versions of an element. */
export function changedFields(before: SceneElement, after: SceneElement): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => !sameValue(before[key], after[key]));
}

function aspectsOf(fields: readonly string[]): ChangeAspect[] {
  const found = new Set(fields.map(aspectOfField));
  return ASPECT_ORDER.filter((aspect) => found.has(aspect));
}

/** The aspects in which two versions of an element differ ([] when only bookkeeping does). */
export function changeAspects(before: SceneElement, after: SceneElement): ChangeAspect[] {
  return aspectsOf(changedFields(before, after));
}

export function describeDelta(before: readonly SceneElement[], delta: SceneDelta): SceneChanges {
  const scenes = new Scenes(before, delta);
  const added: string[] = [];
  const changed: { id: string; aspects: ChangeAspect[] }[] = [];
  const fieldsById = new Map<string, string[]>();
  for (const id of scenes.upsertIds()) {
    if (!scenes.presentAfter(id)) continue;
    const previous = scenes.before(id);
    if (previous === undefined) {
      added.push(id);
      continue;
    }
    const fields = changedFields(previous, scenes.after(id)!);
    if (fields.length === 0) continue;
    fieldsById.set(id, fields);
    changed.push({ id, aspects: aspectsOf(fields) });
  }
  const removed = scenes.removedIds();
  const parts = new Story(scenes, fieldsById).tell(added, removed);
  const reorder = delta.order === undefined ? null : reorderPart(scenes, delta.order);
  if (reorder !== null) parts.push(reorder);
  return { added, removed, changed, summary: summarize(parts, added.length + removed.length + changed.length) };
}

/** The scene before and after the delta, read by id without building the whole of `after`. */
class Scenes {
  readonly elements: readonly SceneElement[];
  private readonly beforeIndex = new Map<string, number>();
  /** Texts naming a container, by container id (their containerId), in `before`. */
  private readonly beforeTexts = new Map<string, string[]>();
  private readonly upserts = new Map<string, SceneElement>();
  private readonly upsertTexts = new Map<string, string[]>();
  private readonly removeSet: Set<string>;
  private readonly orderSet: Set<string> | null;

  constructor(
    before: readonly SceneElement[],
    private readonly delta: SceneDelta,
  ) {
    this.elements = before;
    before.forEach((element, index) => {
      this.beforeIndex.set(element.id, index);
      if (element.type === 'text' && typeof element.containerId === 'string') push(this.beforeTexts, element.containerId, element.id);
    });
    for (const element of delta.upsert) {
      this.upserts.set(element.id, element);
      if (element.type === 'text' && typeof element.containerId === 'string') push(this.upsertTexts, element.containerId, element.id);
    }
    this.removeSet = new Set(delta.remove);
    this.orderSet = delta.order === undefined ? null : new Set(delta.order);
  }

  before(id: string): SceneElement | undefined {
    const index = this.beforeIndex.get(id);
    return index === undefined ? undefined : this.elements[index];
  }

  beforeIndexOf(id: string): number {
    return this.beforeIndex.get(id) ?? -1;
  }

  /** Whether applyDelta's result holds the id. */
  presentAfter(id: string): boolean {
    if (this.orderSet !== null) return this.orderSet.has(id);
    if (this.beforeIndex.has(id)) return !this.removeSet.has(id);
    return this.upserts.has(id);
  }

  after(id: string): SceneElement | undefined {
    if (!this.presentAfter(id)) return undefined;
    return this.upserts.get(id) ?? this.before(id);
  }

  /** Upserted ids, each once, in upsert order. */
  upsertIds(): string[] {
    return [...this.upserts.keys()];
  }

  removedIds(): string[] {
    const candidates = new Set(this.delta.remove);
    if (this.orderSet !== null) for (const element of this.elements) candidates.add(element.id);
    return [...candidates].filter((id) => this.beforeIndex.has(id) && !this.presentAfter(id)).sort((a, b) => this.beforeIndexOf(a) - this.beforeIndexOf(b));
  }

  /** The live label of a container on one side: the text its boundElements lists, else any text naming it. */
  label(side: Side, containerId: string): SceneElement | undefined {
    const container = this.get(side, containerId);
    if (!isLive(container)) return undefined;
    const isLabel = (text: SceneElement | undefined): text is SceneElement => isLive(text) && text.type === 'text' && text.containerId === containerId;
    for (const ref of refsOf(container)) {
      const text = ref.type === 'text' ? this.get(side, ref.id) : undefined;
      if (isLabel(text)) return text;
    }
    const candidates = side === 'after' ? [...(this.upsertTexts.get(containerId) ?? []), ...(this.beforeTexts.get(containerId) ?? [])] : (this.beforeTexts.get(containerId) ?? []);
    return candidates.map((id) => this.get(side, id)).find(isLabel);
  }

  get(side: Side, id: string): SceneElement | undefined {
    return side === 'before' ? this.before(id) : this.after(id);
  }
}

type Side = 'before' | 'after';
type Kind = 'shape' | 'arrow' | 'text';

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const isLive = (element: SceneElement | undefined): element is SceneElement => element !== undefined && element.isDeleted !== true;
const isArrow = (element: SceneElement) => element.type === 'arrow';

function refsOf(element: SceneElement): { id: string; type: unknown }[] {
  if (!Array.isArray(element.boundElements)) return [];
  return (element.boundElements as unknown[]).filter((r): r is { id: string; type: unknown } => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string');
}

function endIds(element: SceneElement): string[] {
  const ids: string[] = [];
  for (const key of ['startBinding', 'endBinding']) {
    const binding = element[key];
    if (typeof binding === 'object' && binding !== null && typeof (binding as { elementId?: unknown }).elementId === 'string') ids.push((binding as { elementId: string }).elementId);
  }
  return ids;
}

function endId(element: SceneElement, key: 'startBinding' | 'endBinding'): string | null {
  const binding = element[key];
  return typeof binding === 'object' && binding !== null && typeof (binding as { elementId?: unknown }).elementId === 'string' ? (binding as { elementId: string }).elementId : null;
}

function groupsOf(element: SceneElement): string[] {
  return Array.isArray(element.groupIds) ? (element.groupIds as unknown[]).filter((g): g is string => typeof g === 'string') : [];
}

const MAX_NAME = 24;

/** A text as a name: whitespace collapsed, at most MAX_NAME characters; null when blank. */
function shortName(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return null;
  return flat.length <= MAX_NAME ? flat : `${flat.slice(0, MAX_NAME - 1).trimEnd()}…`;
}

const TYPE_NAMES: Record<string, string> = { freedraw: 'drawing', embeddable: 'embed', iframe: 'embed', magicframe: 'frame' };

function typeName(type: string): string {
  const noun = TYPE_NAMES[type] ?? type;
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** One thing the summary says of an element, under a verb. */
interface Mention {
  id: string;
  kind: Kind;
  name: string;
}

interface Relabel {
  from: string;
  to: string;
  kind: Kind;
  /** The container had no label before. */
  fresh: boolean;
}

/** The summary's parts, in this order. */
const VERBS = ['moved', 'resized', 'rotated', 're-routed', 'reshaped', 'relabelled', 'unlabelled', 'restyled', 'reconnected', 'added', 'deleted', 'changed'] as const;
type Verb = (typeof VERBS)[number];

/** Which verb a geometry change reads as: the most telling field wins. */
function geometryVerb(element: SceneElement, fields: ReadonlySet<string>): Verb {
  if (fields.has('points') || fields.has('lastCommittedPoint')) return isArrow(element) ? 're-routed' : 'reshaped';
  if (fields.has('width') || fields.has('height') || fields.has('scale') || fields.has('crop')) return 'resized';
  if (fields.has('angle') && !fields.has('x') && !fields.has('y')) return 'rotated';
  return 'moved';
}

/** Turns the element changes into the summary's parts, leaving out what follows from another change. */
class Story {
  private readonly mentions = new Map<Verb, Map<string, Mention>>(VERBS.map((verb) => [verb, new Map()]));
  private readonly relabels = new Map<string, Relabel>();

  constructor(
    private readonly scenes: Scenes,
    private readonly fieldsById: ReadonlyMap<string, string[]>,
  ) {}

  tell(added: readonly string[], removed: readonly string[]): string[] {
    const appeared: string[] = [];
    const disappeared: string[] = [];
    const lasting: string[] = [];
    const sides = (id: string) => [isLive(this.scenes.before(id)), isLive(this.scenes.after(id))] as const;
    for (const id of [...removed, ...this.fieldsById.keys(), ...added]) {
      const [was, is] = sides(id);
      if (!was && is) appeared.push(id);
      else if (was && !is) disappeared.push(id);
      else if (was && is) lasting.push(id);
    }
    // Shapes whose outline changed or that came or went: arrows bound to them re-route with them.
    const reshaped = new Set([...appeared, ...disappeared]);
    for (const id of lasting) {
      const element = this.scenes.after(id)!;
      if (!isArrow(element) && !this.isLabel('after', element) && this.fields(id).some((f) => aspectOfField(f) === 'geometry')) reshaped.add(id);
    }
    for (const id of lasting) this.lasting(id, reshaped);
    this.appeared(appeared);
    const deletions = this.disappeared(disappeared);
    return this.verbParts(deletions).filter((part) => part !== '');
  }

  private fields(id: string): string[] {
    return this.fieldsById.get(id) ?? [];
  }

  private isLabel(side: Side, element: SceneElement): boolean {
    return element.type === 'text' && typeof element.containerId === 'string' && isLive(this.scenes.get(side, element.containerId));
  }

  /** An image drawn as a shape's icon: grouped with a shape among `ids`. */
  private isIconOf(side: Side, element: SceneElement, ids: ReadonlySet<string>): boolean {
    if (element.type !== 'image') return false;
    const groups = groupsOf(element);
    if (groups.length === 0) return false;
    for (const id of ids) {
      const other = this.scenes.get(side, id);
      if (other && other.id !== element.id && other.type !== 'image' && groupsOf(other).some((g) => groups.includes(g))) return true;
    }
    return false;
  }

  private kindOf(element: SceneElement): Kind {
    return isArrow(element) ? 'arrow' : element.type === 'text' ? 'text' : 'shape';
  }

  /** How the summary names an element: a shape by its label, a text by its text, an arrow by its ends. */
  name(side: Side, id: string): string {
    const element = this.scenes.get(side, id);
    if (!element) return 'an element';
    if (isArrow(element)) return this.arrowName(side, element);
    if (element.type === 'text') {
      if (this.isLabel(side, element)) return this.name(side, element.containerId as string);
      return shortName(element.text) ?? 'a text';
    }
    return this.shapeName(side, element);
  }

  private shapeName(side: Side, element: SceneElement): string {
    return shortName(this.scenes.label(side, element.id)?.text) ?? typeName(element.type);
  }

  private arrowName(side: Side, arrow: SceneElement): string {
    const end = (key: 'startBinding' | 'endBinding') => {
      const id = endId(arrow, key);
      const target = id === null ? undefined : this.scenes.get(side, id);
      if (!target) return null;
      return isArrow(target) ? typeName(target.type) : this.name(side, target.id);
    };
    const from = end('startBinding');
    const to = end('endBinding');
    if (from !== null && to !== null) return `an arrow from ${from} to ${to}`;
    if (from !== null) return `an arrow from ${from}`;
    if (to !== null) return `an arrow to ${to}`;
    const label = shortName(this.scenes.label(side, arrow.id)?.text);
    return label === null ? 'an arrow' : `the arrow ${label}`;
  }

  private mention(verb: Verb, side: Side, element: SceneElement): void {
    this.mentions.get(verb)!.set(element.id, { id: element.id, kind: this.kindOf(element), name: this.name(side, element.id) });
  }

  private relabel(containerId: string, from: string, to: string, fresh = false): void {
    if (from === to) return;
    const container = this.scenes.after(containerId)!;
    this.relabels.set(containerId, { from, to, kind: this.kindOf(container), fresh });
  }

  private lasting(id: string, reshaped: ReadonlySet<string>): void {
    const element = this.scenes.after(id)!;
    const previous = this.scenes.before(id)!;
    const fields = new Set(this.fields(id));
    const aspects = new Set(aspectsOf([...fields]));
    const only = (...allowed: ChangeAspect[]) => [...aspects].every((a) => allowed.includes(a));

    if (this.isLabel('after', element) && this.isLabel('before', previous) && element.containerId === previous.containerId) {
      // A label follows its container: its geometry is the container's business.
      const containerId = element.containerId as string;
      const container = this.scenes.after(containerId)!;
      if (fields.has('text')) this.relabel(containerId, shortName(previous.text) ?? typeName(container.type), shortName(element.text) ?? typeName(container.type));
      if (aspects.has('style')) this.mentions.get('restyled')!.set(containerId, { id: containerId, kind: this.kindOf(container), name: this.name('after', containerId) });
      if (aspects.has('binding') || aspects.has('other')) this.mention('changed', 'after', element);
      return;
    }
    if (element.type === 'image' && only('geometry') && this.isIconOf('after', element, reshaped)) return;
    if (isArrow(element) && only('geometry', 'binding') && [...endIds(previous), ...endIds(element)].some((end) => reshaped.has(end))) return;

    if (aspects.has('geometry')) {
      const verb = geometryVerb(element, fields);
      // A new text re-fits its box (and a container around its label): the relabel tells it.
      if (!(verb === 'resized' && (fields.has('text') || this.labelRefitted(id)))) this.mention(verb, 'after', element);
    }
    if (aspects.has('style')) this.mention('restyled', 'after', element);
    if (fields.has('text')) this.relabel(id, shortName(previous.text) ?? 'a text', shortName(element.text) ?? 'a text');
    if (fields.has('startBinding') || fields.has('endBinding')) {
      if (endId(previous, 'startBinding') !== endId(element, 'startBinding') || endId(previous, 'endBinding') !== endId(element, 'endBinding')) this.mention('reconnected', 'after', element);
    }
    // boundElements only mirrors the other side of a binding or a label, which is told on its own.
    const bindingElsewhere = [...fields].some((f) => aspectOfField(f) === 'binding' && f !== 'boundElements' && f !== 'startBinding' && f !== 'endBinding');
    const textElsewhere = [...fields].some((f) => aspectOfField(f) === 'text' && f !== 'text');
    if (aspects.has('other') || bindingElsewhere || (textElsewhere && !fields.has('text'))) this.mention('changed', 'after', element);
  }

  /** Whether a container's label changed in a way that re-fits the container: came, went, new text or style. */
  private labelRefitted(containerId: string): boolean {
    const was = this.scenes.label('before', containerId);
    const is = this.scenes.label('after', containerId);
    if (was === undefined || is === undefined) return was !== is;
    return changedFields(was, is).some((field) => field === 'text' || aspectOfField(field) === 'style');
  }

  private appeared(ids: readonly string[]): void {
    const set = new Set(ids);
    for (const id of ids) {
      const element = this.scenes.after(id)!;
      if (this.isLabel('after', element)) {
        const containerId = element.containerId as string;
        const fresh = this.scenes.label('before', containerId) === undefined;
        if (!set.has(containerId)) this.relabel(containerId, this.name('before', containerId), shortName(element.text) ?? this.name('after', containerId), fresh);
        continue;
      }
      if (this.isIconOf('after', element, set)) continue;
      this.mention('added', 'after', element);
    }
  }

  private disappeared(ids: readonly string[]): string[] {
    const set = new Set(ids);
    const shapes: Mention[] = [];
    const arrows: Mention[] = [];
    const arrowIds: string[] = [];
    for (const id of ids) {
      const element = this.scenes.before(id)!;
      if (this.isLabel('before', element)) {
        const containerId = element.containerId as string;
        if (!set.has(containerId) && isLive(this.scenes.after(containerId))) {
          this.mentions.get('unlabelled')!.set(containerId, { id: containerId, kind: this.kindOf(this.scenes.before(containerId)!), name: this.name('before', containerId) });
        }
        continue;
      }
      if (this.isIconOf('before', element, set)) continue;
      const mention = { id, kind: this.kindOf(element), name: this.name('before', id) };
      if (isArrow(element)) {
        arrows.push(mention);
        arrowIds.push(id);
      } else shapes.push(mention);
    }
    const withArrows =
      shapes.length > 0 && arrows.length > 0 && arrowIds.every((id) => endIds(this.scenes.before(id)!).some((end) => set.has(end) && !isArrow(this.scenes.before(end)!)));
    if (withArrows) {
      const theirs = shapes.length === 1 ? (arrows.length === 1 ? 'its arrow' : 'its arrows') : 'their arrows';
      const names = shapes.length <= 3 && unique(shapes) ? shapes.map((m) => m.name).join(', ') : countOf(shapes);
      return [`deleted ${names} and ${theirs}`];
    }
    return [listPart('deleted', shapes), listPart('deleted', arrows)];
  }

  /** Every verb's part, in VERBS order; the deletions are told by disappeared(). */
  private verbParts(deletions: readonly string[]): string[] {
    const parts: string[] = [];
    for (const verb of VERBS) {
      if (verb === 'deleted') parts.push(...deletions);
      else if (verb === 'relabelled') parts.push(this.relabelPart());
      else if (verb === 'added') {
        const all = [...this.mentions.get('added')!.values()];
        parts.push(listPart('added', all.filter((m) => m.kind !== 'arrow')), listPart('added', all.filter((m) => m.kind === 'arrow')));
      } else if (verb === 'changed') {
        const count = this.mentions.get('changed')!.size;
        if (count > 0) parts.push(`changed ${count} ${count === 1 ? 'element' : 'elements'}`);
      } else parts.push(this.verbPart(verb));
    }
    return parts;
  }

  private verbPart(verb: Verb): string {
    return listPart(verb, [...this.mentions.get(verb)!.values()]);
  }

  private relabelPart(): string {
    const all = [...this.relabels.values()];
    const verb = all.every((r) => r.fresh) ? 'labelled' : 'relabelled';
    if (all.length === 1) {
      const { from, to } = all[0]!;
      return from.length + to.length <= 2 * MAX_NAME - 8 ? `${verb} ${from} as ${to}` : `${verb} ${to}`;
    }
    return listPart(verb, all.map((r, i) => ({ id: String(i), kind: r.kind, name: r.to })));
  }
}

function unique(mentions: readonly Mention[]): boolean {
  return new Set(mentions.map((m) => m.name)).size === mentions.length;
}

function countOf(mentions: readonly Mention[]): string {
  const kinds = new Set(mentions.map((m) => m.kind));
  const noun = kinds.size > 1 ? 'element' : kinds.has('arrow') ? 'arrow' : kinds.has('text') ? 'text' : 'shape';
  return `${mentions.length} ${noun}${mentions.length === 1 ? '' : 's'}`;
}

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "moved api, db and cache", or "moved 5 shapes" past three (or when names repeat); '' for none. */
function listPart(verb: string, mentions: readonly Mention[]): string {
  if (mentions.length === 0) return '';
  if (mentions.length <= 3 && unique(mentions)) return `${verb} ${joinNames(mentions.map((m) => m.name))}`;
  return `${verb} ${countOf(mentions)}`;
}

const MAX_SHIFTED = 8;

/**
 * A reorder: "brought db to front" when a few elements moved to the top of
 * the stack with the rest keeping their order, "sent … to back" likewise,
 * else "reordered elements". Null when the elements that stay keep their
 * order (new ones merely placed among them).
 */
function reorderPart(scenes: Scenes, order: readonly string[]): string | null {
  const was = scenes.elements.map((e) => e.id).filter((id) => scenes.presentAfter(id));
  const is = order.filter((id) => scenes.beforeIndexOf(id) !== -1);
  if (was.length === is.length && was.every((id, i) => id === is[i])) return null;
  const story = new Story(scenes, new Map());
  for (let k = 1; k <= Math.min(MAX_SHIFTED, is.length - 1); k++) {
    for (const [shifted, rest, phrase] of [
      [is.slice(-k), is.slice(0, -k), 'to front'],
      [is.slice(0, k), is.slice(k), 'to back'],
    ] as const) {
      const moved = new Set(shifted);
      const others = was.filter((id) => !moved.has(id));
      if (others.length !== rest.length || !others.every((id, i) => id === rest[i])) continue;
      const shown = shifted.filter((id) => {
        const element = scenes.after(id)!;
        return isLive(element) && !(element.type === 'text' && typeof element.containerId === 'string' && moved.has(element.containerId));
      });
      const mentions = shown.map((id) => ({ id, kind: 'shape' as Kind, name: story.name('after', id) }));
      const verb = phrase === 'to front' ? 'brought' : 'sent';
      return mentions.length === 0 ? 'reordered elements' : `${listPart(verb, mentions)} ${phrase}`;
    }
  }
  return 'reordered elements';
}

const MAX_SUMMARY = 200;
const MAX_PARTS = 4;

function summarize(parts: readonly string[], changedCount: number): string {
  if (parts.length === 0) {
    if (changedCount === 0) return 'no changes to the elements';
    return `changed ${changedCount} ${changedCount === 1 ? 'element' : 'elements'}`;
  }
  const more = ' and more';
  const kept: string[] = [];
  for (const part of parts) {
    const line = [...kept, part].join(', ');
    if (kept.length === MAX_PARTS || (kept.length > 0 && line.length + more.length > MAX_SUMMARY)) break;
    kept.push(part);
  }
  const line = kept.join(', ') + (kept.length < parts.length ? more : '');
  return line.length <= MAX_SUMMARY ? line : `${line.slice(0, MAX_SUMMARY - 1)}…`;
}
