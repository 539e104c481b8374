/** The runs of text an SVG draws, as the font decision reads them: each <text>'s font stack and characters. */
import type { TextRun } from './index.ts';

const ENTITY: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Undoes XML escaping in text content or an attribute value. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITY[name] ?? whole;
  });
}

/** Each <text> of an SVG document (as both renderers write them: one font-family attribute each, no nested stacks). */
export function svgTextRuns(svg: string): TextRun[] {
  const runs: TextRun[] = [];
  for (const match of svg.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const fontFamily = /\sfont-family="([^"]*)"/.exec(match[1]!)?.[1];
    runs.push({ fontFamily: decodeXmlText(fontFamily ?? ''), text: decodeXmlText(match[2]!.replace(/<[^>]*>/g, '')) });
  }
  return runs;
}
