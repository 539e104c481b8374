// How big a node is drawn and where its text and icon go, before any element exists: its shape's minimum size and margins,
// its label wrapped (between words, widening for a long token), an icon beside or above it. The spec conversion
// (from-spec.ts) and the edits (domain/edit) plan nodes alike.
import { isMarker, type MarkerShape, type SpecNode } from '../spec/types.ts';
import { BOUND_TEXT_PADDING, containerSizeForText, fitTextInContainer, measureText, wrapText } from '../text/metrics.ts';
import { FONT_FAMILY_EXCALIFONT, FONT_SIZE } from './elements.ts';
import { joinedAtBreaks, WIDEN_FOR_WORD, wordSafeWrap } from './label-wrap.ts';

/** Widths labels wrap at, per shape; longer labels wrap and the shape grows to fit. */
const WRAP_WIDTH = { rectangle: 240, ellipse: 220, diamond: 200, text: 400, container: 400 } as const;
export const MIN_SIZE = {
  rectangle: [160, 70],
  ellipse: [160, 80],
  diamond: [180, 100],
  circle: [90, 90],
  doublecircle: [100, 100],
  stadium: [160, 60],
  cylinder: [140, 90],
  hexagon: [180, 70],
  parallelogram: [180, 70],
  subroutine: [180, 70],
  document: [160, 80],
} as const;
/** How far inside a double circle its inner ring runs. */
export const RING_INSET = 5;

/** Breathing room around a label beyond the editor's own padding (for outlined shapes: room for the outline's ends, rims and wave). */
export const MARGIN = {
  rectangle: [30, 20],
  ellipse: [20, 12],
  diamond: [20, 12],
  circle: [20, 12],
  doublecircle: [20 + 2 * RING_INSET, 12 + 2 * RING_INSET],
  stadium: [60, 20],
  cylinder: [30, 50],
  hexagon: [70, 20],
  parallelogram: [70, 20],
  subroutine: [50, 20],
  document: [30, 36],
} as const;
type SizedShape = keyof typeof MIN_SIZE;
const sizedShape = (shape: SpecNode['shape']): SizedShape => (shape in MIN_SIZE ? (shape as SizedShape) : boxShapeOf(shape));
export const ICON_SIZE = 48;
/** How much wider a bold label draws than the regular font measures it (an allowance). */
export const BOLD_WIDENS = 1.12;
export const ICON_GAP = 8;
/** The editor's minimum arrow-label width (font size × 11): wrapping there never re-wraps in the editor. */
const EDGE_LABEL_WRAP = FONT_SIZE * 11;
const CONTAINER_HEADER_EXTRA = 10;

export type BoxShape = 'rectangle' | 'ellipse' | 'diamond';

/**
 * The native element that carries a node's label (and that arrows bind to):
 * a circle is an ellipse with equal sides; the other new shapes are drawn on
 * a rectangle for now (a stadium fully rounded as far as the editor rounds).
 */
function boxShapeOf(shape: SpecNode['shape']): BoxShape {
  if (shape === 'ellipse' || shape === 'circle' || shape === 'doublecircle') return 'ellipse';
  if (shape === 'diamond') return 'diamond';
  return 'rectangle';
}

export interface TextBlock {
  text: string;
  original: string;
  /** The label as its author wrote it, where `original` breaks a word too wide for its box (wordSafeWrap): kept in the text's customData, so the label can be read back exactly. */
  authored?: string;
  width: number;
  height: number;
  /** Standalone text only: false for a fixed-width text that wraps. */
  autoResize?: boolean;
}

export interface NodePlan {
  node: SpecNode;
  label: TextBlock | null;
  isContainer: boolean;
  depth: number;
  /** The shape drawn (containers are rectangles). */
  shape: BoxShape | 'text';
  /** A marker (start, end, fork): drawn filled, without its label. */
  marker?: MarkerShape;
  width: number;
  height: number;
}

/** The size of a start dot and an end ring; the dot inside an end ring; a fork bar's length and thickness. */
export const MARKER_SIZE = { start: 24, end: 28, endDot: 16, forkLength: 100, forkThickness: 8 } as const;
/**
 * An arrow's label: wrapped where the editor wraps it (it re-wraps an arrow's
 * label at EDGE_LABEL_WRAP), a word wider than that broken beforehand only at
 * its break places (wordSafeWrap).
 */
