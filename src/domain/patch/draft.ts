/**
 * The patch's working copy of the scene: elements copied on first change,
 * removals and changes tracked so each changed element is stamped once, and an
 * index of who refers to whom so cascades need no scan of the scene.
 */
import { type SceneElement, touch, type WriteStamp } from '../edit/types.ts';
import { indexKeyFor, isIndexKey } from '../scene/elements.ts';
import { bindingOf, ENDS, isLinear } from './element-geometry.ts';

/** References between elements, by id, each list possibly stale: callers check the element still refers. */
export interface Relations {
  /** Container id → the texts whose containerId names it. */
  labels: Map<string, string[]>;
  /** Element id → the linear elements bound to it at an end. */
  arrows: Map<string, string[]>;
  /** Frame id → the elements whose frameId names it. */
  members: Map<string, string[]>;
  /** Group id → the images in it. */
  images: Map<string, string[]>;
  /** Innermost group id → the lines and ellipses in it: the outline lines and marker dots drawn with a shape. */
  parts: Map<string, string[]>;
}

function indexRelations(elements: Iterable<SceneElement>): Relations {
  const relations: Relations = { labels: new Map(), arrows: new Map(), members: new Map(), images: new Map(), parts: new Map() };
  const note = (map: Map<string, string[]>, key: string, id: string) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const e of elements) {
    if (e.type === 'text' && typeof e.containerId === 'string') note(relations.labels, e.containerId, e.id);
    if (typeof e.frameId === 'string') note(relations.members, e.frameId, e.id);
    if (e.type === 'image' && Array.isArray(e.groupIds)) for (const group of e.groupIds) if (typeof group === 'string') note(relations.images, group, e.id);
    if ((e.type === 'line' || e.type === 'ellipse') && Array.isArray(e.groupIds) && typeof e.groupIds[0] === 'string') note(relations.parts, e.groupIds[0], e.id);
    if (isLinear(e)) {
      const targets = new Set(ENDS.map((end) => bindingOf(e, end)?.elementId).filter((id) => id !== undefined));
      for (const target of targets) note(relations.arrows, target, e.id);
    }
  }
  return relations;
}

/** Arrow points one patch may re-route in all: a few seconds of work at most. */
export const MAX_ROUTED_POINTS = 10_000_000;

/** A patch re-routed more arrow points than MAX_ROUTED_POINTS. */
export class RoutingExhausted extends Error {}

/**
 * The scene being patched: a copy of the input array whose elements are
 * copied on first change, with removals and changes tracked by slot so that
 * each changed element is stamped once at the end.
 */
export class Draft {
  private readonly slots: SceneElement[];
  private readonly slotOf = new Map<string, number>();
  private readonly owned = new Set<number>();
  private readonly removed = new Set<number>();
  private readonly changed = new Set<number>();
  private lastIndex: string | null = null;
  private relationIndex: Relations | null = null;
  /** Slots changed since the last `mark`: what one op touched. */
  private readonly recent = new Set<number>();
  /** Arrow points a patch may still re-route (see spendRouting). */
  private routingLeft = MAX_ROUTED_POINTS;

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
    this.recent.add(slot);
    return this.slots[slot]!;
  }

  /** Starts a new op: `touched` lists what is changed from here on. */
  mark(): void {
    this.recent.clear();
  }

  /** The live elements changed since the last mark. */
  touched(): SceneElement[] {
    return [...this.recent].filter((slot) => !this.removed.has(slot)).map((slot) => this.slots[slot]!);
  }

  /**
   * Counts the points of an arrow about to be re-routed against the patch's
   * allowance, so that no patch can take unbounded time (500 moves of a hub
   * with thousands of long arrows); past it, RoutingExhausted is thrown.
   */
  spendRouting(points: number): void {
    this.routingLeft -= points;
    if (this.routingLeft < 0) throw new RoutingExhausted();
  }

  insert(element: SceneElement): void {
    const slot = this.slots.push(element) - 1;
    this.slotOf.set(element.id, slot);
    this.owned.add(slot);
    this.changed.add(slot);
    this.recent.add(slot);
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

  /** The fractional index of element `id` appended now: after every index in the scene, so it sorts last (indexKeyFor). */
  nextIndex(id: string): string {
    this.lastIndex = indexKeyFor(id, this.lastIndex);
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
