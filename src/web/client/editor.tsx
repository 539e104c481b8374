/**
 * The editor page's app: the diagram in the Excalidraw editor, full window,
 * under a small bar with its title, the save state, the history and the way
 * back to the dashboard. The server-rendered page holds
 * `<div id="editor" data-diagram-id="…" data-csrf-token="…">`.
 * Saving and live updates live in diagram-sync.ts; the history panel in
 * history-panel.tsx.
 *
 * Previewing a revision puts the live scene aside (`LiveScene`) and shows the
 * revision read-only; "Back to current" puts the live scene back. While it is
 * aside, the sync works on it as if it were on the canvas: a pending save
 * still saves it, and a change made elsewhere replaces it, not the preview.
 */
import './excalidraw-asset-path.ts';
import { CaptureUpdateAction, Excalidraw, hashElementsVersion, restoreElements } from '@excalidraw/excalidraw';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type DiagramDocument, DiagramSync, type EditorHandle, fetchDiagram, ResponseError, type SaveState } from './diagram-sync.ts';
import { exactTime, fetchRevision, type RevisionItem, relativeTime, restoreRevision } from './history-api.ts';
import { fittedView } from './fit-view.ts';
import { HistoryPanel } from './history-panel.tsx';
import { CANVAS_ACTIONS, EditorMainMenu } from './main-menu.tsx';
import { ShareDialog } from './share-dialog.tsx';

/** The members of the editor's imperative API used here. */
interface ExcalidrawApi {
  getSceneElements(): readonly unknown[];
  getSceneElementsIncludingDeleted(): readonly unknown[];
  getAppState(): { scrollX: number; scrollY: number; zoom: unknown };
  updateScene(scene: { elements?: readonly unknown[]; appState?: Record<string, unknown>; captureUpdate: unknown }): void;
  addFiles(files: unknown[]): void;
  scrollToContent(target?: unknown, options?: { fitToContent?: boolean; animate?: boolean }): void;
}

/** The person's scene and view, put aside while a revision is previewed. */
interface LiveScene {
  /** All elements, deleted ones included: put back as they were, the undo history still fits them. */
  elements: readonly unknown[];
  view: { scrollX: number; scrollY: number; zoom: unknown };
}

/** The revision on the canvas instead of the live scene. */
interface Preview {
  item: RevisionItem;
}

const DASHBOARD_URL = '/app';
/** A save carries elements only, not image files: an inserted image would not survive a reload. */
const UI_OPTIONS = { tools: { image: false }, canvasActions: CANVAS_ACTIONS };
/** The editor's own top bar above the canvas (editor.css, `.db-topbar`). */
const TOP_BAR_HEIGHT = 40;

/** The sync's view of the editor: the canvas, or the live scene while it is aside. */
function editorHandle(api: ExcalidrawApi, aside: { current: LiveScene | null }): EditorHandle {
  return {
    contentVersion: () => hashElementsVersion(aside.current?.elements ?? api.getSceneElementsIncludingDeleted()),
    elementsToSave: () => (aside.current ? aside.current.elements.filter((element) => !(element as { isDeleted?: boolean }).isDeleted) : api.getSceneElements()),
    replaceElements: (elements, files) => {
      if (files) api.addFiles(Object.values(files));
      const restored = restoreElements(elements, null, { repairBindings: true });
      if (aside.current) aside.current = { ...aside.current, elements: restored };
      else api.updateScene({ elements: restored, captureUpdate: CaptureUpdateAction.NEVER });
    },
  };
}

/** A failed history request in a sentence. */
function historyFailure(error: unknown, doing: string): string {
  if (error instanceof ResponseError && error.status === 409) return 'The diagram changed in the meantime: nothing was restored. Look at the newest version first.';
  if (error instanceof ResponseError && error.status === 401) return 'You are signed out. Sign in again in another tab.';
  return `Could not ${doing}: ${error instanceof Error ? error.message : String(error)}`;
}

function saveStateLabel(state: SaveState): string {
  switch (state.kind) {
    case 'saved':
      return 'Saved';
    case 'unsaved':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'reloaded':
      return 'Changed elsewhere — reloaded';
    case 'conflict':
      return 'Conflict: your last change was not saved — showing the newer version';
    case 'restored':
      return 'Restored an earlier version';
    case 'retrying':
      return `Not saved (${state.message}) — retrying`;
    case 'failed':
      return `Not saved: ${state.message}`;
  }
}

