/**
 * Where the editor opens: zoomed so the whole diagram fits the canvas, never
 * past 100 % (a small diagram is not blown up), clear of the editor's
 * toolbar and footer. Computed before the editor mounts, so the first frame
 * is already framed.
 */
import { getCommonBounds, restoreElements, zoomToFitBounds } from '@excalidraw/excalidraw';

/** The editor's own controls over the canvas: the toolbar on top, the zoom and undo buttons below. */
const EDITOR_CONTROLS = { top: 80, right: 24, bottom: 64, left: 24 };

export interface View {
  scrollX: number;
  scrollY: number;
  zoom: { value: number };
}

/** The view that fits `elements` into a canvas of `size`, or null for an empty scene. */
export function fittedView(elements: readonly unknown[], size: { width: number; height: number }): View | null {
  const visible = restoreElements(elements as Parameters<typeof restoreElements>[0], null).filter((element: { isDeleted: boolean }) => !element.isDeleted);
  if (visible.length === 0 || size.width <= 0 || size.height <= 0) return null;
  const appState = { width: size.width, height: size.height, offsetLeft: 0, offsetTop: 0, scrollX: 0, scrollY: 0, zoom: { value: 1 } };
  const fitted = zoomToFitBounds({
    bounds: getCommonBounds(visible),
    appState: appState as unknown as Parameters<typeof zoomToFitBounds>[0]['appState'],
    canvasOffsets: EDITOR_CONTROLS,
    fitToViewport: false,
  }).appState;
  return { scrollX: fitted.scrollX, scrollY: fitted.scrollY, zoom: { value: fitted.zoom.value } };
}
