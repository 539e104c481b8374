/** The options of one render, as every client and the server name them, and as a query carries them. */
import { z } from 'zod';

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

/** The ranges of the numeric options, and the most ids `elements` may list: the schema below and the renderer read these. */
const RENDER_OPTION_LIMITS = {
  width: { min: 256, max: 4096 },
  scale: { min: 1, max: 4 },
  padding: { min: 0, max: 200 },
  selectedIds: 1000,
} as const;

/**
 * One query parameter, read as the string a query parser gives (absent: undefined); given twice it is
 * refused, then `read` checks and converts it. `describe` is what the OpenAPI document says of it.
 */
function parameter<T>(describe: Record<string, unknown>, read: (text: string) => { value: T } | string) {
  return z
    .unknown()
    .optional()
    .meta(describe)
    .transform((value, ctx): T | undefined => {
      if (value === undefined) return undefined;
      if (typeof value !== 'string') {
        ctx.addIssue({ code: 'custom', message: 'may be given once' });
        return z.NEVER;
      }
      const verdict = read(value);
      if (typeof verdict === 'string') {
        ctx.addIssue({ code: 'custom', message: verdict });
        return z.NEVER;
      }
      return verdict.value;
    });
}

/** A whole number in `range`, or what is wrong with the text. */
const wholeIn =
  ({ min, max }: { min: number; max: number }) =>
  (text: string): { value: number } | string => {
    if (!/^\d+$/.test(text)) return `must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`;
    const value = Number(text);
    return value < min || value > max ? `must be from ${min} to ${max}, got ${value}` : { value };
  };

/** `transparent`, `white`, `#rgb` or `#rrggbb` (any case) as `transparent` or `#rrggbb` lower case. */
function background(text: string): { value: 'transparent' | `#${string}` } | string {
  const lower = text.trim().toLowerCase();
  if (lower === 'transparent') return { value: 'transparent' };
  if (lower === 'white') return { value: '#ffffff' };
  if (/^#[0-9a-f]{6}$/.test(lower)) return { value: lower as `#${string}` };
  if (/^#[0-9a-f]{3}$/.test(lower)) return { value: `#${[...lower.slice(1)].map((c) => c + c).join('')}` };
  return `must be transparent, white, or a colour as #rgb or #rrggbb, got ${JSON.stringify(text)}`;
}

const { width, scale, padding, selectedIds } = RENDER_OPTION_LIMITS;

/**
 * The render options as query parameters (GET /diagrams/:id/render and the public images
 * /p/:slug.svg|png), every one optional: absent, the default look. Each is checked and converted
 * here (a malformed value is 400 bad_request naming it); which may not be given together, and the
 * defaults left out, is `renderOptionsOf` (src/render/options.ts).
 */
export const RenderOptionsQuery = z.object({
  width: parameter(
    { type: 'integer', minimum: width.min, maximum: width.max, description: 'PNG width in pixels; the height follows the drawing. Not with `scale`. For SVG: the root\'s width (height follows; viewBox unchanged). Not for PDF (extension)' },
    wholeIn(width),
  ),
  scale: parameter(
    { type: 'number', minimum: scale.min, maximum: scale.max, description: `PNG pixels per drawing pixel (a PNG over 4096 × 4096 pixels is scaled down to that many). Not with \`width\`. For SVG: multiplies the root's width and height (extension)` },
    (text) => {
      const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
      return value >= scale.min && value <= scale.max ? { value } : `must be a number from ${scale.min} to ${scale.max}, got ${JSON.stringify(text)}`;
    },
  ),
  padding: parameter({ type: 'integer', minimum: padding.min, maximum: padding.max, description: 'Drawing pixels around the drawing; default 10 (extension)' }, wholeIn(padding)),
  background: parameter(
    {
      type: 'string',
      examples: ['transparent', 'white', '#0d1117', '#fff'],
      description: '`transparent`, `white`, or a hex colour `#rgb`/`#rrggbb`: the colour the image shows behind the drawing, in either theme; default white (light) or the editor\'s dark canvas #121212 (dark) (extension)',
    },
    background,
  ),
  theme: parameter(
    { type: 'string', enum: ['light', 'dark'], description: '`dark`: as the editor exports dark mode (its filter invert(93%) hue-rotate(180deg) over the drawing); default `light` (extension)' },
    (text) => (text === 'light' || text === 'dark' ? { value: text } : `must be light or dark, got ${JSON.stringify(text)}`),
  ),
  elements: parameter(
    {
      type: 'string',
      description: 'Comma-separated element ids: draw only those, the text bound to them and what the frames among them hold. An id no drawn element has is 400 invalid_selection. Not with `frame` (extension)',
    },
    (text) => {
      const ids = [...new Set(text.split(',').map((id) => id.trim()).filter((id) => id !== ''))];
      if (ids.length === 0) return 'must list element ids, separated by commas';
      return ids.length > selectedIds ? `lists at most ${selectedIds} ids, got ${ids.length}` : { value: ids.sort() };
    },
  ),
  frame: parameter(
    {
      type: 'string',
      description: 'A frame\'s element id: draw that frame as the editor exports one (cropped to it, no padding, its children clipped, no outline or name). Not a frame, or no such element: 400 invalid_selection. Not with `elements` (extension)',
    },
    (text) => (text.trim() === '' ? "must be a frame's element id" : { value: text.trim() }),
  ),
});
export type RenderOptionsQuery = z.output<typeof RenderOptionsQuery>;
