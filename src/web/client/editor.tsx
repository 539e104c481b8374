/**
 * The editor page's app: the diagram in the Excalidraw editor, full window,
 * under a small bar with its title, the save state and the way back to the
 * dashboard. The server-rendered page holds
 * `<div id="editor" data-diagram-id="…" data-csrf-token="…">`.
 * Saving and live updates live in diagram-sync.ts.
 */
import './excalidraw-asset-path.ts';
import { CaptureUpdateAction, Excalidraw, hashElementsVersion, restoreElements } from '@excalidraw/excalidraw';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type DiagramDocument, DiagramSync, type EditorHandle, fetchDiagram, ResponseError, type SaveState } from './diagram-sync.ts';

/** The members of the editor's imperative API used here. */
interface ExcalidrawApi {
  getSceneElements(): readonly unknown[];
  getSceneElementsIncludingDeleted(): readonly unknown[];
  updateScene(scene: { elements: readonly unknown[]; captureUpdate: unknown }): void;
  addFiles(files: unknown[]): void;
}

const DASHBOARD_URL = '/app';
/** A save carries elements only, not image files: an inserted image would not survive a reload. */
const UI_OPTIONS = { tools: { image: false } };

function editorHandle(api: ExcalidrawApi): EditorHandle {
  return {
    contentVersion: () => hashElementsVersion(api.getSceneElementsIncludingDeleted()),
    elementsToSave: () => api.getSceneElements(),
    replaceElements: (elements, files) => {
      if (files) api.addFiles(Object.values(files));
      api.updateScene({
        elements: restoreElements(elements, null, { repairBindings: true }),
        captureUpdate: CaptureUpdateAction.NEVER,
      });
    },
  };
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
    case 'retrying':
      return `Not saved (${state.message}) — retrying`;
    case 'failed':
      return `Not saved: ${state.message}`;
  }
}

function TopBar({ title, status }: { title: string; status: string | null }) {
  return (
    <header className="db-topbar">
      <a className="db-back" href={DASHBOARD_URL}>
        ← Diagrams
      </a>
      <h1 className="db-title">{title}</h1>
      {status !== null && (
        <span className="db-status" role="status">
          {status}
        </span>
      )}
    </header>
  );
}

function Editor({ diagram, csrfToken, canEdit }: { diagram: DiagramDocument; csrfToken: string; canEdit: boolean }) {
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const handle = useRef<EditorHandle | null>(null);
  const sync = useMemo(() => new DiagramSync({ diagramId: diagram.id, csrfToken, onState: setSaveState }, diagram), [diagram, csrfToken]);
  const initialData = useMemo(
    () => ({ elements: diagram.scene.elements, files: diagram.files ?? {}, appState: { viewBackgroundColor: '#ffffff' }, scrollToContent: true }),
    [diagram],
  );

  // Stable callbacks: the editor then does not re-render when only the save state changes.
  const onApi = useCallback((api: ExcalidrawApi) => {
    handle.current = editorHandle(api);
  }, []);
  const onChange = useCallback(() => {
    // Someone who may only read sees the editor in view mode, and nothing is ever saved.
    if (canEdit && handle.current) sync.changed(handle.current);
  }, [sync, canEdit]);

  useEffect(() => {
    const events = new EventSource(`/app/api/diagrams/${encodeURIComponent(diagram.id)}/events`);
    events.addEventListener('revision', (event) => {
      const { docUpdatedAt } = JSON.parse((event as MessageEvent<string>).data) as { docUpdatedAt: string };
      sync.revision(docUpdatedAt);
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

  return (
    <div className="db-editor">
      <TopBar title={diagram.title} status={canEdit ? saveStateLabel(saveState) : 'View only'} />
      <div className="db-canvas">
        <Excalidraw initialData={initialData} excalidrawAPI={onApi} onChange={onChange} UIOptions={UI_OPTIONS} viewModeEnabled={!canEdit} />
      </div>
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
