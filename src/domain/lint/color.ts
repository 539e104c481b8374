/** Just enough CSS colour parsing for contrast checks: hex and every CSS colour name. Unknown colours yield null (no verdict). */
import cssColors from 'color-name';

export type Rgb = [number, number, number];

/** Parses #rgb, #rgba, #rrggbb, #rrggbbaa and CSS colour names; `transparent` and anything else give null. */
export function parseColor(value: unknown): Rgb | null {
  if (typeof value !== 'string') return null;
  const named = Object.hasOwn(cssColors, value.toLowerCase()) ? cssColors[value.toLowerCase()] : undefined;
  if (named) return [named[0], named[1], named[2]];
  const match = /^#([0-9a-f]{3,8})$/i.exec(value);
  if (!match) return null;
  let hex = match[1]!;
  if (hex.length === 3 || hex.length === 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join('');
  else if (hex.length === 8) hex = hex.slice(0, 6);
  else if (hex.length !== 6) return null;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
