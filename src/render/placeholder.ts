/** The image a scene too large to render gets instead: one of over 5000 elements, or whose SVG would be over MAX_SVG_BYTES (docs/rendering.md). */
export function placeholderSvg(elementCount: number, limit: number): string {
  return placeholder(
    `This diagram has ${elementCount.toLocaleString('en-US')} elements`,
    `Renders stop at ${limit.toLocaleString('en-US')}: open it in the editor, or split it.`,
  );
}

/** The placeholder for a scene whose image would be `svgBytes` long, over `limit`. */
export function oversizedPlaceholderSvg(svgBytes: number, limit: number): string {
  const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
  return placeholder('This diagram is too large to render', `Its image would be ${megabytes(svgBytes)}; renders stop at ${megabytes(limit)}.`);
}

function placeholder(message: string, detail: string): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 1024 640" width="1024" height="640">',
    '<rect x="0" y="0" width="1024" height="640" fill="#f8f9fa"/>',
    '<rect x="32" y="32" width="960" height="576" rx="24" fill="none" stroke="#adb5bd" stroke-width="4" stroke-dasharray="16 12"/>',
    `<text x="512" y="300" font-family="Liberation Sans, Helvetica, Arial, sans-serif" font-size="40" fill="#343a40" text-anchor="middle">${message}</text>`,
    `<text x="512" y="360" font-family="Liberation Sans, Helvetica, Arial, sans-serif" font-size="26" fill="#868e96" text-anchor="middle">${detail}</text>`,
    '</svg>',
  ].join('');
}
