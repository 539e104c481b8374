/**
 * `GET /`: what Drawbridge is, a picture it drew, and the ways in (sign in,
 * sign up as SIGNUP allows, the API reference, the MCP setup). Someone
 * already signed in goes straight to their diagrams.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../app/deps.ts';
import { escapeHtml } from '../html.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { FRONT_BAR_STYLE, frontDoorBar, SIGNUP_LINK_TEXT, type FrontDoorVisitor } from './frame.ts';
import { API_DOCS_PATH, LANDING_EXAMPLE_PATH, LANDING_PATH, MCP_SETUP_PATH, OPENAPI_DOCUMENT_PATH } from './paths.ts';

const LANDING_STYLE = `<style>
main.landing { max-width: 1100px; line-height: 1.55; }
main.landing a { color: var(--accent); }
main.landing a.button { color: #fff; }
main.landing a.button.secondary { color: var(--accent); }
.hero { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2.5rem; align-items: center; margin: 1.5rem 0 2.5rem; }
.hero h1 { font-size: 2rem; line-height: 1.2; margin: 0 0 1rem; letter-spacing: -.01em; }
.hero p.lede { font-size: 1.05rem; color: #333; margin: 0 0 1.25rem; }
.hero .actions { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; }
.hero .actions .button { padding: .6rem 1.2rem; }
.hero .note { font-size: .92rem; margin: .9rem 0 0; }
figure.example { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1rem; box-shadow: 0 6px 24px rgba(30,30,30,.06); }
figure.example img { display: block; width: 100%; height: auto; }
figure.example figcaption { font-size: .85rem; color: var(--muted); margin-top: .5rem; text-align: center; }
.features { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; margin: 0 0 2.5rem; padding: 0; list-style: none; }
.features li { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.1rem; }
.features h2 { font-size: 1.02rem; margin: 0 0 .35rem; }
.features p { margin: 0; color: #444; font-size: .95rem; }
section.try { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem; margin-bottom: 2.5rem; }
section.try h2 { margin-top: 0; }
section.try pre { background: #1e1e2e; color: #e6e6f0; padding: .9rem 1rem; border-radius: 8px; overflow-x: auto; font-size: .82rem; line-height: 1.5; margin: 0; }
footer.front-foot { border-top: 1px solid var(--line); padding: 1.25rem 0 2rem; color: var(--muted); font-size: .9rem; display: flex; flex-wrap: wrap; gap: 1.25rem; }
@media (max-width: 860px) {
  .hero, section.try { grid-template-columns: minmax(0, 1fr); }
  .features { grid-template-columns: minmax(0, 1fr); }
  .hero h1 { font-size: 1.7rem; }
}
</style>`;

const FEATURES: readonly [title: string, text: string][] = [
  ['Laid out for you', 'Send nodes and edges (with icons, labels and nested containers) and the server lays them out: shapes sized to their labels, arrows bound at both ends.'],
  ['Or bring a scene', 'Excalidraw scenes go in and come out as they are, so anything drawn in the editor is yours to read and change over the API.'],
  ['SVG, PNG and PDF', 'Every diagram renders on the server, with the editor’s own fonts, for a README, a chat message or a printed page.'],
  ['Edit together', 'Open a diagram in the browser editor with others; changes made over the API arrive live. Comment on shapes; go back in its history.'],
  ['Publish', 'Share with people as viewers or editors, or publish a read-only page, with a password if you like.'],
  ['For agents', 'AI agents connect over MCP, hosted here or run locally; scripts use the REST API or the drawbridge CLI with a token.'],
];

/** The way in, as SIGNUP allows: Sign up first when anyone may, a word about invitations or the operator otherwise. */
function actions(visitor: FrontDoorVisitor): string {
  const signupText = SIGNUP_LINK_TEXT[visitor.signup];
  const signUp = signupText ? `<a class="button" href="/signup">${escapeHtml(signupText)}</a>` : '';
  const signIn = `<a class="button${signupText ? ' secondary' : ''}" href="/login">Sign in</a>`;
  const note =
    visitor.signup === 'invite'
      ? '<p class="note muted">Accounts here are by invitation: sign up with the address someone invited.</p>'
      : visitor.signup === 'closed'
        ? '<p class="note muted">New accounts on this server are made by its operator.</p>'
        : '';
  return `<div class="actions">${signUp}${signIn}<a href="${API_DOCS_PATH}">API docs</a> · <a href="${MCP_SETUP_PATH}">MCP setup</a></div>\n${note}`;
}

