/**
 * `GET /docs/mcp`: how to connect an MCP host to this server, with every
 * snippet written for this server's PUBLIC_URL: the hosted endpoint by URL
 * (the host signs in through OAuth), the hosted endpoint with a token, a
 * bridge for hosts that only start local processes, and the local
 * `drawbridge-mcp`. Each snippet has a Copy button (copy.js, served here).
 */
import type { FastifyPluginAsync } from 'fastify';
import { serviceResources } from '../../api/oauth-paths.ts';
import type { AppDeps } from '../../app/deps.ts';
import { escapeHtml } from '../html.ts';
import { APP_PAGE_HEADERS, appPage } from '../layout.ts';
import { TOKENS_PATH } from '../tokens-view.ts';
import { FRONT_BAR_STYLE, frontDoorBar, type FrontDoorVisitor } from './frame.ts';
import { API_DOCS_PATH, MCP_SETUP_PATH } from './paths.ts';

const COPY_SNIPPET_SCRIPT_PATH = '/docs/copy.js';

const TOKEN_PLACEHOLDER = 'drw_pat_...';

const STYLE = `<style>
main.docs { max-width: 54rem; line-height: 1.55; }
main.docs h1 { font-size: 1.8rem; margin-top: 1rem; }
main.docs h2 { font-size: 1.2rem; margin-top: 2.25rem; }
main.docs code { background: #f0f0f5; padding: .05rem .3rem; border-radius: 4px; font-size: .92em; }
.snippet { position: relative; margin: .75rem 0 1rem; }
.snippet pre { background: #1e1e2e; color: #e6e6f0; padding: .9rem 1rem; padding-right: 5.5rem; border-radius: 8px; overflow-x: auto; font-size: .85rem; line-height: 1.5; margin: 0; }
.snippet pre code { background: none; padding: 0; font-size: inherit; }
.snippet button { position: absolute; top: .5rem; right: .5rem; padding: .25rem .7rem; font-size: .82rem; background: #fff; color: var(--accent); }
.endpoint { font-size: 1.05rem; }
/* On a phone a snippet is wider than the screen and scrolls inside its box: Copy sits in a strip above the text, never over it. */
@media (max-width: 640px) {
  .snippet pre { padding: 2.6rem .9rem .9rem; }
  main.docs { padding: 0 1rem; }
}
</style>
<script src="${COPY_SNIPPET_SCRIPT_PATH}" defer></script>`;

/** Copies a snippet on a click; without script the Copy buttons stay hidden and the text can be selected by hand. */
const COPY_SNIPPET_SCRIPT = `'use strict';
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  if (!source) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = 'Copied';
    } catch {
      getSelection().selectAllChildren(source);
      button.textContent = 'Press Ctrl+C';
    }
  });
}
`;

function snippet(id: string, text: string): string {
  return `<div class="snippet"><pre><code id="${id}">${escapeHtml(text)}</code></pre><button type="button" data-copy="${id}" hidden aria-label="Copy">Copy</button></div>`;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function mcpSetupPage(visitor: FrontDoorVisitor, publicUrl: string): string {
  const endpoint = serviceResources(publicUrl).mcp;
  const bearer = `Bearer ${TOKEN_PLACEHOLDER}`;
  const body = `${frontDoorBar(visitor, MCP_SETUP_PATH)}
<main class="docs">
<h1>Connect an AI agent over MCP</h1>
<p>Drawbridge speaks the Model Context Protocol: an agent gets tools to create diagrams from a spec, read and render them, edit, patch, comment and publish, with exactly the access of the account it acts for. This server’s MCP endpoint is</p>
<p class="endpoint"><code>${escapeHtml(endpoint)}</code></p>

<h2 id="by-url">Add it by URL (sign in in the browser)</h2>
<p>Hosts that add a remote MCP server by URL (Claude, VS Code, Cursor and others) need only the address above. The host registers itself, opens this server’s sign-in page, and you choose what it may do (read, write, publish, delete). You can disconnect it at any time under <a href="${TOKENS_PATH}#connected-apps">API tokens → Connected applications</a>.</p>
${snippet('snippet-url-json', json({ mcpServers: { drawbridge: { type: 'http', url: endpoint } } }))}
<p>In Claude Code:</p>
${snippet('snippet-url-claude', `claude mcp add --transport http drawbridge ${endpoint}`)}

<h2 id="with-token">Or with a personal access token</h2>
<p>Any host that sends custom headers can use a token instead: make one under <a href="${TOKENS_PATH}">API tokens</a> with only the capabilities the agent needs (read and write are enough for everything but trashing diagrams) and put it in place of <code>${TOKEN_PLACEHOLDER}</code>. In VS Code the key is <code>servers</code> rather than <code>mcpServers</code>.</p>
${snippet('snippet-token-json', json({ mcpServers: { drawbridge: { type: 'http', url: endpoint, headers: { Authorization: bearer } } } }))}
${snippet('snippet-token-claude', `claude mcp add --transport http drawbridge ${endpoint} --header "Authorization: ${bearer}"`)}
<p>A host that only starts local processes (Claude Desktop’s configuration file, for one) can reach the endpoint through <code>mcp-remote</code>:</p>
${snippet(
  'snippet-remote-json',
  json({ mcpServers: { drawbridge: { command: 'npx', args: ['mcp-remote', endpoint, '--header', 'Authorization:${DRAWBRIDGE_AUTH}'], env: { DRAWBRIDGE_AUTH: bearer } } } }),
)}

<h2 id="local">Or run the MCP server locally</h2>
<p>From a checkout or an install of Drawbridge, <code>drawbridge-mcp</code> serves the same tools over stdio, as a client of this server’s API:</p>
${snippet('snippet-stdio-json', json({ mcpServers: { drawbridge: { command: '/path/to/drawbridge/bin/drawbridge-mcp', env: { SERVICE_TOKEN: TOKEN_PLACEHOLDER, SERVICE_API_URL: publicUrl } } } }))}
<p>Check the token and the address before handing them to the agent:</p>
${snippet('snippet-stdio-health', `SERVICE_TOKEN=${TOKEN_PLACEHOLDER} SERVICE_API_URL=${publicUrl} bin/drawbridge-mcp --health`)}

<h2 id="more">What the agent can do</h2>
<p>The tools call the REST API as the account they act for, so they can do what the <a href="${API_DOCS_PATH}">API reference</a> describes, within the token’s capabilities and the API’s rate limits. Every result that names a diagram carries its editor link, so you can open what the agent drew and carry on by hand.</p>
</main>`;
  return appPage('MCP setup', body, { head: `${FRONT_BAR_STYLE}\n${STYLE}` });
}

export const mcpSetupRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(MCP_SETUP_PATH, async (request, reply) => {
    const visitor = { signup: deps.config.signup, signedIn: request.webSession !== null };
    return reply.headers(APP_PAGE_HEADERS).send(mcpSetupPage(visitor, deps.config.publicUrl));
  });

  app.get(COPY_SNIPPET_SCRIPT_PATH, async (_request, reply) =>
    reply
      .headers({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .send(COPY_SNIPPET_SCRIPT),
  );
};