function TopBar({ title, status, children }: { title: string; status: string | null; children?: ReactNode }) {
  return (
    <header className="db-topbar">
      <a className="db-back" href={DASHBOARD_URL}>
        ← Diagrams
      </a>
      <h1 className="db-title">{title}</h1>
      <span className="db-status" role="status">
        {status}
      </span>
      {children}
    </header>
  );
}

/** Over the canvas while a revision is previewed: which one, and the ways out. */
function PreviewBar({ item, canEdit, busy, onRestore, onBack }: { item: RevisionItem; canEdit: boolean; busy: boolean; onRestore(): void; onBack(): void }) {
  return (
    <div className="db-preview-bar" role="region" aria-label="Preview">
      <span className="db-preview-label">
        Previewing <time dateTime={item.at}>{exactTime(item.at)}</time>
        <span className="db-preview-relative"> · {relativeTime(item.at, Date.now())}</span>
      </span>
      {canEdit && (
        <button type="button" className="db-button db-button-primary" disabled={busy} onClick={onRestore}>
          {busy ? 'Restoring…' : 'Restore'}
        </button>
      )}
      <button type="button" className="db-button" disabled={busy} onClick={onBack}>
        Back to current
      </button>
    </div>
  );
}

function Editor({ diagram, csrfToken, canEdit }: { diagram: DiagramDocument; csrfToken: string; canEdit: boolean }) {
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const [historyOpen, setHistoryOpen] = useState(false);
  // The dashboard's Share links open the editor at #share when its script has not loaded.
  const [shareOpen, setShareOpen] = useState(() => window.location.hash === '#share');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [revisionClock, setRevisionClock] = useState<string | null>(null);
  const [historyRefresh, setHistoryRefresh] = useState(0);
  const api = useRef<ExcalidrawApi | null>(null);
  const handle = useRef<EditorHandle | null>(null);
  const aside = useRef<LiveScene | null>(null);
  /** Set while a restore replaces the canvas: its changes are the server's, not the person's. */
  const replacing = useRef(false);
  /** Counts preview requests: only the latest one may take the canvas. */
  const previewRequest = useRef(0);
  const sync = useMemo(() => new DiagramSync({ diagramId: diagram.id, csrfToken, onState: setSaveState }, diagram), [diagram, csrfToken]);
  const initialData = useMemo(
    () => ({
      elements: diagram.scene.elements,
      files: diagram.files ?? {},
      appState: { viewBackgroundColor: '#ffffff', ...fittedView(diagram.scene.elements, { width: window.innerWidth, height: window.innerHeight - TOP_BAR_HEIGHT }) },
    }),
    [diagram],
  );

  // Stable callbacks: the editor then does not re-render when only the save state changes.
  const onApi = useCallback((excalidraw: ExcalidrawApi) => {
    api.current = excalidraw;
    handle.current = editorHandle(excalidraw, aside);
  }, []);
  const onChange = useCallback(() => {
    // Someone who may only read sees the editor in view mode, and nothing is ever saved; a preview is never saved either.
    if (canEdit && handle.current && aside.current === null && !replacing.current) sync.changed(handle.current);
  }, [sync, canEdit]);

  const backToCurrent = useCallback(() => {
    previewRequest.current++;
    const live = aside.current;
    if (live && api.current) {
      api.current.updateScene({ elements: live.elements, appState: { ...live.view, selectedElementIds: {} }, captureUpdate: CaptureUpdateAction.NEVER });
    }
    aside.current = null;
    setPreview(null);
    setNotice(null);
  }, []);

  const showRevision = useCallback(
    async (item: RevisionItem, isCurrent: boolean) => {
      if (isCurrent) return backToCurrent();
      const request = ++previewRequest.current;
      setNotice(null);
      try {
        const revision = await fetchRevision(diagram.id, item.rev);
        const excalidraw = api.current;
        if (request !== previewRequest.current || !excalidraw) return;
        if (aside.current === null) {
          const { scrollX, scrollY, zoom } = excalidraw.getAppState();
          aside.current = { elements: excalidraw.getSceneElementsIncludingDeleted(), view: { scrollX, scrollY, zoom } };
        }
        excalidraw.addFiles(Object.values(revision.files));
        excalidraw.updateScene({
          elements: restoreElements(revision.scene.elements, null, { repairBindings: true }),
          appState: { selectedElementIds: {} },
          captureUpdate: CaptureUpdateAction.NEVER,
        });
        excalidraw.scrollToContent(undefined, { fitToContent: false, animate: false });
        setPreview({ item });
      } catch (error) {
        if (request === previewRequest.current) setNotice(historyFailure(error, 'load that version'));
      }
    },
    [diagram.id, backToCurrent],
  );

  const restore = useCallback(async () => {
    if (!preview) return;
    const expected = sync.basedOn();
    if (expected === null) return;
    setRestoring(true);
    setNotice(null);
    try {
      await restoreRevision(diagram.id, preview.item.rev, csrfToken, expected);
      // The restored content becomes the live scene; what was put aside is replaced, as the person chose.
      previewRequest.current++;
      replacing.current = true;
      aside.current = null;
      await sync.showLatest({ kind: 'restored' });
      setPreview(null);
      setHistoryRefresh((n) => n + 1);
    } catch (error) {
      setNotice(historyFailure(error, 'restore that version'));
      setHistoryRefresh((n) => n + 1);
    } finally {
      replacing.current = false;
      setRestoring(false);
    }
  }, [preview, sync, diagram.id, csrfToken]);

  useEffect(() => {
    const events = new EventSource(`/app/api/diagrams/${encodeURIComponent(diagram.id)}/events`);
    events.addEventListener('revision', (event) => {
      const { docUpdatedAt } = JSON.parse((event as MessageEvent<string>).data) as { docUpdatedAt: string };
      sync.revision(docUpdatedAt);
      setRevisionClock(docUpdatedAt);
    });
    // The server announces the current revision on every (re)connection, so nothing missed while away is lost.
    events.addEventListener('gone', () => {
      events.close();
      sync.gone();
    });
    const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
      if (sync.hasUnsavedWork()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warnBeforeLeaving);
    return () => {
      events.close();
      sync.stop();
      window.removeEventListener('beforeunload', warnBeforeLeaving);
    };
  }, [sync, diagram.id]);

  const closeHistory = useCallback(() => {
    backToCurrent();
    setHistoryOpen(false);
  }, [backToCurrent]);

  return (
    <div className="db-editor">
      <TopBar title={diagram.title} status={canEdit ? saveStateLabel(saveState) : 'View only'}>
        <button type="button" className="db-button db-share-toggle" onClick={() => setShareOpen(true)}>
          Share
        </button>
        <button
          type="button"
          className="db-button db-history-toggle"
          aria-pressed={historyOpen}
          onClick={() => (historyOpen ? closeHistory() : setHistoryOpen(true))}
        >
          History
        </button>
      </TopBar>
      <div className="db-workspace">
        <div className={preview ? 'db-canvas db-canvas-previewing' : 'db-canvas'}>
          <Excalidraw initialData={initialData} excalidrawAPI={onApi} onChange={onChange} UIOptions={UI_OPTIONS} viewModeEnabled={!canEdit || preview !== null}>
            <EditorMainMenu onShare={() => setShareOpen(true)} onHistory={() => setHistoryOpen(true)} />
          </Excalidraw>
          {preview && <PreviewBar item={preview.item} canEdit={canEdit} busy={restoring} onRestore={() => void restore()} onBack={backToCurrent} />}
          {notice !== null && (
            <p className="db-notice" role="alert">
              {notice}
            </p>
          )}
        </div>
        {historyOpen && (
          <HistoryPanel
            diagramId={diagram.id}
            revisionClock={revisionClock}
            previewing={preview?.item.rev ?? null}
            refreshKey={historyRefresh}
            onSelect={(item, isCurrent) => void showRevision(item, isCurrent)}
            onClose={closeHistory}
          />
        )}
      </div>
      {shareOpen && <ShareDialog diagramId={diagram.id} csrfToken={csrfToken} onClose={() => setShareOpen(false)} />}
    </div>
  );
}

function LoadFailed({ error }: { error: unknown }) {
  const message =
    error instanceof ResponseError && (error.status === 404 || error.status === 403)
      ? 'This diagram does not exist, or it is not yours to edit.'
      : error instanceof ResponseError && error.status === 401
        ? 'You are signed out. Sign in and open the diagram again.'
        : 'The diagram could not be loaded. Reload the page to try again.';
  return (
    <div className="db-editor">
      <TopBar title="Diagram" status={null} />
      <p className="db-message">{message}</p>
    </div>
  );
}

async function start(): Promise<void> {
  const mount = document.getElementById('editor');
  const diagramId = mount?.dataset.diagramId;
  if (!mount || !diagramId) throw new Error('the page has no #editor element with data-diagram-id');
  const csrfToken = mount.dataset.csrfToken ?? '';
  const root = createRoot(mount);
  try {
    const diagram = await fetchDiagram(diagramId);
    document.title = `${diagram.title} — Drawbridge`;
    root.render(<Editor diagram={diagram} csrfToken={csrfToken} canEdit={mount.dataset.canEdit === 'true'} />);
  } catch (error) {
    root.render(<LoadFailed error={error} />);
  }
}

void start();
