/**
 * A new label in a node that keeps its size: an edit never moves or resizes an
 * existing element, so the label is wrapped in the container's text area as
 * the editor wraps it and, when it still does not fit, drawn one font size
 * smaller at a time down to a floor. A node's icon stays where it is, and the
 * label must stay clear of it.
 */
import type { Box } from '../layout/types.ts';
import { ICON_GAP, type TextBlock } from '../scene/node-plan.ts';
import { boundTextArea, labelPosition } from '../scene/factory.ts';
import { measureText, wrapText } from '../text/metrics.ts';
import type { BoxShape } from './fragment.ts';
import { interiorsMeet } from './scene-index.ts';

export type VerticalAlign = 'top' | 'middle' | 'bottom';
export type TextAlign = 'left' | 'center' | 'right';

/** No label shrinks below this, whatever its size. */
const SMALLEST_FONT_SIZE = 12;
/** A label shrinks to no less than this share of its font size. */
const SHRINK_FLOOR_PERCENT = 60;

/** The smallest font size a label of this size may shrink to (its own size when that is already smaller). */
export function fontSizeFloor(fontSize: number): number {
  // In whole percent, so 60 % of 20 is exactly 12.
  return Math.min(fontSize, Math.max(SMALLEST_FONT_SIZE, Math.ceil((fontSize * SHRINK_FLOOR_PERCENT) / 100)));
}

/** The font sizes tried, largest first: the label's own, then each whole size below it down to the floor. */
function fontSizesFrom(fontSize: number): number[] {
  const sizes = [fontSize];
  for (let size = Math.ceil(fontSize) - 1; size >= fontSizeFloor(fontSize); size--) sizes.push(size);
  return sizes;
}

/**
 * Whether a label is clear of an icon: ICON_GAP apart, as sceneFromSpec draws
 * them (half a pixel allowed for rounding).
 */
export function isClearOfIcon(label: Box, icon: Box): boolean {
  const margin = ICON_GAP - 0.5;
  return !interiorsMeet({ x: label.x - margin, y: label.y - margin, width: label.width + 2 * margin, height: label.height + 2 * margin }, icon);
}

export interface LabelRequest {
  label: string;
  shape: BoxShape;
  /** The container's box, unrotated. */
  box: Box;
  fontSize: number;
  fontFamily: number;
  textAlign: TextAlign;
  verticalAlign: VerticalAlign;
  /** The node's icon, which the label must stay clear of. */
  icon: Box | null;
}

interface FittedLabel {
  block: TextBlock;
  fontSize: number;
  /** Where the block goes in the container: where the editor puts it, a title moved aside a little further in (labelPosition). */
  position: { x: number; y: number };
}

/** A label that fits at no size: as wrapped at the floor, and the room the container leaves it. */
export interface LabelMisfit {
  fits: false;
  floor: FittedLabel;
  /** The text area, or what of it is left below an icon that sits in it. */
  room: { width: number; height: number; belowIcon: boolean };
}

export type LabelFit = { fits: true; label: FittedLabel } | LabelMisfit;

/**
 * The largest font size, from the label's own down to its floor, at which the
 * label wrapped in the container's text area fits that area and stays clear
 * of the icon; or, when none does, the label at the floor and the room the
 * container leaves it (below the icon when the icon sits in the text area).
 */
export function fitLabelInContainer(request: LabelRequest): LabelFit {
  const area = boundTextArea(request.shape, request.box);
  const at = (fontSize: number): FittedLabel => {
    const text = wrapText(request.label, fontSize, area.width, request.fontFamily);
    const block = { text, original: request.label, ...measureText(text, fontSize, request.fontFamily) };
    return { block, fontSize, position: labelPosition(area, block, request.verticalAlign, request.textAlign, request.icon ? request.icon.y + request.icon.height : undefined) };
  };
  // The editor grows a container whose text area is narrower or shorter than its text: the label must fit it exactly.
  const fitsArea = ({ block, position }: FittedLabel) =>
    block.width <= area.width && block.height <= area.height && (request.icon === null || isClearOfIcon({ ...position, width: block.width, height: block.height }, request.icon));
  let last: FittedLabel | null = null;
  for (const fontSize of fontSizesFrom(request.fontSize)) {
    last = at(fontSize);
    if (fitsArea(last)) return { fits: true, label: last };
  }
  const icon = request.icon;
  const belowIcon = icon !== null && icon.y >= area.y - 0.5 && icon.y + icon.height <= area.y + area.height + 0.5;
  const height = belowIcon ? area.y + area.height - (icon.y + icon.height + ICON_GAP) : area.height;
  return { fits: false, floor: last!, room: { width: area.width, height: Math.max(0, height), belowIcon } };
}
