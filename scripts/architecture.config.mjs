// Import boundaries of src/, checked by scripts/check-architecture.mjs (`npm run check:architecture`,
// and `npm test` before the tests). docs/architecture.md says the same in plain words.
//
// `forbidden` is a dependency-cruiser rule set: paths are regular expressions matched against the
// importing file (`from`) and the imported one (`to`), relative to the repository root; an npm package
// is matched by its resolved path (…/node_modules/<name>/…). Type-only imports (`import type`) are
// dependencies like any other: they count for the layer rules and for cycles.

// npm packages that bring a transport, a database or a UI framework with them.
const TRANSPORT_PACKAGES = '(^|/)node_modules/(fastify[^/]*|@fastify/[^/]+|@modelcontextprotocol/[^/]+|commander)(/|$)';
const IO_PACKAGES = '(^|/)node_modules/(fastify[^/]*|@fastify/[^/]+|@modelcontextprotocol/[^/]+|commander|pg|better-sqlite3|kysely|nodemailer|react[^/]*)(/|$)';

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
export const forbidden = [
  {
    name: 'no-circular',
    comment: 'No import cycles anywhere in src/, type-only imports included.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'domain-only-domain',
    comment: 'src/domain is the pure core: of src/ it imports only src/domain and the error catalogue (src/errors.ts), whose coded errors it throws.',
    severity: 'error',
    from: { path: '^src/domain/' },
    to: { path: '^src/', pathNot: ['^src/domain/', '^src/errors\\.ts$'] },
  },
  {
    name: 'domain-no-io-packages',
    comment: 'src/domain imports no transport, database, mailer, CLI or UI package.',
    severity: 'error',
    from: { path: '^src/domain/' },
    to: { path: IO_PACKAGES },
  },
  {
    name: 'domain-dom-only-in-mermaid-importer',
    comment: 'Of src/domain, only the Mermaid importer (src/domain/source/mermaid.ts and mermaid/) loads a DOM (jsdom) and Mermaid: Mermaid\'s parser sanitises labels with DOMPurify, which needs a window. The rest of the core stays free of browser stand-ins.',
    severity: 'error',
    from: { path: '^src/domain/', pathNot: '^src/domain/source/mermaid(\\.ts$|/)' },
    to: { path: '(^|/)node_modules/(jsdom|mermaid)(/|$)' },
  },
  {
    name: 'app-allowed-layers',
    comment: 'src/app (use cases) imports only domain, auth, store, workers, render, api, errors.ts and config.ts: never a transport (http, web, mcp, oauth, cli, admin, client) nor the composition root.',
    severity: 'error',
    from: { path: '^src/app/' },
    to: { path: '^src/', pathNot: ['^src/(app|domain|auth|store|workers|render|api)/', '^src/(errors|config)\\.ts$'] },
  },
  {
    name: 'app-no-transport-packages',
    comment: 'src/app imports no HTTP, MCP or CLI framework.',
    severity: 'error',
    from: { path: '^src/app/' },
    to: { path: TRANSPORT_PACKAGES },
  },
  {
    name: 'infrastructure-not-transports',
    comment: 'src/store, src/auth, src/render and src/workers import neither a transport (http, web, mcp, oauth, cli, admin) nor src/app.',
    severity: 'error',
    from: { path: '^src/(store|auth|render|workers)/' },
    to: { path: '^src/(http|web|mcp|oauth|cli|admin|app)/' },
  },
  {
    name: 'edge-below-transports',
    comment: 'src/edge (what every HTTP transport shares: the error envelope, request checks, rate limits, logging) imports no transport, no use case and not the composition root.',
    severity: 'error',
    from: { path: '^src/edge/' },
    to: { path: ['^src/(http|web|mcp|oauth|cli|admin|app)/', '^src/server\\.ts$'] },
  },
  {
    name: 'api-shapes-only',
    comment: 'src/api (the request and response shapes every client and server shares) imports no transport, no use case and not the composition root.',
    severity: 'error',
    from: { path: '^src/api/' },
    to: { path: ['^src/(http|web|mcp|oauth|cli|admin|app|edge)/', '^src/server\\.ts$'] },
  },
  {
    name: 'transports-apart',
    comment: 'src/http, src/web, src/mcp, src/oauth and src/admin do not import one another: what two of them share lives in app, auth, store, render, workers or domain. Only the composition root (src/server.ts) wires them together.',
    severity: 'error',
    from: { path: '^src/(http|web|mcp|oauth|admin)/' },
    to: { path: '^src/(http|web|mcp|oauth|admin)/', pathNot: '^src/$1/' },
  },
];

// Imports tolerated for now, each with its reason: { rule, from, to, reason }, written as the check
// prints them: from and to are repository paths (src/web/x.ts), or to is a package as imported
// (fastify); for no-circular, from and to are the first import of the printed chain.
// An exception that no longer matches anything fails the check too, so the list only shrinks.
/** @type {{ rule: string, from: string, to: string, reason: string }[]} */
export const exceptions = [];
