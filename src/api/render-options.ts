/** The options of one render, as every client and the server name them. */

/**
 * What a caller may ask of one render beyond its format and quality
 * (GET /diagrams/:id/render and the embeddable public images). Every field is
 * optional; an empty object renders exactly as before: PNGs 1024 px wide,
 * 10 px of padding, white background, light theme, the whole scene.
 */
export interface RenderOptions {
  /** PNG width in pixels (256–4096); the height follows the drawing. Not with `scale`. */
  width?: number;
  /** PNG pixels per scene pixel (1–4). Not with `width`. */
  scale?: number;
  /** Scene pixels around the drawing (0–200; default EXPORT_PADDING). */
  padding?: number;
  /** `transparent`, or a colour as `#rrggbb` (default white, as the editor exports). */
  background?: 'transparent' | `#${string}`;
  /** `dark` exports as the editor's dark mode does. */
  theme?: 'light' | 'dark';
  /** Draw only these elements (and the text bound to them). Not with `frameId`. */
  elementIds?: string[];
  /** Draw only this frame and what it holds, clipped to it, as the editor exports a frame. */
  frameId?: string;
}
