/**
 * Where the editor loads its fonts from. The server serves them under the
 * directory this bundle comes from (`/assets/<hash>/fonts/<Family>/<file>`);
 * left unset, the editor would only have its fallback, which the build points
 * at the same place instead of a CDN (src/web/assets.ts). Set by the bundle
 * itself because the page's CSP allows no inline script, and imported before
 * the editor so it is in place before any font is registered.
 */
declare global {
  interface Window {
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

window.EXCALIDRAW_ASSET_PATH = new URL('./', import.meta.url).href;

export {};