/**
 * Whether a label is recorded with its text: when its words were broken to fit, or when its author broke a
 * line inside a word (a break that reads the same as one Drawbridge would make), so it reads back exactly.
 */
const needsRecord = (label: string, safe: string) => safe !== label || joinedAtBreaks(label) !== label;

export function edgeLabelBlock(label: string): TextBlock | null {
  const safe = wordSafeWrap(label, EDGE_LABEL_WRAP / WIDEN_FOR_WORD).label;
  const block = textBlock(safe, EDGE_LABEL_WRAP);
  return block && needsRecord(label, safe) ? { ...block, authored: label } : block;
}

function textBlock(label: string, wrapAt: number): TextBlock | null {
  if (label === '') return null;
  const text = wrapText(label, FONT_SIZE, wrapAt, FONT_FAMILY_EXCALIFONT);
  const { width, height } = measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  return { text, original: label, width, height };
}

/**
 * A text node with an icon: the icon beside the text, across the flow (on the
 * left in a vertical flow, on top in a horizontal one), so an arrow that
 * reaches the text along the flow never runs across the icon.
 */
export function textNodeSize(label: { width: number; height: number }, hasIcon: boolean, iconOnTop: boolean): { width: number; height: number } {
  if (!hasIcon) return { width: label.width, height: label.height };
  if (iconOnTop) return { width: Math.max(label.width, ICON_SIZE), height: ICON_SIZE + ICON_GAP + label.height };
  return { width: ICON_SIZE + ICON_GAP + label.width, height: Math.max(label.height, ICON_SIZE) };
}

