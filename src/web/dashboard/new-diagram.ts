/**
 * "New diagram": a title, a folder and a DiagramSpec typed or pasted as JSON
 * (docs/spec.md), created by the same use case as POST /api/v1/diagrams. A
 * refused spec comes back in the form, with the server's code and message.
 */
import { type ContentInput, SPEC_CONTENT_ERRORS } from '../../app/diagrams/content.ts';
import { BODY_LIMIT_BYTES, checkPayloadShape } from '../../edge/validate.ts';
import { ApiError, type ErrorCode } from '../../errors.ts';
import type { UserRecord } from '../../store/store.ts';
import { escapeHtml } from '../html.ts';
import { csrfField, unverifiedBanner } from '../layout.ts';
import type { WebSession } from '../session.ts';
import type { FolderNode } from './folder-tree.ts';
import { folderOptions } from './page.ts';

export interface NewDiagramForm {
  title: string;
  folderId: string | null;
  /** The spec as typed: JSON text, or blank for an empty diagram. */
  spec: string;
}

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

/** The textarea as the create command's content: the parsed spec, or an empty scene when left blank. */
export function contentFromForm(text: string): ContentInput {
  if (text.trim() === '') return { scene: { elements: [] } };
  if (Buffer.byteLength(text) > BODY_LIMIT_BYTES) {
    throw new ApiError('payload_too_large', `the spec is over ${BODY_LIMIT_BYTES / (1024 * 1024)} MiB, the API's body limit`);
  }
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    throw new ApiError('invalid_json', `the spec is not valid JSON: ${(error as Error).message}`);
  }
  checkPayloadShape(spec);
  return { spec };
}

function explain(error: ApiError, user: UserRecord): string {
  if (error.code === 'quota_exceeded') {
    const diagrams = user.quota === 1 ? 'diagram' : 'diagrams';
    return `You already have ${user.quota} active ${diagrams}, the most your account may keep. Move one to the trash, then try again.`;
  }
  return error.message;
}

const PLACEHOLDER = `{
  "nodes": [
    { "id": "web", "label": "Web app" },
    { "id": "api", "label": "API" },
    { "id": "db", "label": "Database", "shape": "ellipse" }
  ],
  "edges": ["web -> api : HTTPS", "api -> db"],
  "layout": { "direction": "LR" }
}`;

export function newDiagramBody(session: WebSession, folders: FolderNode[], form: NewDiagramForm, error: ApiError | null): string {
  const problem = error
    ? `<div class="form-error" role="alert"><p class="error"><code>${escapeHtml(error.code)}</code>: ${escapeHtml(explain(error, session.user))}</p></div>`
    : '';
  return `<main class="new-diagram">
${unverifiedBanner(session)}
<h1>New diagram</h1>
${problem}
<form method="post" action="/app/diagrams">
${csrfField(session)}
<label for="title">Title</label>
<input id="title" type="text" name="title" value="${escapeHtml(form.title)}" maxlength="200" placeholder="Untitled diagram">
<label for="folder">Folder</label>
<select id="folder" name="folderId">${folderOptions(folders, form.folderId, 'No folder')}</select>
<label for="spec">Spec</label>
<p class="muted">A DiagramSpec as JSON: nodes, edges (objects or shorthand like <code>a -&gt; b : label</code>) and a layout direction; the server lays it out. Leave it empty for a blank diagram.</p>
<textarea id="spec" name="spec" spellcheck="false" placeholder="${escapeHtml(PLACEHOLDER)}">
${escapeHtml(form.spec)}</textarea>
<div class="buttons"><button type="submit">Create diagram</button><a href="/app">Cancel</a></div>
</form>
</main>`;
}
