import { ICON_LINKS } from './front-door/paths.ts';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Headers for every server-rendered page: nothing loads from elsewhere, no script runs; images are the page's own (data:) and the site's icons. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export interface PageOptions {
  /** `column` (the default) sets the body in a centred column; `full-screen` gives it the whole viewport to lay out. */
  layout?: 'column' | 'full-screen';
  /** CSS for this page alone, after the shared rules. */
  style?: string;
}

export function page(title: string, body: string, options: PageOptions = {}): string {
  const content = options.layout === 'full-screen' ? `<body class="full-screen">\n${body}\n</body>` : `<body><main>\n${body}\n</main></body>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
${ICON_LINKS}
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1e1e1e; background: #fafafa; }
main { max-width: 960px; margin: 3rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; }
.muted { color: #666; }
form { display: flex; gap: .5rem; margin-top: 1rem; }
input[type=password] { padding: .5rem .6rem; font: inherit; flex: 1; max-width: 20rem; border: 1px solid #ccc; border-radius: 6px; }
button { padding: .5rem 1rem; font: inherit; border-radius: 6px; border: 1px solid #5b57d1; background: #5b57d1; color: #fff; cursor: pointer; }
.error { color: #b00020; }
body.full-screen { display: flex; flex-direction: column; height: 100vh; height: 100dvh; overflow: hidden; background: #fff; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
${options.style ?? ''}
</style>
</head>
${content}
</html>`;
}
