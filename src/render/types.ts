/** What the renderers agree on: jobs, results and the notes SPEC.md names. */

export type RenderQuality = 'faithful' | 'fast';
export type RenderFormat = 'json' | 'png' | 'svg';
export type RenderNote = 'faithful_unavailable' | 'images_truncated' | 'large_diagram_placeholder' | 'render_failed';

export interface RenderJob {
  elements: readonly Record<string, unknown>[];
  svg: boolean;
  png: boolean;
}

export interface RenderOutput {
  svg?: string;
  png?: Uint8Array;
  /** Set when some embedded images were left out to stay within the image budget. */
  imagesTruncated?: boolean;
}

/** Embedded image bytes (as data: URLs) one render may carry; images past it are left out with `images_truncated`. */
export const IMAGE_BUDGET_BYTES = 2 * 1024 * 1024;
/** The export padding the editor uses, in scene pixels. */
export const EXPORT_PADDING = 10;
