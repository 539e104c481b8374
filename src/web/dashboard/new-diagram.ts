/**
 * "New diagram": a title, a folder and a DiagramSpec typed or pasted as JSON
 * (docs/spec.md), created by the same use case as POST /api/v1/diagrams. A
 * refused spec comes back in the form, with the server's code and message.
 * The form opens with a working example, links to the grammar, and (with the
 * page's script, client/new-diagram.tsx) shows a live preview and an icon
 * picker; "Create a blank diagram" ignores the spec.
 */
import { z } from 'zod';
import type { Caller, ServiceDeps } from '../../app/deps.ts';
import { type ContentInput, contentProblemsOf, SPEC_CONTENT_ERRORS } from '../../app/diagrams/content.ts';
import { AnySpec, type AnySpecInput } from '../../domain/spec/any-spec.ts';
import { BODY_LIMIT_BYTES, checkPayloadShape, parseBodyWith } from '../../edge/validate.ts';
import { ApiError, type ErrorCode } from '../../errors.ts';
import type { UserRecord } from '../../store/store.ts';
import { escapeHtml } from '../html.ts';
import { csrfField, unverifiedBanner } from '../layout.ts';
import type { WebSession } from '../session.ts';
import type { FolderNode } from './folder-tree.ts';
import { folderOptions } from './page.ts';

/** What the text of the form is written in. */
const FORM_LANGUAGES = ['spec', 'mermaid', 'dot'] as const;
export type FormLanguage = (typeof FORM_LANGUAGES)[number];

export interface NewDiagramForm {
  title: string;
  folderId: string | null;
  /** The content as typed: a spec's JSON, Mermaid or DOT text, or blank for an empty diagram. */
  spec: string;
  language: FormLanguage;
}

/** The form's language field, the spec when absent or unknown. */
export const formLanguage = (raw: string | undefined): FormLanguage => (FORM_LANGUAGES as readonly string[]).includes(raw ?? '') ? (raw as FormLanguage) : 'spec';

/** Refusals the form shows next to the text that caused them; anything else is the app's error page. */
const SHOWN_IN_FORM = new Set<ErrorCode>([
  ...SPEC_CONTENT_ERRORS,
  'PROTO_KEY',
  'invalid_json',
  'bad_request',
  'payload_too_large',
  'quota_exceeded',
  'folder_forbidden',
]);

export function isFormError(error: unknown): error is ApiError {
  return error instanceof ApiError && SHOWN_IN_FORM.has(error.code);
}

/** The textarea as the create command's content: the spec (JSON parsed, not yet checked), a Mermaid or DOT source, or an empty scene when left blank. */
export function contentFromForm(text: string, language: FormLanguage = 'spec'): Omit<ContentInput, 'spec'> & { spec?: unknown } {
  if (text.trim() === '') return { scene: { elements: [] } };
  if (Buffer.byteLength(text) > BODY_LIMIT_BYTES) {
    throw new ApiError('payload_too_large', `the ${language === 'spec' ? 'spec' : 'source'} is over ${BODY_LIMIT_BYTES / (1024 * 1024)} MiB, the API's body limit`);
  }
  if (language !== 'spec') return { source: { language, text } };
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new ApiError('invalid_json', `the spec is not valid JSON: ${(error as Error).message}`);
  }
  checkPayloadShape(spec);
  return { spec };
}

const SpecBody = z.strictObject({ spec: AnySpec });

/**
 * A spec the web app was sent (the form's textarea, the preview) put through the spec schemas as an
 * API body's spec is: refused with the problem its check finds first (a large spec checked in a scene worker).
 */
export async function parsedSpec(deps: ServiceDeps, caller: Caller, spec: unknown): Promise<AnySpecInput> {
  return (await parseBodyWith(SpecBody, { spec }, (kind, content) => contentProblemsOf(deps, caller, kind, content))).spec;
}

function explain(error: ApiError, user: UserRecord): string {
  if (error.code === 'quota_exceeded') {
    const diagrams = user.quota === 1 ? 'diagram' : 'diagrams';
    return `You already have ${user.quota} active ${diagrams}, the most your account may keep. Move one to the trash, then try again.`;
  }
  return error.message;
}

/** The spec the form opens with: a small system that shows nodes, shapes, icons, edge labels and a dashed edge. */
const EXAMPLE_SPEC = `{
  "layout": { "direction": "LR" },
  "nodes": [
    { "id": "user", "label": "Shopper", "shape": "ellipse", "icon": "icon-user" },
    { "id": "web", "label": "Web app", "icon": "icon-react" },
    { "id": "api", "label": "Orders API", "icon": "icon-nodejs" },
    { "id": "db", "label": "Orders DB", "icon": "icon-postgresql", "backgroundColor": "#e7f5ff" },
    { "id": "cache", "label": "Cache", "icon": "icon-redis" }
  ],
  "edges": [
    "user -> web",
    "web -> api : HTTPS",
    { "from": "api", "to": "db", "label": "SQL" },
    { "from": "api", "to": "cache", "style": "dashed" }
  ]
}`;

/** What the form opens with when Mermaid or DOT is chosen (the page's script swaps them while the example is untouched). */
const EXAMPLE_MERMAID = `flowchart LR
  user([Shopper]) --> web[Web app]
  web -->|HTTPS| api[Orders API]
  api -->|SQL| db[(Orders DB)]
  api -.-> cache[Cache]`;

