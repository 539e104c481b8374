/** What the renderers agree on: jobs, results and the notes an answer may carry. */

import type { z } from 'zod';
import type { RenderOptions } from '../api/render-options.ts';
import type { RenderNote as RenderNoteSchema } from '../api/schemas.ts';

export type { RenderFormat, RenderQuality } from '../api/schemas.ts';
export type { RenderOptions } from '../api/render-options.ts';
export type RenderNote = z.infer<typeof RenderNoteSchema>;

export interface RenderJob {
  /** The stored elements, as JSON text (parsed in the worker, not on the API's event loop). */
  elementsJson: string;
  svg: boolean;
  png: boolean;
  /** A PDF: one page sized to the drawing, vector, text as text. */
  pdf?: boolean;
  /** Options as validated by the API; absent means the defaults. */
  options?: RenderOptions;
  /** Where the editor's fonts are kept as TrueType files (see font-files.ts). */
  fontsDirectory: string;
}

export interface RenderOutput {
  /** Nothing to draw: every element is deleted. */
  empty?: boolean;
  svg?: string;
  png?: Uint8Array;
  pdf?: Uint8Array;
  /** Set when some embedded images were left out to stay within the image budget. */
  imagesTruncated?: boolean;
  /** Set when text past the text limits (text-limits.ts) was left out. */
  textTruncated?: boolean;
  /** Nothing else is sent: the SVG would have been this many bytes, over MAX_SVG_BYTES. */
  svgTooLarge?: number;
  /** The PNG was asked for but could not be produced (the SVG, if asked for, is there). */
  pngFailed?: string;
  /** Nothing else is sent: the options' `elements` or `frame` name nothing drawn, or a frame id is not a frame (options.ts, InvalidSelection). */
  invalidSelection?: string;
}

/** Embedded image bytes (as data: URLs) one render may carry; images past it are left out with `images_truncated`. */
export const IMAGE_BUDGET_BYTES = 2 * 1024 * 1024;
/**
 * The largest SVG a render answers with (UTF-8 bytes). Past the text limits,
 * what else makes a large SVG is drawing that grows with a shape's size (the
 * hand-drawn fill of a rectangle a million pixels wide is some 55 MB), so the
 * size is checked on the SVG itself, before it is rasterised or sent.
 */
export const MAX_SVG_BYTES = 16 * 2 ** 20;

/** The size of `svg` when it is over MAX_SVG_BYTES, else null. */
export function oversizedSvgBytes(svg: string): number | null {
  const bytes = Buffer.byteLength(svg, 'utf8');
  return bytes > MAX_SVG_BYTES ? bytes : null;
}

/** The export padding the editor uses, in scene pixels. */
export const EXPORT_PADDING = 10;
