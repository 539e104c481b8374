/** What the renderers agree on: jobs, results and the notes SPEC.md names. */

import type { z } from 'zod';
import type { RenderNote as RenderNoteSchema } from '../api/schemas.ts';

export type { RenderFormat, RenderQuality } from '../api/schemas.ts';
export type RenderNote = z.infer<typeof RenderNoteSchema>;

export interface RenderJob {
  /** The stored elements, as JSON text (parsed in the worker, not on the API's event loop). */
  elementsJson: string;
  svg: boolean;
  png: boolean;
  /** Where the editor's fonts are kept as TrueType files (see font-files.ts). */
  fontsDirectory: string;
  /** Fast renders only: draw catalog icons instead of image placeholders (dashboard thumbnails). */
  icons?: boolean;
}

export interface RenderOutput {
  /** Nothing to draw: every element is deleted. */
  empty?: boolean;
  svg?: string;
  png?: Uint8Array;
  /** Set when some embedded images were left out to stay within the image budget. */
  imagesTruncated?: boolean;
  /** The PNG was asked for but could not be produced (the SVG, if asked for, is there). */
  pngFailed?: string;
}

/** Embedded image bytes (as data: URLs) one render may carry; images past it are left out with `images_truncated`. */
export const IMAGE_BUDGET_BYTES = 2 * 1024 * 1024;
/** The export padding the editor uses, in scene pixels. */
export const EXPORT_PADDING = 10;
