/**
 * Keeps the editor and the server's copy of one diagram in step: saves a
 * moment after the last change, guarded by `expectedUpdatedAt` so a newer
 * version is never overwritten; reloads when the diagram's revision moves on
 * elsewhere; and reports the save state the top bar shows. No React and no
 * Excalidraw here: the editor is reached through `EditorHandle`.
 *
 * Network work runs one step at a time (`pump`), so a save and a reload never
 * race each other, and a revision event that arrives while our own save is in
 * flight is judged against the revision that save produced.
 */

export interface DiagramDocument {
  id: string;
  title: string;
  docUpdatedAt: string;
  scene: { elements: unknown[]; appState?: Record<string, unknown> };
  /** The images the scene's catalog icons show, in the editor's `files` form. */
  files?: Record<string, unknown>;
}

/** The few things the sync needs from the editor. */
export interface EditorHandle {
  /** A number that changes whenever any element changes (deletions included). */
  contentVersion(): number;
  /** The elements a save writes: the visible ones. */
  elementsToSave(): readonly unknown[];
  /** Replaces the editor's elements with the server's, outside the user's undo history. */
  replaceElements(elements: readonly unknown[], files?: Record<string, unknown>): void;
}

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'unsaved' }
  | { kind: 'saving' }
  /** Someone else changed the diagram; the editor shows their version. */
  | { kind: 'reloaded' }
  /** Our change was refused because the diagram had moved on; the editor shows the newer version. */
  | { kind: 'conflict' }
  /** An earlier revision was restored from the history panel; the editor shows it. */
  | { kind: 'restored' }
  /** A save or reload failed for a reason that may pass (network, server busy); it is retried. */
  | { kind: 'retrying'; message: string }
  /** A save was refused for a reason retrying cannot fix (signed out, too large, no access). */
  | { kind: 'failed'; message: string };

export interface DiagramSyncOptions {
  diagramId: string;
  csrfToken: string;
  /** Quiet time after the last change before saving. */
  debounceMs?: number;
  /** Wait before retrying a failed save or reload. */
  retryMs?: number;
  onState(state: SaveState): void;
  fetch?: typeof fetch;
}

export class ResponseError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_DEBOUNCE_MS = 800;
const DEFAULT_RETRY_MS = 5000;

/** Fetches a diagram for the signed-in user (`GET /app/api/diagrams/:id`). */
export async function fetchDiagram(diagramId: string, fetchFn: typeof fetch = fetch): Promise<DiagramDocument> {
  const response = await fetchFn(`/app/api/diagrams/${encodeURIComponent(diagramId)}`, {
    headers: { accept: 'application/json' },
    cache: 'no-store',
  });
  if (!response.ok) throw await responseError(response);
  return (await response.json()) as DiagramDocument;
}

/** A refused request as an error: its status, and the code and message of the app's JSON error when there is one. */
export async function responseError(response: Response): Promise<ResponseError> {
  let code: string | undefined;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { error?: string; message?: string };
    code = body.error;
    message = body.message ?? body.error ?? message;
  } catch {
    // Not JSON (a proxy's error page): the status line says enough.
  }
  return new ResponseError(response.status, code, message);
}

/** What a refused save means for the user, or null when retrying may succeed. */
function permanentFailure(error: unknown): string | null {
  if (!(error instanceof ResponseError)) return null;
  if (error.status === 401) return 'signed out — sign in again in another tab';
  if (error.status === 403) return error.code === 'csrf_failed' ? 'session changed — reload the page' : `not allowed: ${error.message}`;
  if (error.status === 404) return 'this diagram no longer exists';
  if (error.status === 413 || error.status === 422 || error.status === 400) return error.message;
  return null;
}

export class DiagramSync {
  private readonly options: Required<Omit<DiagramSyncOptions, 'onState'>> & Pick<DiagramSyncOptions, 'onState'>;
  private editor: EditorHandle | null = null;
  /** The revision the editor's content is based on (null only for a diagram never written since revisions began). */
  private baseUpdatedAt: string | null;
  /** `contentVersion()` of the content last saved or loaded; null until the editor shows the first load. */
  private baseVersion: number | null = null;
  /** The newest revision the server announced. */
  private announcedUpdatedAt: string | null = null;
  private saveRequested = false;
  /** A request to show the server's current version whatever the editor holds (`showLatest`). */
  private latestRequested: { after: SaveState; settled: () => void } | null = null;
  private debounceTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pumping = false;
  private stopped = false;
  private state: SaveState = { kind: 'saved' };

  constructor(options: DiagramSyncOptions, loaded: DiagramDocument) {
    this.options = {
      debounceMs: DEFAULT_DEBOUNCE_MS,
      retryMs: DEFAULT_RETRY_MS,
      fetch: globalThis.fetch.bind(globalThis),
      ...options,
    };
    this.baseUpdatedAt = loaded.docUpdatedAt;
  }

  /** Whether leaving the page now would lose work. */
  hasUnsavedWork(): boolean {
    return this.editor !== null && this.isDirty();
  }