/** `iconOnTop`: where a text node's icon goes (on top in a horizontal flow, on the left in a vertical one). */
export function planNode(node: SpecNode, isContainer: boolean, depth: number, iconOnTop = false): NodePlan {
  if (node.shape === 'text') {
    const label = standaloneText(node.label === '' ? node.id : node.label);
    return { node, label, isContainer: false, depth, shape: 'text', ...textNodeSize(label, Boolean(node.icon), iconOnTop) };
  }
  if (isMarker(node.shape) && !isContainer) {
    const size = node.shape === 'start' ? MARKER_SIZE.start : MARKER_SIZE.end;
    // A fork bar lies across the flow: wide in a vertical flow, tall in a horizontal one (iconOnTop).
    const [width, height]: [number, number] =
      node.shape !== 'fork' ? [size, size] : iconOnTop ? [MARKER_SIZE.forkThickness, MARKER_SIZE.forkLength] : [MARKER_SIZE.forkLength, MARKER_SIZE.forkThickness];
    return { node, label: null, isContainer: false, depth, shape: node.shape === 'fork' ? 'rectangle' : 'ellipse', marker: node.shape, width, height };
  }
  if (isContainer) {
    // A container's header: its label, and its icon after the label on the same row.
    const safe = safeWrap(node, true);
    // A marker given members is a plain container, still without a label.
    const block = isMarker(node.shape) ? null : textBlock(safe.label, safe.wrapAt);
    const label = block && needsRecord(node.label, safe.label) ? { ...block, authored: node.label } : block;
    const iconWidth = node.icon && !isMarker(node.shape) ? ICON_SIZE + (label ? ICON_GAP : 0) : 0;
    const width = (label?.width ?? 0) + iconWidth + 2 * BOUND_TEXT_PADDING + 2 * CONTAINER_HEADER_EXTRA;
    const height = Math.max(label?.height ?? 0, node.icon ? ICON_SIZE : 0) + 2 * BOUND_TEXT_PADDING + CONTAINER_HEADER_EXTRA;
    return { node, label, isContainer: true, depth, shape: 'rectangle', width: Math.ceil(width), height: Math.ceil(height) };
  }
  const shape = boxShapeOf(node.shape);
  const [minWidth, minHeight] = MIN_SIZE[sizedShape(node.shape)];
  const [marginX, marginY] = MARGIN[sizedShape(node.shape)];
  const iconHeight = node.icon ? ICON_SIZE + (node.label === '' ? 0 : ICON_GAP) : 0;
  if (node.label === '') {
    const fit = containerSizeForText(shape, node.icon ? ICON_SIZE : 0, iconHeight);
    const [width, height] = [Math.max(minWidth, fit.width + marginX), Math.max(minHeight, fit.height + marginY)];
    const side = Math.max(width, height);
    return { node, label: null, isContainer: false, depth, shape, ...(isRound(node.shape) ? { width: side, height: side } : { width, height }) };
  }
  // The label is wrapped in the final container's own text area, so the editor
  // re-wrapping it there (on edit or resize) gets the same lines; never inside a word.
  // Bold text is wider than the font measures: wrap it narrower so it still fits.
  const safe = safeWrap(node, false);
  const preferred = measureText(wrapText(safe.label, FONT_SIZE, safe.wrapAt, FONT_FAMILY_EXCALIFONT), FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  const target = containerSizeForText(shape, Math.max(preferred.width * (node.bold ? BOLD_WIDENS : 1), node.icon ? ICON_SIZE : 0), preferred.height + iconHeight);
  const fitted = fitTextInContainer(safe.label, shape, {
    fontSize: FONT_SIZE,
    fontFamily: FONT_FAMILY_EXCALIFONT,
    maxTextWidth: safe.wrapAt,
    minWidth: Math.max(minWidth, target.width + marginX),
    minHeight: Math.max(minHeight, target.height + marginY),
    sideRoom: sideRoom(node.shape, preferred.height, minHeight),
  });
  const label = { text: fitted.text, original: safe.label, width: fitted.textWidth, height: fitted.textHeight, ...(needsRecord(node.label, safe.label) ? { authored: node.label } : {}) };
  // With an icon the bound-text area must also hold it above the label.
  const height = node.icon ? Math.max(fitted.height, containerSizeForText(shape, fitted.textWidth, fitted.textHeight + iconHeight).height + marginY) : fitted.height;
  if (isRound(node.shape)) {
    const side = Math.max(fitted.width, height);
    return { node, label, isContainer: false, depth, shape, width: side, height: side };
  }
  return { node, label, isContainer: false, depth, shape, width: fitted.width, height };
}

/** Wrap widths a circle's label is tried at, from the usual one down, this far apart. */
const CIRCLE_WRAP_STEP = 8;
/** A wider wrap (fewer lines: "for each / row", not "for / each / row") wins when its circle is at most this much larger. */
const CIRCLE_SIDE_SLACK = 1.1;

/**
 * The wrap width that gives a circle's label the smallest circle: the circle
 * holds its text in the square inside it, so a label wrapped into a block
 * about as tall as it is wide needs the least room ("for each font face" on
 * one line made a 294-px circle; on two lines it takes about half that, near
 * Mermaid's). The widest wrap whose circle is within CIRCLE_SIDE_SLACK of
 * the smallest wins: fewer lines read more easily.
 */
/**
 * Where a node's label wraps, its words too wide for its box broken at their
 * break places (wordSafeWrap); bold text, which is wider than the font
 * measures, wraps narrower. The one rule for planning a node and for reading
 * its label back (authoredLabel).
 */
function safeWrap(node: Pick<SpecNode, 'label' | 'shape' | 'bold'>, isContainer: boolean): { label: string; wrapAt: number } {
  if (isContainer) return wordSafeWrap(node.label, WRAP_WIDTH.container);
  const shape = boxShapeOf(node.shape);
  const wrapWidth = node.bold ? Math.round(WRAP_WIDTH[shape] / BOLD_WIDENS) : WRAP_WIDTH[shape];
  return wordSafeWrap(node.label, isRound(node.shape) ? roundestWrap(node.label, wrapWidth) : wrapWidth);
}

/**
 * A node's label as its author wrote it, from the text Drawbridge drew (its
 * `originalText`): without the line breaks put inside a word too wide for
 * its box. The label Drawbridge recorded with the text (`recorded`, its
 * customData's `authoredLabel`) is taken when wrapping it still gives the
 * drawn text (a text edited since no longer does); else a break inside a word
 * is taken out only when wrapping the label without it gives back the drawn
 * text, so an author's own breaks stay.
 */
export function authoredLabel(shown: string, node: Pick<SpecNode, 'shape' | 'bold'>, isContainer: boolean, recorded?: unknown): string {
  const gives = (label: string) => safeWrap({ ...node, label }, isContainer).label === shown;
  if (typeof recorded === 'string' && gives(recorded)) return recorded;
  const joined = joinedAtBreaks(shown);
  return joined !== shown && gives(joined) ? joined : shown;
}

/** An edge's label as its author wrote it, as authoredLabel reads a node's. */
export function authoredEdgeLabel(shown: string, recorded?: unknown): string {
  const gives = (label: string) => wordSafeWrap(label, EDGE_LABEL_WRAP / WIDEN_FOR_WORD).label === shown;
  if (typeof recorded === 'string' && gives(recorded)) return recorded;
  const joined = joinedAtBreaks(shown);
  return joined !== shown && gives(joined) ? joined : shown;
}

function roundestWrap(label: string, widest: number): number {
  const tried: Array<{ width: number; side: number }> = [];
  for (let width = widest; width > 0; width -= CIRCLE_WRAP_STEP) {
    const safe = wordSafeWrap(label, width);
    const fitted = fitTextInContainer(safe.label, 'ellipse', { fontSize: FONT_SIZE, fontFamily: FONT_FAMILY_EXCALIFONT, maxTextWidth: safe.wrapAt });
    tried.push({ width, side: Math.max(fitted.width, fitted.height) });
    // Below the widest word the wrap cannot narrow the text any further.
    if (safe.wrapAt > width) break;
  }
  const smallest = Math.min(...tried.map((t) => t.side));
  return tried.find((t) => t.side <= smallest * CIRCLE_SIDE_SLACK)!.width;
}

/**
 * A text node: one line when it fits the wrap width (the editor sizes it to its
 * text); otherwise a fixed-width text that wraps, exactly as the editor wraps it.
 */
function standaloneText(label: string): TextBlock & { autoResize: boolean } {
  const oneLine = measureText(label, FONT_SIZE, FONT_FAMILY_EXCALIFONT);
  if (oneLine.width <= WRAP_WIDTH.text) return { text: label, original: label, ...oneLine, autoResize: true };
  const text = wrapText(label, FONT_SIZE, WRAP_WIDTH.text, FONT_FAMILY_EXCALIFONT);
  return { text, original: label, width: WRAP_WIDTH.text, height: measureText(text, FONT_SIZE, FONT_FAMILY_EXCALIFONT).height, autoResize: false };
}

/** Shapes whose outline cuts into the label's box at the sides: their label keeps its whole side margin, even re-wrapped in the final box. */
const SIDES_CUT_IN: ReadonlySet<SpecNode['shape']> = new Set(['stadium', 'hexagon', 'parallelogram', 'subroutine']);

/** How far a label keeps from its shape's outline. */
const OUTLINE_CLEARANCE = 6;
/** The same, measured across: 6 px square to a slant as steep as a hexagon's or a parallelogram's. */
const ACROSS_SLANT_CLEARANCE = 8;

/**
 * The width a label must leave free in the text area of a shape whose outline
 * cuts in at the sides (fitTextInContainer's sideRoom): the shape's side
 * margin, or more for a tall label, whose first and last lines reach where a
 * hexagon's points, a parallelogram's slant or a stadium's round ends lie
 * further in (the taller the shape, the deeper its points and slant and the
 * rounder its ends). The label's corners keep their distance from the outline.
 */
function sideRoom(shape: SpecNode['shape'], labelHeight: number, minHeight: number): number {
  if (!SIDES_CUT_IN.has(shape)) return 0;
  const [marginX, marginY] = MARGIN[shape as keyof typeof MARGIN];
  const height = Math.max(minHeight, labelHeight + 2 * BOUND_TEXT_PADDING + marginY);
  const half = labelHeight / 2;
  // How far in from the box's side the outline lies level with the label's first or last line, with the clearance added.
  const r = height / 2;
  const inset =
    shape === 'hexagon'
      ? OUTLINE.point * height * (half / r) + ACROSS_SLANT_CLEARANCE
      : shape === 'parallelogram'
        ? OUTLINE.slant * (r + half) + ACROSS_SLANT_CLEARANCE
        : shape === 'stadium'
          ? r - Math.sqrt(Math.max(0, (r - OUTLINE_CLEARANCE) ** 2 - half ** 2))
          : 0;
  // The text area's padding and half the slack (1 px) already keep the label 6 px in from the box's side.
  return Math.max(marginX, 2 * (inset - OUTLINE_CLEARANCE));
}

/** A circle and a double circle: equal sides, the label wrapped about as tall as wide. */
const isRound = (shape: SpecNode['shape']) => shape === 'circle' || shape === 'doublecircle';

/** A parallelogram's slant and a hexagon's point, as a share of the height; a cylinder's rim and a document's wave. */
export const OUTLINE = { slant: 0.35, point: 0.3, rim: [8, 14, 0.12], wave: [4, 10, 0.08], bar: 10 } as const;

export const round = (v: number) => Math.round(v * 100) / 100;