function landingPage(visitor: FrontDoorVisitor, publicUrl: string): string {
  const features = FEATURES.map(([title, text]) => `<li><h2>${escapeHtml(title)}</h2><p>${escapeHtml(text)}</p></li>`).join('\n');
  const curl = `curl -X POST ${publicUrl}/api/v1/diagrams \\
  -H "Authorization: Bearer $SERVICE_TOKEN" \\
  -d '{"title": "Overview", "spec": {
        "layout": {"direction": "LR"},
        "nodes": [{"id": "agent", "icon": "icon-bot"},
                  {"id": "drawbridge", "icon": "icon-api"}],
        "edges": ["agent -> drawbridge : MCP"]}}'

curl -H "Authorization: Bearer $SERVICE_TOKEN" \\
  "${publicUrl}/api/v1/diagrams/$ID/render?format=svg"`;
  const body = `${frontDoorBar(visitor, LANDING_PATH)}
<main class="landing">
<section class="hero">
<div>
<h1>Diagrams that people and AI agents make together, over plain HTTP</h1>
<p class="lede">Drawbridge is a self-hostable diagram service. Describe a diagram as nodes and edges and the server lays it out, or send an Excalidraw scene. Render it to SVG, PNG or PDF; edit it in the browser, comment on it and publish it. Scripts, the command line and AI agents (over MCP) drive it with the same API.</p>
${actions(visitor)}
</div>
<figure class="example">
<img src="${LANDING_EXAMPLE_PATH}" width="1024" height="450" alt="A diagram drawn by Drawbridge: an AI agent (over MCP), a person in the editor and scripts (over HTTP) all lead to Drawbridge, which renders SVG, PNG and PDF and publishes pages.">
<figcaption>Drawn by Drawbridge from a spec of six nodes and five edges.</figcaption>
</figure>
</section>
<ul class="features">
${features}
</ul>
<section class="try">
<div>
<h2>Try it from a terminal</h2>
<p>Make a token under <strong>API tokens</strong> once you are signed in, then create a diagram from a spec and render it. Every operation, with its request and answer, is in the <a href="${API_DOCS_PATH}">API reference</a>; the document behind it is <a href="${OPENAPI_DOCUMENT_PATH}">OpenAPI&nbsp;3</a>.</p>
<p>For an AI agent, add this server to its MCP host by URL and allow it in the browser: the <a href="${MCP_SETUP_PATH}">MCP setup</a> page has the configuration for the common hosts.</p>
</div>
<pre><code>${escapeHtml(curl)}</code></pre>
</section>
<footer class="front-foot"><span>Drawbridge at ${escapeHtml(new URL(publicUrl).host)}</span><a href="${API_DOCS_PATH}">API reference</a><a href="${MCP_SETUP_PATH}">MCP setup</a><a href="${OPENAPI_DOCUMENT_PATH}">OpenAPI document</a></footer>
</main>`;
  return appPage('Diagrams over plain HTTP', body, { head: `${FRONT_BAR_STYLE}\n${LANDING_STYLE}` });
}

export const landingRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(LANDING_PATH, async (request, reply) => {
    if (request.webSession) return reply.redirect('/app', 303);
    return reply.headers(APP_PAGE_HEADERS).send(landingPage({ signup: deps.config.signup, signedIn: false }, deps.config.publicUrl));
  });
};
