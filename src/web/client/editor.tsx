/**
 * The editor page's app: the diagram in the Excalidraw editor, full window,
 * under a small bar with its title, the save state, the history and the way
 * back to the dashboard. The server-rendered page holds
 * `<div id="editor" data-diagram-id="…" data-csrf-token="…">`.
 * Live collaboration (saving, others' changes, presence) lives in
 * live-editor.ts; the history panel in history-panel.tsx.
 *
 * Previewing a revision puts the live scene aside (`LiveScene`) and shows the
 * revision read-only; "Back to current" puts the live scene back. While it is
 * aside, live collaboration works on it as if it were on the canvas: changes
 * not yet sent still go out, and changes made elsewhere go into it, not into
 * the preview.
 */
import './excalidraw-asset-path.ts';
import { CaptureUpdateAction, Excalidraw, restoreElements } from '@excalidraw/excalidraw';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type DiagramDocument, fetchDiagram, fetchMermaid, ResponseError } from './diagram-api.ts';
import { exactTime, fetchRevision, type RevisionItem, relativeTime, restoreRevision } from './history-api.ts';
import { fittedView } from './fit-view.ts';
import { HistoryPanel } from './history-panel.tsx';
import { PeerAvatars } from './live-avatars.tsx';
import { liveStatusLabel, useLiveDiagram } from './live-editor.ts';
import { CANVAS_ACTIONS, EditorMainMenu } from './main-menu.tsx';
import { ShareDialog } from './share-dialog.tsx';

/** The members of the editor's imperative API used here. */
interface ExcalidrawApi {
  getSceneElements(): readonly unknown[];
  getSceneElementsIncludingDeleted(): readonly unknown[];
  getAppState(): { scrollX: number; scrollY: number; zoom: unknown };
  updateScene(scene: { elements?: readonly unknown[]; appState?: Record<string, unknown>; collaborators?: Map<any, any>; captureUpdate?: unknown }): void;
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

/** A failed history request in a sentence. */
function historyFailure(error: unknown, doing: string): string {
  if (error instanceof ResponseError && error.status === 409) return 'The diagram changed in the meantime: nothing was restored. Look at the newest version first.';
  if (error instanceof ResponseError && error.status === 401) return 'You are signed out. Sign in again in another tab.';
  return `Could not ${doing}: ${error instanceof Error ? error.message : String(error)}`;
}

function TopBar({ title, status, children }: { title: string; status: string | null; children?: ReactNode }) {
  return (
    <header className="db-topbar">
      <a className="db-back" href={DASHBOARD_URL} aria-label="Diagrams">
        ← <span className="db-back-text">Diagrams</span>
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

/** How long a notice that needs no answer (Copied as Mermaid) stays up. */
const NOTICE_MS = 4000;

function Editor({ diagram, csrfToken, canEdit: pageCanEdit }: { diagram: DiagramDocument; csrfToken: string; canEdit: boolean }) {
  const [historyOpen, setHistoryOpen] = useState(false);
  // The dashboard's Share links open the editor at #share when its script has not loaded.
  const [shareOpen, setShareOpen] = useState(() => window.location.hash === '#share');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [restoring, setRestoring] = useState(false);
  /** Set by a restore, until the person changes something: the top bar says what happened. */
  const [restored, setRestored] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [historyRefresh, setHistoryRefresh] = useState(0);
  const api = useRef<ExcalidrawApi | null>(null);
  const aside = useRef<LiveScene | null>(null);
  /** Counts preview requests: only the latest one may take the canvas. */
  const previewRequest = useRef(0);
  const live = useLiveDiagram(diagram, pageCanEdit ? 'editor' : 'viewer', aside);
  const canEdit = live.role === 'editor' && live.status.kind !== 'gone';
  const initialData = useMemo(
    () => ({
      elements: diagram.scene.elements,
      files: diagram.files ?? {},
      appState: { viewBackgroundColor: '#ffffff', ...fittedView(diagram.scene.elements, { width: window.innerWidth, height: window.innerHeight - TOP_BAR_HEIGHT }) },
    }),
    [diagram],
  );

  // Stable callbacks: the editor then does not re-render when only the save state changes.
  const { onCanvas } = live;
  const onApi = useCallback(
    (excalidraw: ExcalidrawApi) => {
      api.current = excalidraw;
      onCanvas(excalidraw);
    },
    [onCanvas],
  );
  useEffect(() => {
    if (live.status.kind === 'saving') setRestored(false);
  }, [live.status]);

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
    setRestoring(true);
    setNotice(null);
    try {
      await restoreRevision(diagram.id, preview.item.rev, csrfToken, live.revision());
      // The restore is a write like any other: its elements arrive over the live socket, into the
      // live scene whether or not it is still aside, and win over the older copies there.
      backToCurrent();
      setRestored(true);
      setHistoryRefresh((n) => n + 1);
    } catch (error) {
      setNotice(historyFailure(error, 'restore that version'));
      setHistoryRefresh((n) => n + 1);
    } finally {
      setRestoring(false);
    }
  }, [preview, live, diagram.id, csrfToken, backToCurrent]);

  /** The diagram as a Mermaid flowchart on the clipboard: the server's copy, which the live connection keeps current. */
  const copyMermaid = useCallback(async () => {
    try {
      const { text, leftOut } = await fetchMermaid(diagram.id);
      await navigator.clipboard.writeText(text);
      setNotice(`Copied as Mermaid${leftOut > 0 ? ` (${leftOut} ${leftOut === 1 ? 'thing' : 'things'} Mermaid cannot say left out)` : ''}`);
    } catch (error) {
      setNotice(error instanceof ResponseError ? `Could not copy as Mermaid: ${error.message}` : 'Could not copy as Mermaid: the browser did not allow writing to the clipboard');
    }
    window.setTimeout(() => setNotice(null), NOTICE_MS);
  }, [diagram.id]);

  const closeHistory = useCallback(() => {
    backToCurrent();
    setHistoryOpen(false);
  }, [backToCurrent]);

  return (
    <div className="db-editor">
      <TopBar title={diagram.title} status={restored && live.status.kind === 'saved' ? 'Restored an earlier version' : liveStatusLabel(live.status, live.role)}>
        <PeerAvatars peers={live.peers} />
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
          <Excalidraw
            initialData={initialData}
            excalidrawAPI={onApi}
            onChange={live.onChange}
            onPointerUpdate={live.onPointerUpdate}
            isCollaborating
            UIOptions={UI_OPTIONS}
            viewModeEnabled={!canEdit || preview !== null}
          >
            <EditorMainMenu onShare={() => setShareOpen(true)} onHistory={() => setHistoryOpen(true)} onCopyMermaid={() => void copyMermaid()} />
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
            revisionClock={live.revisionClock}
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
