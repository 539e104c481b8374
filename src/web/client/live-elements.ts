/**
 * The element side of live collaboration: which of the person's elements the
 * room does not have yet, and how the room's elements join the person's
 * scene. No React and no socket here; the editor's own functions
 * (`reconcileElements`, `restoreElements`) come in as `EditorFunctions`, the
 * scene as `SceneAccess`.
 *
 * The merge is the editor's: per element, the copy with the higher `version`
 * wins, and of two with the same version the lower `versionNonce`; the
 * element the person is editing right now (typing into, resizing, drawing)
 * stays theirs whatever arrives. Elements only the person has are always
 * kept. The server applies the same rule, so every copy converges.
 *
 * What the room has is tracked per element by its stamp (version and nonce):
 * an element whose stamp differs from the room's copy is sent, deletions
 * included. An element is known to be in the room once the room sent it, or
 * once the server said the message carrying it was stored (`saved`); an
 * element only sent might have been lost with the connection.
 */
import type { SceneElement } from './live-protocol.ts';

/** The editor's own functions the merge relies on (from @excalidraw/excalidraw). */
export interface EditorFunctions {
  /** `reconcileElements(local, remote, appState)`: the remote copies merged into the local scene, ordered. */
  reconcileElements(local: readonly SceneElement[], remote: readonly SceneElement[], appState: unknown): SceneElement[];
  /** `restoreElements(elements, null)`: elements from elsewhere made fit for the editor. */
  restoreElements(elements: readonly SceneElement[]): SceneElement[];
  /** An element too small to see (a click with the rectangle tool): the editor drops these, so they are never sent. */
  isInvisiblySmallElement(element: SceneElement): boolean;
}

/** The scene live changes are merged into: the canvas, or the person's scene while it is put aside. */
export interface SceneAccess {
  /** Every element, deleted ones included. */
  elements(): readonly SceneElement[];
  /** The editor's state, for the merge to see what the person is editing right now. */
  editingState(): unknown;
  /** Shows these elements, outside the person's undo history. */
  replace(elements: readonly SceneElement[]): void;
}

interface KnownCopy {
  version: number;
  versionNonce: number;
  /** The room has this copy: it sent it, or said it stored it. */
  inRoom: boolean;
  /** The message that sent it, until the server says it was stored. */
  seq?: number;
}

interface SentBatch {
  /** Each element sent, with what was known of it before. */
  previous: Array<[string, KnownCopy | undefined]>;
}

const sameCopy = (known: KnownCopy | undefined, element: SceneElement) =>
  known !== undefined && known.version === element.version && known.versionNonce === element.versionNonce;

/** The editor's scene order: by fractional index, then id. */
function byIndex(a: SceneElement, b: SceneElement): number {
  if (!a.index || !b.index) return 0;
  if (a.index !== b.index) return a.index < b.index ? -1 : 1;
  return a.id < b.id ? -1 : 1;
}

export class ElementSync {
  private readonly editor: EditorFunctions;
  private readonly known = new Map<string, KnownCopy>();
  private readonly sent = new Map<number, SentBatch>();

  /** `loaded`: the scene as the server stored it when the page read it. */
  constructor(editor: EditorFunctions, loaded: readonly SceneElement[]) {
    this.editor = editor;
    for (const element of loaded) this.remember(element, true);
  }

