import { Resvg } from '@resvg/resvg-js';
import { findIcon } from '../../src/domain/icons/catalog.ts';
import { pixelsNear, type Rgb } from './png.ts';

export type { Rgb };

/**
 * A catalog icon's signature colour: the commonest colour of its drawing (rendered alone on white),
 * leaving out whites, greys and blacks, which labels and outlines share.
 */
export function signatureColour(iconId: string): Rgb {
  const icon = findIcon(iconId);
  if (!icon) throw new Error(`${iconId} is not a catalog icon`);
  const pixels = new Resvg(icon.svg, { fitTo: { mode: 'width', value: 64 }, background: '#ffffff' }).render().pixels;
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels.length; i += 4) {
    const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    if (Math.max(r, g, b) - Math.min(r, g, b) < 40) continue; // grey, white or black
    const key = (r << 16) | (g << 8) | b;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [key] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (key === undefined) throw new Error(`${iconId} has no colour`);
  return [(key >> 16) & 255, (key >> 8) & 255, key & 255];
}

/**
 * How many pixels of a PNG have a colour (within 30 of it, summed over the channels): in all, and
 * inside a rectangle of the image (its anti-aliased edges may give another drawing a few of them).
 */
export function pixelsOfColour(png: Buffer, colour: Rgb, inside: { x: number; y: number; width: number; height: number }): { total: number; inside: number } {
  const pixels = pixelsNear(png, colour);
  const within = pixels.filter(([x, y]) => x >= inside.x && x <= inside.x + inside.width && y >= inside.y && y <= inside.y + inside.height);
  return { total: pixels.length, inside: within.length };
}

/** One icon of each cloud and platform set, on nodes a spec lays out left to right. */
export const CLOUD_ICON_SPEC = {
  layout: { direction: 'LR' },
  nodes: [
    { id: 'fn', label: 'Lambda', icon: 'icon-aws-lambda' },
    { id: 'aks', label: 'AKS', icon: 'icon-azure-kubernetes-services' },
    { id: 'bq', label: 'BigQuery', icon: 'icon-gcp-bigquery' },
    { id: 'pod', label: 'Pod', icon: 'icon-k8s-pod' },
  ],
  edges: ['fn -> aks', 'aks -> bq', 'bq -> pod'],
};
