/** Where the front door's pages and files are, for the pages that link to them. */
import { API_PREFIX } from '../../api/paths.ts';

export const LANDING_PATH = '/';
export const API_DOCS_PATH = '/docs/api';
export const MCP_SETUP_PATH = '/docs/mcp';
/** The API's own description, which the API reference page renders. */
export const OPENAPI_DOCUMENT_PATH = `${API_PREFIX}/openapi.json`;

export const FAVICON_SVG_PATH = '/favicon.svg';
export const FAVICON_ICO_PATH = '/favicon.ico';
export const APPLE_TOUCH_ICON_PATH = '/apple-touch-icon.png';
export const APP_ICON_PATHS = { 192: '/icons/icon-192.png', 512: '/icons/icon-512.png' } as const;
export const MANIFEST_PATH = '/manifest.webmanifest';
export const LANDING_EXAMPLE_PATH = '/static/landing-example.png';

/** The icon and manifest links every page's <head> carries (layout.ts, html.ts). */
export const ICON_LINKS = `<link rel="icon" href="${FAVICON_ICO_PATH}" sizes="48x48">
<link rel="icon" href="${FAVICON_SVG_PATH}" type="image/svg+xml">
<link rel="apple-touch-icon" href="${APPLE_TOUCH_ICON_PATH}">
<link rel="manifest" href="${MANIFEST_PATH}">`;
