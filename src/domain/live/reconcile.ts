/**
 * How several people's copies of one scene become one: per element, the
 * editor's own reconcile rule (Excalidraw's `reconcileElements`). An incoming
 * element replaces the current one unless the current one is newer (a higher
 * `version`) or, at the same version, has the lower `versionNonce`. Deleted
 * elements stay as tombstones (`isDeleted: true`) so that a stale copy
 * arriving later cannot bring them back. The merged scene is ordered by the
 * elements' fractional `index`, as the editor orders it.
 *
 * The editor takes the incoming element when version and nonce are both
 * equal; here such a tie (two different contents under one version and nonce,
 * which no editor produces) is broken by the content itself, so merging is
 * commutative and every server and client ends with the same scene whatever
 * order changes reach it in.
 */
import type { SceneElement } from '../edit/types.ts';

/** An element of a live scene: what the editor sends, with its version clock. */
export type LiveElement = SceneElement & { version?: unknown; versionNonce?: unknown; isDeleted?: unknown; index?: unknown };

const versionOf = (element: LiveElement): number => (typeof element.version === 'number' && Number.isFinite(element.version) ? element.version : 0);
const nonceOf = (element: LiveElement): number => (typeof element.versionNonce === 'number' && Number.isFinite(element.versionNonce) ? element.versionNonce : 0);

export const isDeleted = (element: LiveElement): boolean => element.isDeleted === true;

/**
 * Whether `incoming` wins over `current` (the element of the same id held
 * now): a higher version, or at the same version the lower nonce, or, with
 * both equal, the content that sorts first as JSON text.
 */
export function wins(incoming: LiveElement, current: LiveElement | undefined): boolean {
  if (current === undefined) return true;
  const [vi, vc] = [versionOf(incoming), versionOf(current)];
  if (vi !== vc) return vi > vc;
  const [ni, nc] = [nonceOf(incoming), nonceOf(current)];
  if (ni !== nc) return ni < nc;
  const [ji, jc] = [JSON.stringify(incoming), JSON.stringify(current)];
  return ji !== jc && ji < jc;
}

/**
 * A scene held as elements by id, tombstones included: what a live room
 * holds. `merge` takes the winners of a batch of incoming elements and
 * returns them (the changes others have to hear about); losers change nothing.
 */
export class LiveScene {
  private readonly byId = new Map<string, LiveElement>();

  constructor(elements: Iterable<LiveElement> = []) {
    for (const element of elements) this.merge([element]);
  }

  /** Merges incoming elements by the rule; returns those that won, in the order given (the last of one id wins within a batch by the same rule). */
  merge(incoming: Iterable<LiveElement>): LiveElement[] {
    const won = new Map<string, LiveElement>();
    for (const element of incoming) {
      if (wins(element, this.byId.get(element.id))) {
        this.byId.set(element.id, element);
        won.set(element.id, element);
      }
    }
    return [...won.values()];
  }

  get(id: string): LiveElement | undefined {
    return this.byId.get(id);
  }

  /** Every element held, tombstones included, in scene order. */
  all(): LiveElement[] {
    return orderByIndex([...this.byId.values()]);
  }

  /** The elements a person sees (no tombstones), in scene order. */
  visible(): LiveElement[] {
    return this.all().filter((e) => !isDeleted(e));
  }

  get size(): number {
    return this.byId.size;
  }
}

/**
 * Elements in the editor's order: by fractional `index`, then by id for equal
 * indices; elements without an index (scenes written before indices existed)
 * keep their relative order after the indexed ones.
 */
export function orderByIndex<T extends LiveElement>(elements: readonly T[]): T[] {
  const indexed = elements.filter((e) => typeof e.index === 'string');
  const rest = elements.filter((e) => typeof e.index !== 'string');
  indexed.sort((a, b) => {
    const [ia, ib] = [a.index as string, b.index as string];
    if (ia !== ib) return ia < ib ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return [...indexed, ...rest];
}

/**
 * A stored scene (visible elements only) with live changes merged in, by the
 * rule: changes that win replace or add their element, winning tombstones
 * remove it. What a live room writes, inside the write's transaction, over
 * whatever the store holds then; returns the next scene and whether it differs.
 */
export function mergeIntoStored(stored: readonly LiveElement[], changes: readonly LiveElement[]): { elements: LiveElement[]; changed: boolean } {
  const scene = new LiveScene(stored);
  const held = new Set(stored.map((e) => e.id));
  // A winning tombstone of an element the store does not hold changes nothing it holds.
  const changed = scene.merge(changes).some((e) => !isDeleted(e) || held.has(e.id));
  return { elements: changed ? scene.visible() : [...stored], changed };
}
