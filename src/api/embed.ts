/**
 * The embeddable image of a published diagram: its URL (the public page's
 * URL with `.svg` or `.png`) and the Markdown that shows it in a README, a
 * wiki or a pull request, always as the diagram is now.
 */

/** The image URL of a public page URL (`…/p/<slug>` → `…/p/<slug>.svg`). */
function embedImageUrl(publicUrl: string, format: 'svg' | 'png' = 'svg'): string {
  return `${publicUrl}.${format}`;
}

/** `![title](…/p/<slug>.svg)`, the title's Markdown punctuation escaped so it stays alt text. */
export function embedMarkdown(title: string, publicUrl: string): string {
  const alt = title.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').trim() || 'Diagram';
  return `![${alt}](${embedImageUrl(publicUrl)})`;
}
