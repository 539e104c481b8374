/**
 * What a Mermaid source says that the spec does not draw and Mermaid's parsed
 * model does not keep (or keeps without a line): found in the text, each kind
 * warned about once, at its first line.
 */
import type { SourceText, Warnings } from './source-text.ts';

interface LineRule {
  pattern: RegExp;
  message: string;
  /** Where to look: the code (comments and front matter emptied, the default), every line as written, or the front matter. */
  in?: 'code' | 'lines' | 'frontMatter';
}

const CLICK_WARNING = 'click handlers and links (click) are not kept';

const RULES: LineRule[] = [
  { pattern: /^\s*click\s/, message: CLICK_WARNING },
  { pattern: /^\s*(accTitle|accDescr)\b/, message: 'the accessible title and description (accTitle, accDescr) are not kept' },
  { pattern: /%%\{/, message: 'directives (%%{init: …}%%) are not applied: Drawbridge draws in its own style', in: 'lines' },
  { pattern: /^\s*config\s*:/, message: 'the front matter\'s config (theme, look, layout…) is not applied: Drawbridge draws in its own style', in: 'frontMatter' },
  { pattern: /^\s*flowchart-elk\b/, message: 'the ELK layout (flowchart-elk) is not used: Drawbridge lays diagrams out its own way' },
  { pattern: /@\{[^}]*\b(icon|img)\s*:/, message: 'icons and images in nodes (icon:, img:) are not drawn' },
  { pattern: /\bfa[bklrs]?:fa-[a-z0-9-]+/, message: 'Font Awesome icons (fa:fa-…) are not drawn; the label keeps its text' },
  { pattern: /^\s*linkStyle\b.*\binterpolate\b|@\{[^}]*\bcurve\s*:/, message: 'link curve styles (interpolate, curve:) are not kept: Drawbridge routes links its own way' },
  { pattern: /@\{[^}]*\banimat/, message: 'animated links (animate:, animation:) are drawn still' },
  { pattern: /\$\$.+?\$\$/, message: 'math ($$…$$) is written out as text' },
  { pattern: /^\s*scale\s+\d+/, message: 'scale is not applied' },
];

export function warnAboutLines(source: SourceText, warnings: Warnings): void {
  for (const rule of RULES) {
    const lines = rule.in === 'lines' ? source.lines : rule.in === 'frontMatter' ? source.frontMatter.map(({ text }) => text) : source.code;
    const index = lines.findIndex((line) => rule.pattern.test(line));
    if (index !== -1) warnings.add(rule.message, index + 1, rule.message);
  }
}
