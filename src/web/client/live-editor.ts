/**
 * The editor page's side of live collaboration: the live client
 * (live-client.ts) wired to the Excalidraw editor. Room changes go into the
 * canvas (or into the person's scene while a revision preview has put it
 * aside), outside the undo history; the person's changes, pointer and
 * selection go out; the others show as the editor's collaborators (their
 * pointers, names and selection colours) and in the top bar's avatar row.
 */
import { CaptureUpdateAction, isInvisiblySmallElement, reconcileElements, restoreElements } from '@excalidraw/excalidraw';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DiagramDocument } from './diagram-api.ts';
import { LiveClient, type LiveStatus } from './live-client.ts';
import type { EditorFunctions, SceneAccess } from './live-elements.ts';
import { type LivePeer, type LiveRole, liveUrl, type PeerPointer, type SceneElement } from './live-protocol.ts';

/** The members of the editor's imperative API live collaboration uses. */
interface LiveCanvas {
  getSceneElementsIncludingDeleted(): readonly unknown[];
  getAppState(): object;
  updateScene(scene: { elements?: readonly unknown[]; collaborators?: Map<any, any>; captureUpdate?: unknown }): void;
  addFiles(files: unknown[]): void;
}

/** The person's scene while a revision preview has the canvas: live changes go here. */
export interface AsideScene {
  /** All elements, deleted ones included. */
  elements: readonly unknown[];
}

/** The editor's functions, typed for the merge: elements travel as plain data. */
const EDITOR_FUNCTIONS: EditorFunctions = {
  reconcileElements: (local, remote, appState) => reconcileElements(local as never, remote as never, appState as never) as unknown as SceneElement[],
  restoreElements: (elements) => restoreElements(elements as never, null) as unknown as SceneElement[],
  isInvisiblySmallElement: (element) => isInvisiblySmallElement(element as never),
};

/** Nothing is being edited in a scene put aside. */
const NOTHING_EDITED = {};

function sceneAccess(canvas: { current: LiveCanvas | null }, aside: { current: AsideScene | null }): SceneAccess {
  return {
    elements: () => (aside.current?.elements ?? canvas.current?.getSceneElementsIncludingDeleted() ?? []) as readonly SceneElement[],
    editingState: () => (aside.current || !canvas.current ? NOTHING_EDITED : canvas.current.getAppState()),
    replace: (elements) => {
      if (aside.current) aside.current = { ...aside.current, elements };
      else canvas.current?.updateScene({ elements, captureUpdate: CaptureUpdateAction.NEVER });
    },
  };
}

/** The others as the editor's collaborators: pointer, name, colour, selection and idle state, by connection. */
function collaborators(peers: readonly LivePeer[]): Map<string, object> {
  return new Map(
    peers.map((peer) => [
      peer.peerId,
      {
        id: peer.userId,
        socketId: peer.peerId,
        username: peer.name,
        color: peer.color,
        pointer: peer.pointer ?? undefined,
        button: peer.button,
        selectedElementIds: peer.selectedElementIds,
        userState: peer.status,
      },
    ]),
  );
}

export interface LiveDiagram {
  status: LiveStatus;
  /** What the room says this person may do; until it answers, what the page said. */
  role: LiveRole;
  peers: LivePeer[];
  /** The diagram's newest stored revision this page knows of: the history panel follows it. */
  revisionClock: string;
  /** For the editor's `excalidrawAPI` prop: the session starts once the canvas is there. */
  onCanvas(canvas: LiveCanvas): void;
  /** For the editor's `onChange`. */
  onChange(elements: readonly unknown[], appState: { selectedElementIds?: Record<string, boolean> }): void;
  /** For the editor's `onPointerUpdate`. */
  onPointerUpdate(update: { pointer: PeerPointer; button: 'up' | 'down'; pointersMap: { size: number } }): void;
  /** The revision the person's scene is based on, for writes guarded by it (a restore). */
  revision(): string;
}

/**
 * Live collaboration for the editor showing `diagram`. `aside` is the
 * person's scene while a preview has the canvas (null otherwise): live
 * changes go there, and the preview itself is never sent.
 */