const EXAMPLE_DOT = `digraph shop {
  rankdir=LR;
  node [shape=box];
  user [label="Shopper", shape=ellipse];
  web [label="Web app"];
  api [label="Orders API"];
  db [label="Orders DB", shape=cylinder];
  user -> web;
  web -> api [label="HTTPS"];
  api -> db [label="SQL"];
  api -> cache [style=dashed];
}`;

export const EXAMPLES: Record<FormLanguage, string> = { spec: EXAMPLE_SPEC, mermaid: EXAMPLE_MERMAID, dot: EXAMPLE_DOT };

/** The other kinds of diagram the form can open with (`/app/new?example=…`), each as Mermaid writes it. */
export const KIND_EXAMPLES = {
  sequence: `sequenceDiagram
  autonumber
  actor U as User
  participant App as Web app
  participant IdP as Identity provider
  U->>App: Sign in
  App->>+IdP: /authorize
  alt consent given
    IdP-->>App: code
  else refused
    IdP-->>App: access_denied
  end
  deactivate IdP
  Note over App: session cookie set
  App-->>U: Signed in`,
  class: `classDiagram
  class Shape {
    <<interface>>
    +area() double
  }
  class Circle {
    -radius: double
    +area() double
  }
  class Drawing {
    +render() void
  }
  Shape <|.. Circle
  Drawing "1" o-- "*" Shape : contains`,
  er: `erDiagram
  CUSTOMER ||--o{ ORDER : places
  ORDER ||--|{ LINE_ITEM : contains
  CUSTOMER {
    int id PK
    string email UK
  }
  ORDER {
    int id PK
    int customer_id FK
  }
  LINE_ITEM {
    int order_id PK, FK
    int quantity
  }`,
} as const;
export type KindExample = keyof typeof KIND_EXAMPLES;
const KIND_NAMES: Record<KindExample, string> = { sequence: 'a sequence diagram', class: 'a class diagram', er: 'an entity-relationship diagram' };
export const kindExample = (raw: string | undefined): KindExample | null => (raw !== undefined && Object.hasOwn(KIND_EXAMPLES, raw) ? (raw as KindExample) : null);

/** Where the grammar is explained, on this server (help-page.ts). */
const GRAMMAR_PATH = '/app/help/spec';

const LANGUAGE_NAMES: Record<FormLanguage, string> = { spec: 'JSON spec', mermaid: 'Mermaid', dot: 'Graphviz DOT' };
/** The text box's label (the client script changes it with the language). */
const TEXT_LABELS: Record<FormLanguage, string> = { spec: 'Spec', mermaid: 'Mermaid', dot: 'DOT' };

export function newDiagramBody(session: WebSession, folders: FolderNode[], form: NewDiagramForm, error: ApiError | null): string {
  const problem = error
    ? `<div class="form-error" role="alert"><p class="error"><code>${escapeHtml(error.code)}</code>: ${escapeHtml(explain(error, session.user))}</p></div>`
    : '';
  return `<main class="new-diagram">
${unverifiedBanner(session)}
<h1>New diagram</h1>
${problem}
<form id="new-diagram-form" method="post" action="/app/diagrams">
${csrfField(session)}
<div class="new-diagram-fields">
<div><label for="title">Title</label>
<input id="title" type="text" name="title" value="${escapeHtml(form.title)}" maxlength="200" placeholder="Untitled diagram"></div>
<div><label for="folder">Folder</label>
<select id="folder" name="folderId">${folderOptions(folders, form.folderId, 'No folder')}</select></div>
</div>
<div class="spec-columns">
<div class="spec-editor">
<fieldset class="language-tabs"><legend>Written in</legend>
${FORM_LANGUAGES.map((language) => `<label><input type="radio" name="language" value="${language}"${form.language === language ? ' checked' : ''}> ${LANGUAGE_NAMES[language]}</label>`).join('\n')}
</fieldset>
<label for="spec">${TEXT_LABELS[form.language]}</label>
<p class="muted">A spec: nodes, edges (objects, or shorthand such as <code>a -&gt; b : label</code>) and a layout direction, as JSON (<a href="${GRAMMAR_PATH}" target="_blank" rel="noopener">the spec grammar</a> lists every field). Or paste a Mermaid flowchart, state, sequence, class or entity-relationship diagram, or a Graphviz DOT graph, as it sits in its file. The server lays it out; the example works as it is: change it, or start from it.</p>
<p class="muted examples">Start from an example: <a href="/app/new">a flowchart</a>${(Object.keys(KIND_EXAMPLES) as KindExample[]).map((kind) => `, <a href="/app/new?example=${kind}">${KIND_NAMES[kind]}</a>`).join('')}.</p>
<textarea id="spec" name="spec" spellcheck="false">
${escapeHtml(form.spec)}</textarea>
</div>
<div class="spec-side" id="spec-side" data-examples="${escapeHtml(JSON.stringify(EXAMPLES))}" hidden></div>
</div>
<div class="buttons"><button type="submit">Create diagram</button><button type="submit" name="blank" value="1" class="secondary" formnovalidate>Create a blank diagram</button><a href="/app">Cancel</a></div>
</form>
</main>`;
}
