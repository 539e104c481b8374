import type { FastifyPluginAsync } from 'fastify';
import type { ServiceDeps } from '../app/deps.ts';
import { type Published, publishedDiagram, renderPublished, unlocksPublished } from '../app/public-links/published-diagram.ts';
import { toApiError } from '../edge/errors.ts';
import type { PageRequestLimit } from '../edge/page-limits.ts';
import { type Budget, consumeOrWait } from '../edge/rate-limit.ts';
import { escapeHtml, page, PAGE_HEADERS } from './html.ts';
import { VIEWER_PATH, VIEWER_SCRIPT } from './public-viewer.ts';

/** Password guesses at one link from one client address, counted with the service's other limits (shared by every instance on PostgreSQL). */
const PASSWORD_GUESSES: Budget = { keyPrefix: 'public-page', points: 10, duration: 60 };

function notFoundPage(): string {
  return page('Not found', '<h1>Not found</h1><p class="muted">This link does not exist or is no longer shared.</p>');
}

function passwordPage(slug: string, error: string | null): string {
  return page(
    'Password required',
    `<h1>This diagram is protected</h1>
<p class="muted">Enter the password you were given.</p>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/p/${escapeHtml(slug)}">
<input type="password" name="password" autocomplete="current-password" aria-label="Password" required autofocus>
<button type="submit">View</button>
</form>`,
  );
}

/**
 * The diagram page fills the viewport: a slim bar (the title, the view's buttons, the downloads), then the
 * picture, fitted to the window; the viewer script (public-viewer.ts) then lets it be zoomed and panned.
 */
const DIAGRAM_STYLE = `
header.title-bar { flex: none; display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; padding: .5rem 1rem; border-bottom: 1px solid #e9ecef; }
header.title-bar h1 { margin: 0; flex: 1 1 12rem; min-width: 0; font-size: 1rem; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
nav.view, nav.downloads { display: flex; align-items: center; gap: .35rem; font-size: .875rem; }
nav.view button { font: inherit; padding: .2rem .55rem; border: 1px solid #d0d0d8; border-radius: 6px; background: #fff; color: #1e1e1e; cursor: pointer; }
nav.downloads a { padding: .2rem .45rem; }
main.stage { flex: 1; min-height: 0; max-width: none; margin: 0; padding: 1rem; display: flex; align-items: center; justify-content: center; }
img.diagram { display: block; width: 100%; height: 100%; object-fit: contain; }
main.stage.viewing { display: block; position: relative; overflow: hidden; padding: 0; touch-action: none; cursor: grab; }
main.stage.viewing.dragging { cursor: grabbing; }
main.stage.viewing img.diagram { position: absolute; left: 0; top: 0; width: auto; height: auto; max-width: none; object-fit: fill; transform-origin: 0 0; user-select: none; -webkit-user-drag: none; }`;

/** The page's headers: a page's, and its own viewer script (from this server only). */
const DIAGRAM_PAGE_HEADERS = { ...PAGE_HEADERS, 'content-security-policy': PAGE_HEADERS['content-security-policy'].replace("default-src 'none';", "default-src 'none'; script-src 'self';") };

/** A file name for a download: the title, without what file systems refuse. */
const fileName = (title: string, extension: string) => `${(title.trim() || 'diagram').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 120)}.${extension}`;

/**
 * The diagram as the editor draws it (the faithful SVG, or the fast preview
 * when that is unavailable), shown full-screen through <img> with a data: URL:
 * an image document runs no script and loads nothing, whatever the scene
 * holds. Its text is listed too, out of sight, for screen readers and
 * find-in-page.
 */