  /**
   * The room's scene on (re)connecting. Elements the room had that are gone
   * from its scene were deleted while this page was away, unless the person
   * changed them since; elements the person has not changed since the room
   * had them take the room's copy whatever its version (the store keeps no
   * tombstones, so an element deleted here and added again elsewhere while
   * this page was away comes back at a lower version than the tombstone this
   * page holds, and that stale tombstone must not delete it again);
   * everything else the person has is kept, and sent by the next `take`.
   * What was sent and not yet stored is judged afresh against this scene.
   */
  welcome(scene: SceneAccess, roomElements: readonly SceneElement[]): void {
    const inRoom = new Set(roomElements.map((element) => element.id));
    const local = scene.elements().flatMap((element) => {
      const known = this.known.get(element.id);
      const unchanged = known?.inRoom === true && sameCopy(known, element);
      // The room's copy replaces it in the merge below.
      if (unchanged && inRoom.has(element.id)) return [];
      const deletedElsewhere = !element.isDeleted && !inRoom.has(element.id) && unchanged;
      return [deletedElsewhere ? { ...element, isDeleted: true } : element];
    });
    this.known.clear();
    this.sent.clear();
    for (const element of roomElements) this.remember(element, true);
    this.merge(scene, local, roomElements);
  }

  /**
   * A write replaced the whole scene: the room's elements become the scene,
   * replacing everything the person had, changes not yet sent or stored
   * included (they were made on the scene replaced).
   */
  replaceAll(scene: SceneAccess, roomElements: readonly SceneElement[]): void {
    this.known.clear();
    this.sent.clear();
    for (const element of roomElements) this.remember(element, true);
    scene.replace(this.editor.restoreElements([...roomElements].sort(byIndex)));
  }

  /** Elements the room sends: someone else's changes, or writes made through the API. */
  receive(scene: SceneAccess, roomElements: readonly SceneElement[]): void {
    for (const element of roomElements) this.remember(element, true);
    this.merge(scene, scene.elements(), roomElements);
  }

  /** The elements the room does not have as the scene has them, in scene order. */
  changes(scene: SceneAccess): SceneElement[] {
    return scene.elements().filter((element) => {
      const known = this.known.get(element.id);
      if (sameCopy(known, element)) return false;
      // A deletion matters only for an element the room may have.
      if (element.isDeleted) return known !== undefined;
      return !this.editor.isInvisiblySmallElement(element);
    });
  }

  /** The changes to send now as message `seq`, remembered as sent (empty: nothing to send). */
  take(scene: SceneAccess, seq: number): SceneElement[] {
    const changes = this.changes(scene);
    if (changes.length === 0) return changes;
    this.sent.set(seq, { previous: changes.map((element) => [element.id, this.known.get(element.id)]) });
    for (const element of changes) this.known.set(element.id, { version: element.version, versionNonce: element.versionNonce, inRoom: false, seq });
    return changes;
  }

  /** The server stored every message up to `upTo`. */
  saved(upTo: number): void {
    for (const [seq, batch] of this.sent) {
      if (seq > upTo) continue;
      for (const [id] of batch.previous) {
        const known = this.known.get(id);
        if (known?.seq === seq) this.known.set(id, { version: known.version, versionNonce: known.versionNonce, inRoom: true });
      }
      this.sent.delete(seq);
    }
  }

  /** The server refused message `seq` and changed nothing: its elements count as not sent. */
  refused(seq: number): void {
    const batch = this.sent.get(seq);
    if (!batch) return;
    for (const [id, previous] of batch.previous) {
      if (this.known.get(id)?.seq !== seq) continue;
      if (previous) this.known.set(id, previous);
      else this.known.delete(id);
    }
    this.sent.delete(seq);
  }

  /** Whether some change is not stored yet: not sent, or sent without an answer. */
  hasUnsaved(scene: SceneAccess): boolean {
    return this.sent.size > 0 || this.changes(scene).length > 0;
  }

  private remember(element: SceneElement, inRoom: boolean): void {
    this.known.set(element.id, { version: element.version, versionNonce: element.versionNonce, inRoom });
  }

  private merge(scene: SceneAccess, local: readonly SceneElement[], roomElements: readonly SceneElement[]): void {
    // In scene order, so the editor's restore keeps their fractional indices rather than renumbering them.
    const remote = this.editor.restoreElements([...roomElements].sort(byIndex));
    scene.replace(this.editor.reconcileElements(local, remote, scene.editingState()));
  }
}
