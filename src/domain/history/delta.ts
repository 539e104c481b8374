/**
 * The element-level difference between two scenes, small when a write touched
 * a few elements of a large scene: what a revision stores between snapshots,
 * and what a diff hands a client to apply.
 */
import type { SceneElement } from '../edit/types.ts';

export interface SceneDelta {
  /** Elements present after that were absent before or differ from before, as they are after. */
  upsert: SceneElement[];
  /** Ids present before and absent after. */
  remove: string[];
  /** The after order of ids, only when it is not: before's order minus `remove`, then the new ids in `upsert` order. */
  order?: string[];
}

/**
 * Whether two JSON values serialise alike, compared in place (no strings
 * built): the same keys in the same order with the same values. Stricter
 * than JSON only where it is safe to be: a key holding `undefined` differs
 * from a missing one, and NaN from itself.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function byId(elements: readonly SceneElement[]): Map<string, SceneElement> {
  const map = new Map<string, SceneElement>();
  for (const element of elements) map.set(element.id, element);
  return map;
}

/** The order applyDelta gives without an explicit `order`: before's minus the removed, then the new ones. */
function impliedOrder(before: readonly SceneElement[], removed: ReadonlySet<string>, upsert: readonly SceneElement[], beforeIds: ReadonlyMap<string, SceneElement>): string[] {
  const order: string[] = [];
  for (const element of before) if (!removed.has(element.id)) order.push(element.id);
  for (const element of upsert) if (!beforeIds.has(element.id)) order.push(element.id);
  return order;
}

/**
 * What turns `before` into `after`. Scenes have unique element ids (the
 * validator refuses duplicates); should either hold a duplicate anyway, the
 * delta is the whole of `after` with an explicit order, which is still exact.
 */
export function sceneDelta(before: readonly SceneElement[], after: readonly SceneElement[]): SceneDelta {
  const beforeIds = byId(before);
  const afterIds = byId(after);
  if (beforeIds.size !== before.length || afterIds.size !== after.length) {
    return { upsert: [...after], remove: before.map((e) => e.id), order: after.map((e) => e.id) };
  }
  const upsert: SceneElement[] = [];
  for (const element of after) {
    const previous = beforeIds.get(element.id);
    if (previous === undefined || !sameJson(previous, element)) upsert.push(element);
  }
  const remove = before.filter((e) => !afterIds.has(e.id)).map((e) => e.id);
  const implied = impliedOrder(before, new Set(remove), upsert, beforeIds);
  const delta: SceneDelta = { upsert, remove };
  if (implied.some((id, i) => id !== after[i]!.id)) delta.order = after.map((e) => e.id);
  return delta;
}

/** `before` with the delta applied: the scene the delta was taken to. Unchanged elements are shared, not copied. */
export function applyDelta(before: readonly SceneElement[], delta: SceneDelta): SceneElement[] {
  const removed = new Set(delta.remove);
  const beforeIds = byId(before);
  const current = new Map<string, SceneElement>();
  for (const element of before) if (!removed.has(element.id)) current.set(element.id, element);
  for (const element of delta.upsert) current.set(element.id, element);
  const order = delta.order ?? impliedOrder(before, removed, delta.upsert, beforeIds);
  // With an explicit order and duplicate ids, the upserted elements are the scene, in order.
  if (delta.order !== undefined && new Set(order).size !== order.length) return [...delta.upsert];
  return order.map((id) => {
    const element = current.get(id);
    if (element === undefined) throw new Error(`delta names element ${id} that neither scene holds`);
    return element;
  });
}

/** A revision's scene as the history keeps it: the JSON of the snapshot its chain starts at, then of each delta up to it. */
export interface SceneChain {
  snapshotJson: string;
  deltasJson: string[];
}

/** The elements a chain ends at. */
export function chainElements(chain: SceneChain): SceneElement[] {
  let elements = JSON.parse(chain.snapshotJson) as SceneElement[];
  for (const deltaJson of chain.deltasJson) elements = applyDelta(elements, JSON.parse(deltaJson) as SceneDelta);
  return elements;
}
