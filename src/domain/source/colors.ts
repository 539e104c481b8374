/**
 * Colours as Graphviz and Mermaid write them, read as CSS colours the spec
 * takes: CSS names and `#rgb[a]`/`#rrggbb[aa]` as they are; Graphviz's X11
 * names with a shade number (`gray90`, `lightblue2`), its HSV triples
 * (`"0.6 0.3 0.9"`) and its scheme prefixes (`/x11/red`) converted; a colour
 * list (`"red:blue"`) read as its first colour.
 */
import cssColors from 'color-name';
import { contrastRatio, parseColor, type Rgb } from '../lint/color.ts';

const hex = (channels: readonly number[]) => `#${channels.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;

/** X11's numbered shades of a colour: 1 is the colour, 2–4 darker (X11's rgb.txt scales by these). */
const SHADES = [1, 0.932, 0.804, 0.545];

/** X11 names that CSS lacks or draws differently, with X11's values. */
const X11_ONLY: Record<string, [number, number, number]> = {
  lightgoldenrod: [238, 221, 130],
  navyblue: [0, 0, 128],
  violetred: [208, 32, 144],
  lightslateblue: [132, 112, 255],
  // X11's gray is lighter than CSS's, and its green brighter.
  gray: [190, 190, 190],
  grey: [190, 190, 190],
  green: [0, 255, 0],
  maroon: [176, 48, 96],
  purple: [160, 32, 240],
};

function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  const i = Math.floor(h * 6) % 6;
  const f = h * 6 - Math.floor(h * 6);
  const [p, q, t] = [v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)];
  const rgb = [
    [v, t, p],
    [q, v, p],
    [p, v, t],
    [p, q, v],
    [t, p, v],
    [v, p, q],
  ][i]!;
  return rgb.map((c) => c * 255) as [number, number, number];
}

const named = (name: string): readonly number[] | undefined => X11_ONLY[name] ?? (cssColors as Record<string, readonly number[]>)[name];

/** A Graphviz colour as a CSS colour, or null when it names no colour this knows. */
export function graphvizColor(raw: string): string | null {
  const first = raw.split(':')[0]!.split(';')[0]!.trim();
  const value = first.replace(/^\/[a-z0-9]*\//i, '').toLowerCase();
  if (value === '') return null;
  if (/^#[0-9a-f]{6}([0-9a-f]{2})?$/.test(value) || /^#[0-9a-f]{3,4}$/.test(value)) return value;
  const hsv = /^([0-9.]+)[,\s]+([0-9.]+)[,\s]+([0-9.]+)$/.exec(value);
  if (hsv) {
    const [h, s, v] = hsv.slice(1).map(Number) as [number, number, number];
    if ([h, s, v].every((n) => n >= 0 && n <= 1)) return hex(hsvToRgb(h, s, v));
    return null;
  }
  if (value === 'transparent' || value === 'none' || value === 'invis') return 'transparent';
  const gray = /^gr[ae]y(\d{1,3})$/.exec(value);
  if (gray) {
    const level = Number(gray[1]);
    return level <= 100 ? hex([level * 2.55, level * 2.55, level * 2.55]) : null;
  }
  const shade = /^([a-z]+)([1-4])$/.exec(value);
  if (shade) {
    const base = named(shade[1]!);
    return base ? hex(base.map((c) => c * SHADES[Number(shade[2]) - 1]!)) : null;
  }
  const base = named(value);
  if (!base) return null;
  return X11_ONLY[value] ? hex(base) : value;
}

/** A CSS colour as Mermaid's `style`/`classDef` write it (`#f9f`, `red`, `rgb(…)`), or null. */
export function cssColor(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  if (/^#[0-9a-f]{3,8}$/.test(value) || /^(rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,60}\)$/.test(value)) return value;
  if (value === 'transparent' || value === 'none') return 'transparent';
  return (cssColors as Record<string, unknown>)[value] ? value : null;
}

/** The least contrast a label needs against what is behind it (the lint's low_contrast threshold). */
const MIN_INK_CONTRAST = 3;
/** The colour a label is drawn in when nothing sets one (the spec's default stroke colour). */
export const DEFAULT_INK = '#1e1e1e';
const WHITE: Rgb = [255, 255, 255];

const rgbOf = (css: string): Rgb | null => (cssColors as Record<string, Rgb>)[css.toLowerCase()] ?? parseColor(css);
const behindOf = (fill: string | null): Rgb => (fill !== null && fill !== 'transparent' ? rgbOf(fill) : null) ?? WHITE;

/** Whether a label in `colour` reads on `fill` (null: the white page); a colour this cannot read is given the benefit of the doubt. */
export function readableOn(colour: string, fill: string | null): boolean {
  const rgb = rgbOf(colour);
  return rgb === null || contrastRatio(rgb, behindOf(fill)) >= MIN_INK_CONTRAST;
}

/** A label colour darkened (on a light fill) or lightened (on a dark one) just enough to read there: the hue the author chose. */
export function readableShade(colour: string, fill: string | null): string {
  const rgb = rgbOf(colour) ?? [0, 0, 0];
  const behind = behindOf(fill);
  const toward = contrastRatio([0, 0, 0], behind) >= contrastRatio([255, 255, 255], behind) ? 0 : 255;
  for (let step = 1; step <= 10; step++) {
    const shade = rgb.map((c) => Math.round(c + (toward - c) * (step / 10)));
    if (contrastRatio(shade as Rgb, behind) >= MIN_INK_CONTRAST) return hex(shade);
  }
  return toward === 0 ? '#000000' : '#ffffff';
}
