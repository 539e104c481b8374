/**
 * How long the editor draws an arrowhead: its kind's full size, but at most
 * half as long as the arrow's last leg (a quarter for a diamond), so a short
 * last leg draws a small head. The renderer draws by it and lint measures by it.
 */
export function fullArrowheadSize(kind: string): number {
  if (kind === 'arrow') return 25;
  if (kind === 'diamond' || kind === 'diamond_outline') return 12;
  if (kind.startsWith('crowfoot_')) return 20;
  return 15;
}

/** The length the editor draws a head of this kind at, on a last leg this long. */
export function drawnArrowheadSize(kind: string, lastLeg: number): number {
  const isDiamond = kind === 'diamond' || kind === 'diamond_outline';
  return Math.min(fullArrowheadSize(kind), lastLeg * (isDiamond ? 0.25 : 0.5));
}
