/**
 * The warm-browser peer of `npm run bench:render`, in the page: the editor's
 * own exporters (exportToSvg, exportToBlob) as a self-hoster would call them
 * in a headless Chromium page kept open, with the editor's fonts served beside
 * this bundle (EXCALIDRAW_ASSET_PATH). Built by bench/chromium-peer.ts.
 */
import { exportToBlob, exportToSvg, getCommonBounds, restoreElements } from '@excalidraw/excalidraw';

/** `svg-unembedded`: the SVG without the fonts inlined (smaller and quicker, but drawn in whatever fonts the viewer has). */
type PeerFormat = 'svg' | 'svg-unembedded' | 'png';

declare global {
  interface Window {
    EXCALIDRAW_ASSET_PATH?: string | string[];
    peerExport(elements: readonly unknown[], format: PeerFormat, pngWidth: number, files?: Record<string, unknown> | null): Promise<string>;
    /** How long the last export took in the page: from the elements to the SVG element or the PNG blob (ms). */
    peerLastMs: number;
  }
}

window.EXCALIDRAW_ASSET_PATH = new URL('./', import.meta.url).href;

/** As Drawbridge exports: white background, light theme, the editor's padding; the scene not embedded. */
const APP_STATE = { exportBackground: true, viewBackgroundColor: '#ffffff', exportWithDarkMode: false, exportEmbedScene: false };
const EXPORT_PADDING = 10;

function base64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** The SVG as text, or the PNG (pngWidth wide) in base64: what goes back to Node. */
window.peerLastMs = 0;
window.peerExport = async (stored, format, pngWidth, files = null) => {
  const start = performance.now();
  const elements = restoreElements(stored as never, null, { repairBindings: true });
  if (format !== 'png') {
    const svg = await exportToSvg({ elements, appState: APP_STATE, files: files as never, exportPadding: EXPORT_PADDING, skipInliningFonts: format === 'svg-unembedded' });
    const text = svg.outerHTML;
    window.peerLastMs = performance.now() - start;
    return text;
  }
  // The export's scale as the editor's own PNG export sets it (exportScale = the scale drawn at): left at 1, an
  // arrow with a label is drawn on a canvas of its own at scale 1 first, which for a large scene shrunk to
  // pngWidth is tens of thousands of pixels across (minutes for the 5,000-element scene).
  const [minX, , maxX] = getCommonBounds(elements.filter((element: { isDeleted?: boolean }) => !element.isDeleted));
  const exportScale = pngWidth / (maxX - minX + 2 * EXPORT_PADDING);
  const blob = await exportToBlob({
    elements,
    appState: { ...APP_STATE, exportScale },
    files: files as never,
    exportPadding: EXPORT_PADDING,
    mimeType: 'image/png',
    getDimensions: (width: number, height: number) => ({ width: pngWidth, height: Math.max(1, Math.round((pngWidth * height) / width)), scale: pngWidth / width }),
  });
  window.peerLastMs = performance.now() - start;
  return base64(blob);
};
