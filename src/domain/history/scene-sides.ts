/**
 * The scene before a delta and after it, read by id without building the
 * whole of `after`: one pass over `before` indexes it; the rest is what the
 * delta names. What describeDelta and its summary look things up in.
 */
import type { SceneElement } from '../edit/types.ts';
import type { SceneDelta } from './delta.ts';

export type Side = 'before' | 'after';

export class SceneSides {
  private readonly beforeIndex = new Map<string, number>();
  /** Ids of texts naming a container (their containerId), by container, in `before` and in the upserts. */
  private readonly beforeTexts = new Map<string, string[]>();
  private readonly upsertTexts = new Map<string, string[]>();
  private readonly upserts = new Map<string, SceneElement>();
  private readonly removeSet: Set<string>;
  private readonly orderSet: Set<string> | null;

  readonly elements: readonly SceneElement[];
  private readonly delta: SceneDelta;
  constructor(elements: readonly SceneElement[], delta: SceneDelta) {
    this.elements = elements;
    this.delta = delta;
    elements.forEach((element, index) => {
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

  /** The id's position in `before`; -1 when absent. */
  beforeIndexOf(id: string): number {
    return this.beforeIndex.get(id) ?? -1;
  }

  /** Whether applyDelta's result holds the id (as applyDelta decides it: an explicit order rules). */
  presentAfter(id: string): boolean {
    if (this.orderSet !== null) return this.orderSet.has(id);
    if (this.beforeIndex.has(id)) return !this.removeSet.has(id);
    return this.upserts.has(id);
  }

  after(id: string): SceneElement | undefined {
    if (!this.presentAfter(id)) return undefined;
    return this.upserts.get(id) ?? this.before(id);
  }

  get(side: Side, id: string): SceneElement | undefined {
    return side === 'before' ? this.before(id) : this.after(id);
  }

  /** Upserted ids, each once, in upsert order. */
  upsertIds(): string[] {
    return [...this.upserts.keys()];
  }

  /** Ids present before and absent after, in before order. */
  removedIds(): string[] {
    const candidates = new Set(this.delta.remove);
    if (this.orderSet !== null) for (const element of this.elements) candidates.add(element.id);
    return [...candidates].filter((id) => this.beforeIndex.has(id) && !this.presentAfter(id)).sort((a, b) => this.beforeIndexOf(a) - this.beforeIndexOf(b));
  }

  /** Whether an element is a label on that side: a text whose container is there and live. */
  isLabel(side: Side, element: SceneElement): boolean {
    return element.type === 'text' && typeof element.containerId === 'string' && isLive(this.get(side, element.containerId));
  }

  /** The live label of a container on one side: the text its boundElements lists, else any text naming it. */
  label(side: Side, containerId: string): SceneElement | undefined {
    const container = this.get(side, containerId);
    if (!isLive(container)) return undefined;
    const isItsLabel = (text: SceneElement | undefined): text is SceneElement => isLive(text) && text.type === 'text' && text.containerId === containerId;
    for (const ref of refsOf(container)) {
      const text = ref.type === 'text' ? this.get(side, ref.id) : undefined;
      if (isItsLabel(text)) return text;
    }
    const beforeTexts = this.beforeTexts.get(containerId) ?? [];
    const candidates = side === 'after' ? [...(this.upsertTexts.get(containerId) ?? []), ...beforeTexts] : beforeTexts;
    return candidates.map((id) => this.get(side, id)).find(isItsLabel);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Present and not marked deleted (the editor keeps deleted elements, flagged, for a while). */
export const isLive = (element: SceneElement | undefined): element is SceneElement => element !== undefined && element.isDeleted !== true;
export const isArrow = (element: SceneElement) => element.type === 'arrow';

function refsOf(element: SceneElement): { id: string; type: unknown }[] {
  if (!Array.isArray(element.boundElements)) return [];
  return (element.boundElements as unknown[]).filter((r): r is { id: string; type: unknown } => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string');
}

export type End = 'startBinding' | 'endBinding';

/** The id of the element an arrow end binds to, or null. */
export function endId(element: SceneElement, end: End): string | null {
  const binding = element[end];
  return typeof binding === 'object' && binding !== null && typeof (binding as { elementId?: unknown }).elementId === 'string' ? (binding as { elementId: string }).elementId : null;
}

export function endIds(element: SceneElement): string[] {
  return [endId(element, 'startBinding'), endId(element, 'endBinding')].filter((id): id is string => id !== null);
}

export function groupsOf(element: SceneElement): string[] {
  return Array.isArray(element.groupIds) ? (element.groupIds as unknown[]).filter((g): g is string => typeof g === 'string') : [];
}
