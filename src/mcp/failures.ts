import { type ContentProblem, DrawbridgeApiError, type DrawbridgeClient, type ValidateContentBody } from '../client/client.ts';

// Tool error results: one clear sentence and the server's code; for a refused
// spec, edit, ops or scene, every problem with its hint.

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  /** A file that is neither text nor an image (a PDF), embedded as base64. */
  | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } };
export type ToolResult = { content: ContentBlock[]; isError?: boolean; structuredContent?: Record<string, unknown> };

export interface FailureBody {
  error: string;
  message: string;
  problems?: ContentProblem[];
}

export function failure(body: FailureBody): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], isError: true };
}

export interface FailureContext {
  tool: string;
  /** The diagram the call named: a not_found is then one sentence about it. */
  diagramId?: string;
  /** The revisions of that diagram the call named: a not_found may be about one of them. */
  revisions?: string[];
  /** The content the call sent, as the validation endpoint takes it: a refusal of it lists every problem. */
  validation?: ValidateContentBody;
}

/** For codes the server answers without a message. */
const SENTENCES: Record<string, string> = {
  insufficient_scope: 'This token lacks the capability this call needs; a person must mint a token that has it (drawbridge-admin token mint).',
  not_found: 'Nothing with that id exists, or you cannot see it.',
  rate_limited: 'Too many requests; wait a little and call again.',
  api_disabled: 'The Drawbridge API is disabled on this server for now; try again later.',
};

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

const missingDiagram = (id: string) => `No diagram with id "${id}" exists, or you cannot see it. List your diagrams with list_diagrams.`;

/** The API answers a missing revision and a missing diagram alike: the sentence names both. */
const missingRevision = (id: string, revisions: string[]) =>
  `No revision ${revisions.map((r) => `"${r}"`).join(' or ')} of diagram "${id}" exists, or you cannot see that diagram. List its revisions with list_revisions.`;

const HTTP_CONTENT_STATUSES = new Set([400, 413, 422]);

function listProblems(tool: string, what: string, problems: ContentProblem[]): string {
  const count = problems.length === 1 ? 'one problem' : `${problems.length} problems`;
  const lines = problems.map((p, i) => `${i + 1}. ${p.path || '/'}: ${sentence(p.message)}${p.hint ? ` Hint: ${sentence(p.hint)}` : ''} [${p.code}]`);
  return `${tool} was refused and nothing was written: the ${what} ${what === 'ops' ? 'have' : 'has'} ${count}. Fix all of them, then call again.\n${lines.join('\n')}`;
}

/** What the validated content is called in a message: the spec, the source, the edit, the ops, the scene. */
const contentName = (body: ValidateContentBody) => (['spec', 'source', 'edit', 'ops', 'scene'] as const).find((key) => key in body) ?? 'input';

/** Every problem the validation endpoint finds in `body`; null when it cannot say (an older server, no read capability). */
async function problemsOf(client: DrawbridgeClient, body: ValidateContentBody): Promise<ContentProblem[] | null> {
  try {
    const report = await client.validateContent(body);
    return Array.isArray(report.problems) && report.problems.length > 0 ? report.problems : null;
  } catch {
    return null;
  }
}

/** The error result for a failed call. */
export async function describeFailure(error: unknown, context: FailureContext, client: DrawbridgeClient, authHelp: string): Promise<ToolResult> {
  if (!(error instanceof DrawbridgeApiError)) {
    const message = error instanceof Error ? error.message : String(error);
    return failure({ error: 'unreachable', message: sentence(`Could not reach the Drawbridge API: ${message}`) });
  }
  const { code, status } = error;
  if (status === 401) return failure({ error: code, message: authHelp });
  if (code === 'not_found' && context.diagramId !== undefined) {
    const revisions = context.revisions ?? [];
    return failure({ error: code, message: revisions.length > 0 ? missingRevision(context.diagramId, revisions) : missingDiagram(context.diagramId) });
  }
  if (context.validation && HTTP_CONTENT_STATUSES.has(status)) {
    const problems = await problemsOf(client, context.validation);
    if (problems) return failure({ error: code, message: listProblems(context.tool, contentName(context.validation), problems), problems });
  }
  const detail = error.message && error.message !== code ? error.message : (SENTENCES[code] ?? `The server refused the call (${code})`);
  if (code === 'insufficient_scope' && detail !== SENTENCES[code]) return failure({ error: code, message: `${detail.replace(/[.]$/, '')}: a person must mint a token that has it (drawbridge-admin token mint).` });
  return failure({ error: code, message: sentence(detail) });
}
