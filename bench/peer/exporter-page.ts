/**
 * The warm-browser peer of `npm run bench:render`, in the page: the editor's
 * own exporters (exportToSvg, exportToBlob) as a self-hoster would call them
 * in a headless Chromium page kept open, with the editor's fonts served beside
 * this bundle (EXCALIDRAW_ASSET_PATH). Built by bench/chromium-peer.ts.
 */
import { exportToBlob, exportToSvg, restoreElements } from '@excalidraw/excalidraw';

/** `svg-unembedded`: the SVG without the fonts inlined (smaller and quicker, but drawn in whatever fonts the viewer has). */
type PeerFormat = 'svg' | 'svg-unembedded' | 'png';

declare global {
  interface Window {
    EXCALIDRAW_ASSET_PATH?: string | string[];
    peerExport(elements: readonly unknown[], format: PeerFormat, pngWidth: number): Promise<string>;
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
window.peerExport = async (stored, format, pngWidth) => {
  const elements = restoreElements(stored as never, null, { repairBindings: true });
  if (format !== 'png') {
    const svg = await exportToSvg({ elements, appState: APP_STATE, files: null, exportPadding: EXPORT_PADDING, skipInliningFonts: format === 'svg-unembedded' });
    return svg.outerHTML;
  }
  const blob = await exportToBlob({
    elements,
    appState: APP_STATE,
    files: null,
    exportPadding: EXPORT_PADDING,
    mimeType: 'image/png',
    getDimensions: (width: number, height: number) => ({ width: pngWidth, height: Math.max(1, Math.round((pngWidth * height) / width)), scale: pngWidth / width }),
  });
  return base64(blob);
};
