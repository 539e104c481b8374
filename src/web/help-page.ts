/**
 * `GET /app/help/spec`: the spec grammar (docs/spec.md) as a page of the web
 * app, so "New diagram" can link to it on this server whatever the network.
 * The document is the project's own, rendered once with marked; links to the
 * other documents, which are not served, keep their text only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { Marked } from 'marked';
import { escapeHtml } from './html.ts';
import { APP_PAGE_HEADERS, appPage } from './layout.ts';
import { requireSession } from './session.ts';

// Read from the checkout's docs/ whether this module runs from src/ or dist/ (as assets.ts reads src/web/client).
const SPEC_DOCUMENT = path.join(fileURLToPath(new URL('../../', import.meta.url)), 'docs', 'spec.md');

const HELP_STYLE = `<style>
main.help { max-width: 52rem; line-height: 1.55; }
main.help pre { background: #f4f4f7; padding: .75rem 1rem; border-radius: 8px; overflow-x: auto; font-size: .85rem; }
main.help table { margin: .75rem 0; font-size: .92rem; }
main.help td:not(:first-child) code { overflow-wrap: anywhere; }
@media (max-width: 600px) {
  main.help { padding: 0 1rem; }
  main.help ul, main.help ol { padding-left: 1.25rem; }
  main.help table { font-size: .85rem; }
  main.help th, main.help td { padding: .45rem .4rem; }
}
main.help code { background: #f4f4f7; padding: .05rem .25rem; border-radius: 4px; }
main.help pre code { background: none; padding: 0; }
</style>`;

const markdown = new Marked({
  renderer: {
    link({ href, tokens }) {
      const text = this.parser.parseInline(tokens);
      return href.startsWith('#') ? `<a href="${escapeHtml(href)}">${text}</a>` : text;
    },
  },
});

let rendered: string | null = null;

function grammarHtml(): string {
  rendered ??= markdown.parse(fs.readFileSync(SPEC_DOCUMENT, 'utf8'), { async: false });
  return rendered;
}

export const helpRoutes: FastifyPluginAsync = async (app) => {
  app.get('/app/help/spec', async (request, reply) => {
    const session = requireSession(request);
    const body = `<main class="help">\n<p><a href="/app/new">← New diagram</a></p>\n${grammarHtml()}\n</main>`;
    return reply.headers(APP_PAGE_HEADERS).send(appPage('Spec grammar', body, { session, head: HELP_STYLE }));
  });
};
