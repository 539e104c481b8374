import { escapeHtml } from '../html.ts';

/** A sidebar entry of the dashboard; `count` null shows none (a count the page does not know). */
export function sideLink(href: string, label: string, count: number | null, current: boolean, depth = 0): string {
  const style = depth > 0 ? ` style="--depth:${depth}"` : '';
  const shown = count === null ? '' : `<span class="count">${count}</span>`;
  return `<li${style}><a href="${escapeHtml(href)}"${current ? ' aria-current="page"' : ''}><span class="name">${escapeHtml(label)}</span>${shown}</a></li>`;
}