export function useLiveDiagram(diagram: DiagramDocument, pageRole: LiveRole, aside: { current: AsideScene | null }): LiveDiagram {
  const [status, setStatus] = useState<LiveStatus>({ kind: 'connecting' });
  const [role, setRole] = useState<LiveRole>(pageRole);
  const [peers, setPeers] = useState<LivePeer[]>([]);
  const [revisionClock, setRevisionClock] = useState(diagram.docUpdatedAt);
  const canvas = useRef<LiveCanvas | null>(null);
  const client = useRef<LiveClient | null>(null);

  const onCanvas = useCallback(
    (excalidraw: LiveCanvas) => {
      canvas.current = excalidraw;
      if (client.current) return;
      const live = new LiveClient({
        url: liveUrl(window.location, diagram.id),
        editor: EDITOR_FUNCTIONS,
        loaded: { elements: diagram.scene.elements as SceneElement[], docUpdatedAt: diagram.docUpdatedAt },
        scene: sceneAccess(canvas, aside),
        onStatus: setStatus,
        onPeers: (next) => {
          setPeers(next);
          canvas.current?.updateScene({ collaborators: collaborators(next) });
        },
        onRole: setRole,
        onFiles: (files) => canvas.current?.addFiles(Object.values(files)),
        onRevision: setRevisionClock,
      });
      client.current = live;
      live.start();
    },
    [diagram, aside],
  );

  useEffect(() => {
    const activity = () => client.current?.presence.activity();
    const visibility = () => client.current?.presence.visibility(document.hidden);
    const online = () => client.current?.reconnectNow();
    const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
      if (client.current?.hasUnsavedWork()) event.preventDefault();
    };
    document.addEventListener('keydown', activity);
    document.addEventListener('pointerdown', activity);
    document.addEventListener('visibilitychange', visibility);
    window.addEventListener('online', online);
    window.addEventListener('beforeunload', warnBeforeLeaving);
    return () => {
      document.removeEventListener('keydown', activity);
      document.removeEventListener('pointerdown', activity);
      document.removeEventListener('visibilitychange', visibility);
      window.removeEventListener('online', online);
      window.removeEventListener('beforeunload', warnBeforeLeaving);
      client.current?.stop();
      client.current = null;
    };
  }, []);

  const onChange = useCallback(
    (_elements: readonly unknown[], appState: { selectedElementIds?: Record<string, boolean> }) => {
      // While a preview has the canvas, what it shows is not the person's scene: nothing of it goes out.
      if (aside.current) return;
      client.current?.changed();
      const selected: Record<string, true> = {};
      for (const [id, on] of Object.entries(appState.selectedElementIds ?? {})) if (on) selected[id] = true;
      client.current?.presence.selection(selected);
    },
    [aside],
  );

  const onPointerUpdate = useCallback((update: { pointer: PeerPointer; button: 'up' | 'down'; pointersMap: { size: number } }) => {
    // Two fingers on a touch screen are a pinch, not a pointer worth showing.
    if (update.pointersMap.size < 2) client.current?.presence.pointer(update.pointer, update.button);
  }, []);

  const revision = useCallback(() => client.current?.revision() ?? diagram.docUpdatedAt, [diagram]);

  return useMemo(
    () => ({ status, role, peers, revisionClock, onCanvas, onChange, onPointerUpdate, revision }),
    [status, role, peers, revisionClock, onCanvas, onChange, onPointerUpdate, revision],
  );
}

/** The save state in a few words, for the top bar. */
export function liveStatusLabel(status: LiveStatus, role: LiveRole): string {
  if (status.kind === 'gone') {
    switch (status.reason) {
      case 'deleted':
        return 'This diagram was deleted';
      case 'access':
        return 'No longer shared with you';
      case 'signed_out':
        return 'Signed out — sign in again in another tab';
    }
  }
  if (role === 'viewer') return status.kind === 'offline' ? 'View only · offline — reconnecting' : 'View only';
  switch (status.kind) {
    case 'connecting':
      return 'Connecting…';
    case 'saved':
      return 'Saved';
    case 'saving':
      return 'Saving…';
    case 'offline':
      return 'Offline — reconnecting';
    case 'failed':
      return `Not saved: ${status.message}`;
  }
}
