// Import boundaries of src/, checked by scripts/check-architecture.mjs (`npm run check:architecture`,
// and `npm test` beside the tests). docs/architecture.md says the same in plain words, and its floors
// table lists FLOORS row for row (test/architecture.test.ts holds the two together).
//
// `forbidden` is a dependency-cruiser rule set: paths are regular expressions matched against the
// importing file (`from`) and the imported one (`to`), relative to the repository root; an npm package
// is matched by its resolved path (…/node_modules/<name>/…). Type-only imports (`import type`) are
// dependencies like any other: they count for the layer rules and for cycles.

// npm packages that bring a transport, a database or a UI framework with them.
const TRANSPORT_PACKAGES = '(^|/)node_modules/(fastify[^/]*|@fastify/[^/]+|@modelcontextprotocol/[^/]+|commander)(/|$)';
const IO_PACKAGES = '(^|/)node_modules/(fastify[^/]*|@fastify/[^/]+|@modelcontextprotocol/[^/]+|commander|pg|better-sqlite3|kysely|nodemailer|react[^/]*)(/|$)';

/**
 * The floors of src/ and what each may import of src/ besides itself: docs/architecture.md's table
 * ("may import") states the same lists, and test/architecture.test.ts fails when the two differ.
 * A floor is a folder (`http`), a pair of folders sharing a row (`cli`, `client`), or a file at
 * the top (`server.ts`); `*` means everything.
 */
export const FLOORS = [
  { floor: ['server.ts', 'main.ts'], mayImport: ['*'] },
  { floor: ['http'], mayImport: ['app', 'edge', 'api', 'auth', 'domain', 'errors.ts'] },
  { floor: ['web'], mayImport: ['app', 'edge', 'api', 'auth', 'render', 'mail', 'domain', 'store', 'errors.ts', 'config.ts'] },
  { floor: ['mcp'], mayImport: ['client', 'api', 'edge', 'auth', 'domain', 'errors.ts'] },
  { floor: ['oauth'], mayImport: ['app', 'edge', 'api', 'auth', 'errors.ts'] },
  { floor: ['admin'], mayImport: ['app', 'auth', 'store', 'errors.ts', 'config.ts'] },
  { floor: ['cli', 'client'], mayImport: ['api'] },
  { floor: ['edge'], mayImport: ['app', 'auth', 'domain', 'store', 'render', 'workers', 'errors.ts', 'config.ts'] },
  { floor: ['api'], mayImport: ['auth', 'store', 'domain', 'errors.ts'] },
  { floor: ['app'], mayImport: ['domain', 'auth', 'store', 'workers', 'render', 'mail', 'api', 'errors.ts', 'config.ts'] },
  { floor: ['mail'], mayImport: ['config.ts'] },
  { floor: ['auth'], mayImport: [] },
  { floor: ['store'], mayImport: ['auth', 'domain'] },
  { floor: ['workers'], mayImport: ['domain', 'api', 'errors.ts'] },
  { floor: ['render'], mayImport: ['domain', 'api', 'workers', 'errors.ts'] },
  { floor: ['domain'], mayImport: ['errors.ts'] },
  { floor: ['config.ts'], mayImport: ['auth', 'domain'] },
  { floor: ['errors.ts'], mayImport: [] },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path pattern of a floor or of something it imports: a folder, or a file at the top of src/. */
const pathOf = (name) => (name.endsWith('.ts') ? `^src/${escape(name)}$` : `^src/${escape(name)}/`);

/** One rule per floor: of src/, a file there imports only its own floor and what the floor may import. */
const floorRules = FLOORS.filter(({ mayImport }) => !mayImport.includes('*')).map(({ floor, mayImport }) => ({
  name: `floor-${floor.join('-').replace(/\.ts$/, '')}`,
  comment: `src/${floor.join(', src/')} imports of src/ only ${[...floor, ...mayImport].join(', ')}.`,
  severity: 'error',
  from: { path: floor.map(pathOf) },
  to: { path: '^src/', pathNot: [...floor, ...mayImport].map(pathOf) },
}));

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
export const forbidden = [
  {
    name: 'no-circular',
    comment: 'No import cycles anywhere in src/, type-only imports included.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  ...floorRules,
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
    name: 'app-no-transport-packages',
    comment: 'src/app imports no HTTP, MCP or CLI framework.',
    severity: 'error',
    from: { path: '^src/app/' },
    to: { path: TRANSPORT_PACKAGES },
  },
];

// Imports tolerated for now, each with its reason: { rule, from, to, reason }, written as the check
// prints them: from and to are repository paths (src/web/x.ts), or to is a package as imported
// (fastify); for no-circular, from and to are the first import of the printed chain.
// An exception that no longer matches anything fails the check too, so the list only shrinks.
/** @type {{ rule: string, from: string, to: string, reason: string }[]} */
export const exceptions = [];
