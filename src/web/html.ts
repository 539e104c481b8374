/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Headers for every server-rendered page: nothing loads from elsewhere, no script runs. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1e1e1e; background: #fafafa; }
main { max-width: 960px; margin: 3rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; }
.muted { color: #666; }
form { display: flex; gap: .5rem; margin-top: 1rem; }
input[type=password] { padding: .5rem; font-size: 1rem; flex: 1; max-width: 20rem; }
button { padding: .5rem 1rem; font-size: 1rem; }
.error { color: #b00020; }
ul.labels li { margin: .25rem 0; }
img.diagram { display: block; max-width: 100%; height: auto; margin: 1.5rem 0; background: #fff; border: 1px solid #e9ecef; border-radius: 8px; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}