async function diagramPage(deps: ServiceDeps, published: Published): Promise<string> {
  const { diagram } = published;
  const elements = JSON.parse(diagram.elementsJson) as Array<Record<string, unknown>>;
  const labels = elements
    .filter((e) => e.type === 'text' && typeof e.text === 'string' && e.isDeleted !== true)
    .map((e) => `<li>${escapeHtml(e.text as string)}</li>`)
    .join('\n');
  const svg = await renderPublished(deps, published);
  const data = svg ? `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` : null;
  const picture = data ? `<img class="diagram" src="${data}" alt="${escapeHtml(diagram.title)}">` : '<p class="muted">This diagram is empty.</p>';
  const slug = encodeURIComponent(published.link.slug);
  // A link without a password serves its pictures by URL; behind a password only the SVG shown here can be saved.
  const downloads = !data
    ? ''
    : published.link.passwordHash === null
      ? ['png', 'svg', 'pdf'].map((ext) => `<a href="/p/${slug}.${ext}" download="${escapeHtml(fileName(diagram.title, ext))}">${ext.toUpperCase()}</a>`).join('')
      : `<a href="${data}" download="${escapeHtml(fileName(diagram.title, 'svg'))}">SVG</a>`;
  const view = data
    ? `<nav class="view" aria-label="View"><button type="button" data-view="zoom-out" aria-label="Zoom out" hidden>−</button><button type="button" data-view="zoom-in" aria-label="Zoom in" hidden>+</button><button type="button" data-view="fit-width" hidden>Fit width</button><button type="button" data-view="actual-size" hidden>1:1</button></nav>`
    : '';
  return page(
    diagram.title,
    `<header class="title-bar"><h1>${escapeHtml(diagram.title)}</h1>${view}${downloads ? `<nav class="downloads" aria-label="Download">Download ${downloads}</nav>` : ''}</header>
<main class="stage">${picture}</main>
${labels ? `<section class="sr-only"><h2>Text in this diagram</h2><ul class="labels">${labels}</ul></section>` : ''}
${data ? `<script src="${VIEWER_PATH}" defer></script>` : ''}`,
    { layout: 'full-screen', style: DIAGRAM_STYLE },
  );
}

/**
 * The public page of a published diagram: `GET /p/:slug`, with a
 * password form where one is set (`POST /p/:slug`). Disabled, trashed and
 * unknown slugs are one 404. Nothing of the owner's account is shown.
 */
export const publicPagePlugin: FastifyPluginAsync<{ deps: ServiceDeps; pageLimit: PageRequestLimit }> = async (app, { deps, pageLimit }) => {
  const guesses = deps.store.rateLimits.limiter(PASSWORD_GUESSES);
  // Every request here, whatever the slug, counts against the client address's page budget.
  app.addHook('onRequest', pageLimit);

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'public page failed');
    // The other messages are written for API clients (a JSON Content-Type, say); this one tells a visitor when to come back.
    const detail = apiError.code === 'rate_limited' ? `<p class="error">${escapeHtml(apiError.message)}</p>` : '';
    reply.code(apiError.status).headers(apiError.headers).headers(PAGE_HEADERS).send(page('Something went wrong', `<h1>That did not work</h1>${detail}`));
  });

  app.get(VIEWER_PATH, async (_request, reply) =>
    reply.headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }).send(VIEWER_SCRIPT),
  );

  app.get<{ Params: { slug: string } }>('/p/:slug', async (request, reply) => {
    const found = await publishedDiagram(deps, request.params.slug);
    reply.headers(PAGE_HEADERS);
    if (!found) return reply.code(404).send(notFoundPage());
    if (found.link.passwordHash !== null) return reply.send(passwordPage(found.link.slug, null));
    return reply.headers(DIAGRAM_PAGE_HEADERS).send(await diagramPage(deps, found));
  });

  app.post<{ Params: { slug: string }; Body: unknown }>('/p/:slug', async (request, reply) => {
    const found = await publishedDiagram(deps, request.params.slug);
    reply.headers(PAGE_HEADERS);
    if (!found) return reply.code(404).send(notFoundPage());
    if (found.link.passwordHash === null) return reply.headers(DIAGRAM_PAGE_HEADERS).send(await diagramPage(deps, found));
    const wait = await consumeOrWait(guesses, `${request.ip}:${found.link.slug}`);
    if (wait !== null) {
      return reply.code(429).header('retry-after', String(wait)).send(passwordPage(found.link.slug, 'Too many attempts. Wait a minute and try again.'));
    }
    const body = request.body as Record<string, unknown> | undefined;
    const password = typeof body?.password === 'string' ? body.password : '';
    if (!(await unlocksPublished(found, password))) {
      return reply.code(401).send(passwordPage(found.link.slug, 'That password is not right.'));
    }
    return reply.headers(DIAGRAM_PAGE_HEADERS).send(await diagramPage(deps, found));
  });
};