  /**
   * Called on every editor change (the editor calls back for selection and
   * scrolling too, and after a reload: only a content change counts). The
   * first call, made once the editor shows the loaded scene, records what
   * "saved" looks like, normalisations the editor made on opening included.
   */
  changed(editor: EditorHandle): void {
    if (this.stopped) return;
    if (this.editor === null || this.baseVersion === null) {
      this.editor = editor;
      this.baseVersion = editor.contentVersion();
      void this.pump();
      return;
    }
    if (!this.isDirty()) {
      if (this.state.kind === 'unsaved') this.setState({ kind: 'saved' });
      return;
    }
    if (this.state.kind !== 'saving') this.setState({ kind: 'unsaved' });
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      this.saveRequested = true;
      void this.pump();
    }, this.options.debounceMs);
  }

  /**
   * The server announced the diagram's current revision (the `revision`
   * event). An announcement can arrive late: a poll that read the diagram just
   * before one of our own saves landed, or the stream's first event after the
   * editor has saved. Revisions only increase (ISO instants, one per write), so
   * one not newer than what we already know says nothing and is ignored.
   */
  revision(docUpdatedAt: string): void {
    if (this.announcedUpdatedAt !== null && docUpdatedAt <= this.announcedUpdatedAt) return;
    this.announcedUpdatedAt = docUpdatedAt;
    void this.pump();
  }

  /** The revision the editor's content is based on: the one a restore from the editor expects to replace. */
  basedOn(): string | null {
    return this.baseUpdatedAt;
  }

  /**
   * Shows the server's current version, dropping whatever the editor holds
   * (the person chose to replace it: a restore from the history panel), then
   * reports `after`. Runs in turn with saves and reloads; settles once done,
   * or once it failed (the sync then retries as after any failed step).
   */
  showLatest(after: SaveState): Promise<void> {
    return new Promise((settled) => {
      if (this.stopped || this.editor === null) return settled();
      this.latestRequested?.settled();
      this.latestRequested = { after, settled };
      void this.pump();
    });
  }

  /** The server said the diagram is gone (deleted, or no longer shared with this user): nothing more can be saved. */
  gone(): void {
    this.setState({ kind: 'failed', message: 'this diagram was deleted or is no longer shared with you' });
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    this.latestRequested?.settled();
    this.latestRequested = null;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private isDirty(): boolean {
    return this.editor !== null && this.baseVersion !== null && this.editor.contentVersion() !== this.baseVersion;
  }

  /** Whether the server holds a revision newer than the one the editor's content is based on. */
  private remoteMovedOn(): boolean {
    return this.announcedUpdatedAt !== null && (this.baseUpdatedAt === null || this.announcedUpdatedAt > this.baseUpdatedAt);
  }

  private setState(state: SaveState): void {
    const unchanged = state.kind === this.state.kind && ('message' in state ? state.message : '') === ('message' in this.state ? this.state.message : '');
    if (unchanged) return;
    this.state = state;
    this.options.onState(state);
  }

  /** Runs whatever is due, one network step at a time, until nothing is. */
  private async pump(): Promise<void> {
    if (this.pumping || this.stopped || this.editor === null) return;
    this.pumping = true;
    try {
      while (!this.stopped) {
        if (this.latestRequested) {
          const { after, settled } = this.latestRequested;
          this.latestRequested = null;
          this.saveRequested = false;
          const done = await this.step(() => this.reload(after, { dropLocalChanges: true }));
          settled();
          if (!done) break;
          continue;
        }
        // Local changes go first, even when the server moved on: the save then
        // answers 409 and the user is told their change conflicted.
        if ((this.saveRequested || this.remoteMovedOn()) && this.isDirty()) {
          this.saveRequested = false;
          if (!(await this.step(() => this.save()))) break;
        } else if (this.remoteMovedOn()) {
          this.saveRequested = false;
          if (!(await this.step(() => this.reload({ kind: 'reloaded' })))) break;
        } else {
          this.saveRequested = false;
          break;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Runs one step; on failure shows why and, when it may pass, schedules another try. */
  private async step(run: () => Promise<void>): Promise<boolean> {
    try {
      await run();
      return true;
    } catch (error) {
      const permanent = permanentFailure(error);
      if (permanent !== null) {
        this.setState({ kind: 'failed', message: permanent });
        return false;
      }
      this.setState({ kind: 'retrying', message: error instanceof Error ? error.message : String(error) });
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.saveRequested = true;
        void this.pump();
      }, this.options.retryMs);
      return false;
    }
  }

  private async save(): Promise<void> {
    const editor = this.editor!;
    const version = editor.contentVersion();
    const elements = editor.elementsToSave();
    this.setState({ kind: 'saving' });
    const response = await this.options.fetch(`/app/api/diagrams/${encodeURIComponent(this.options.diagramId)}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': this.options.csrfToken },
      body: JSON.stringify({ elements, expectedUpdatedAt: this.baseUpdatedAt }),
    });
    if (response.status === 409) {
      await this.reload({ kind: 'conflict' });
      return;
    }
    if (!response.ok) throw await responseError(response);
    const { docUpdatedAt } = (await response.json()) as { docUpdatedAt: string };
    this.baseUpdatedAt = docUpdatedAt;
    this.baseVersion = version;
    // Changes made while the save was in flight are saved after the usual pause.
    if (this.isDirty()) this.changed(editor);
    else this.setState({ kind: 'saved' });
  }

  /**
   * Shows the server's current version in the editor; `after` is the state to
   * report. A local change it replaces is a conflict, unless the person chose
   * to drop local changes.
   */
  private async reload(after: SaveState, { dropLocalChanges = false } = {}): Promise<void> {
    const latest = await fetchDiagram(this.options.diagramId, this.options.fetch);
    const editor = this.editor!;
    // A change made while the newer version was on its way is lost with it: say so.
    const lostLocalChange = !dropLocalChanges && this.isDirty();
    editor.replaceElements(latest.scene.elements, latest.files);
    this.baseUpdatedAt = latest.docUpdatedAt;
    this.baseVersion = editor.contentVersion();
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
    this.setState(lostLocalChange ? { kind: 'conflict' } : after);
  }
}
