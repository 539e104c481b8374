/**
 * Where along its top a container's label goes: in the middle, as Mermaid and
 * dot put a cluster's title, unless an arrow runs through the label or the
 * strip below it down to the container's first member (an arrow entering the
 * container beside the member under the label); then on the left, or on the
 * right, whichever is clear first; when none is, the first where no arrow runs
 * through the text itself (narrower than the header) or the strip below it,
 * else the middle.
 */
import { BOUND_TEXT_PADDING, HEADER_SIDE_INSET } from '../../text/metrics.ts';
import type { HeaderAlign } from './containers.ts';
import { segmentCrossesBox } from '../metrics.ts';
import type { Point } from '../routing/routing.ts';
import type { Box } from '../types.ts';

/** How far a container's label text lies inside its header's width on each side (the scene's header: the editor's padding and 10 px). */
const HEADER_TEXT_INSET = BOUND_TEXT_PADDING + 10;

/**
 * The alignment of the label of the container `box`, whose header is `header`
 * (width, height, and the label's one-line width when wider) and whose first
 * member's top is `membersTop`. The label is checked as wide as it will be
 * drawn: the scene wraps it again in the box's final width, on one line when
 * it fits there ("Layer 3 — Infrastructure Abstraction Layer", 431 px, had been
 * checked at its 371 px wrap, and an arrow 30 px beyond that ran through it).
 */
export function headerAlign(box: Box, header: { width: number; height: number; titleWidth?: number }, membersTop: number, routes: readonly Point[][]): HeaderAlign {
  const width = Math.min(Math.max(header.width, (header.titleWidth ?? 0) + 2 * HEADER_TEXT_INSET), box.width);
  const height = Math.max(header.height, membersTop - box.y);
  const clear = (x: number, w: number) => !routes.some((route) => route.slice(1).some((b, i) => segmentCrossesBox(route[i]![0], route[i]![1], b[0], b[1], { x, y: box.y, width: w, height })));
  const text = Math.max(0, width - 2 * HEADER_TEXT_INSET);
  const spots: Array<[HeaderAlign, number, number]> = [
    ['center', box.x + (box.width - width) / 2, box.x + (box.width - text) / 2],
    ['left', box.x, box.x + HEADER_SIDE_INSET],
    ['right', box.x + box.width - width, box.x + box.width - HEADER_SIDE_INSET - text],
  ];
  const spot = spots.find(([, x]) => clear(x, width)) ?? spots.find(([, , x]) => clear(x, text));
  return spot?.[0] ?? 'center';
}
