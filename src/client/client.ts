import type { z } from 'zod';
import type * as H from '../api/history-schemas.ts';
import type * as S from '../api/schemas.ts';
import type * as Sh from '../api/sharing-schemas.ts';
import type { RenderOptions } from '../api/render-options.ts';

/** An API failure as the server stated it: status, machine code, message, request id. */
export class DrawbridgeApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;

  constructor(status: number, code: string, message: string, requestId: string | null) {
    super(message);
    this.name = 'DrawbridgeApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

export interface ClientOptions {
  apiUrl: string;
  token: string | null;
  /** How many times a 429 is retried after its Retry-After (default 3). */
  maxRetries?: number;
  /** Longest wait honoured for one Retry-After, in seconds (default 60). */
  maxRetryAfterSeconds?: number;
  fetch?: typeof fetch;
  /** Headers sent with every request, besides the client's own (accept, authorization, content-type, which they cannot replace). */
  headers?: Record<string, string>;
}

type Out<T extends z.ZodType> = z.output<T>;
type Query = Record<string, string | number | undefined>;

/** What the diagram list can be narrowed to; `folderId` is a folder id or `none` for the top level. */
export interface DiagramFilters {
  /** `shared`: diagrams others own that are shared with you or in your workspaces. */
  filter?: 'active' | 'trash' | 'shared';
  /** Only this workspace's diagrams. */
  workspace?: string;
  /** Case-insensitive substring of the title. */
  q?: string;
  folderId?: string;
  starred?: boolean;
}

/** A rendered image as the server sent it. */
export interface RenderedImage {
  /** Null when the diagram is empty (nothing to render). */
  bytes: Uint8Array | null;
  contentType: string;
  /** The fidelity actually delivered (x-render-quality). */
  quality: S.RenderQuality;
  /** x-render-note, e.g. faithful_unavailable; null when none applies. */
  note: string | null;
}

/** Render options as the query parameters the server reads (width, scale, padding, background, theme, elements, frame). */
function renderOptionsQuery({ width, scale, padding, background, theme, elementIds, frameId }: RenderOptions): Record<string, string | undefined> {
  return {
    width: width?.toString(),
    scale: scale?.toString(),
    padding: padding?.toString(),
    background,
    theme,
    elements: elementIds?.join(','),
    frame: frameId,
  };
}

const IMAGE_TYPES = { png: 'image/png', svg: 'image/svg+xml', pdf: 'application/pdf' } as const;

/** The headers the client sets itself on every request. */
const OWN_HEADERS = new Set(['accept', 'authorization', 'content-type']);

/** Extra headers by lower-case name, without those the client sets itself. */
function extraHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => !OWN_HEADERS.has(name)),
  );
}

/**
 * A path segment that is empty, `.` or `..`: an id written into a path as one
 * (an empty id, say) would make the URL name another route, the list or a
 * parent, instead of a resource.
 */
const NOT_A_SEGMENT = /\/\.{0,2}(?=\/|$)/;

/**
 * The typed client of the Drawbridge API, shared by the CLI and the MCP server.
 * Request bodies are the server's own schema types; every failure is a
 * DrawbridgeApiError carrying the server's code and message.
 */
/**
 * Every item of a cursor-paged list, following cursors page by page (100 a
 * page unless `pageSize` says otherwise); `onPage` hears of each page as it arrives.
 */
async function* everyPage<Item>(
  fetchPage: (page: { limit: number; cursor?: string }) => Promise<{ items: Item[]; nextCursor: string | null }>,
  options: { pageSize?: number | undefined; onPage?: ((fetched: number) => void) | undefined },
): AsyncGenerator<Item> {
  let cursor: string | undefined;
  let fetched = 0;
  do {
    const page = await fetchPage({ limit: options.pageSize ?? 100, ...(cursor ? { cursor } : {}) });
    fetched += page.items.length;
    options.onPage?.(fetched);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

export class DrawbridgeClient {
  private readonly options: Required<Omit<ClientOptions, 'token'>> & { token: string | null };

  constructor(options: ClientOptions) {
    this.options = { maxRetries: 3, maxRetryAfterSeconds: 60, fetch: globalThis.fetch, ...options, apiUrl: options.apiUrl.replace(/\/+$/, ''), headers: extraHeaders(options.headers) };
  }

  /**
   * A client like this one that also sends `headers` with every request. This
   * one is left as it was, so each caller can hold its own (the MCP server
   * gives each tool one naming it) while calls run concurrently.
   */
  withHeaders(headers: Record<string, string>): DrawbridgeClient {
    return new DrawbridgeClient({ ...this.options, headers: { ...this.options.headers, ...headers } });
  }

  /** Sends one request, waiting out 429s (bounded); resolves with the successful response, else throws the server's error. */
  private async request(method: string, path: string, options: { body?: unknown; query?: Query; accept?: string } = {}): Promise<Response> {
    // The server answers an id that names nothing with not_found; so does the client, for one it cannot even send.
    if (NOT_A_SEGMENT.test(path)) throw new DrawbridgeApiError(404, 'not_found', 'an id must not be empty, "." or ".."', null);
    const url = new URL(`${this.options.apiUrl}/api/v1${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...this.options.headers, accept: options.accept ?? 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const res = await this.options.fetch(url, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
      if (res.status === 429 && attempt < this.options.maxRetries) {
        const wait = Math.min(Number(res.headers.get('retry-after')) || 1, this.options.maxRetryAfterSeconds);
        await res.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      if (res.ok) return res;
      const text = await res.text();
      let code = 'http_error';
      let message = `HTTP ${res.status}`;
      try {
        const envelope = JSON.parse(text) as { error?: string; message?: string };
        code = envelope.error ?? code;
        message = envelope.message ?? code;
      } catch {
        // not an envelope: keep the status line
      }
      throw new DrawbridgeApiError(res.status, code, message, res.headers.get('x-request-id'));
    }
  }

  private async send(method: string, path: string, options: { body?: unknown; query?: Query; raw?: boolean } = {}): Promise<any> {
    const res = await this.request(method, path, { ...options, accept: options.raw ? '*/*' : 'application/json' });
    if (res.status === 204) return undefined;
    return options.raw ? Buffer.from(await res.arrayBuffer()) : res.json();
  }

  me(): Promise<Out<typeof S.Identity>> {
    return this.send('GET', '/me');
  }

  listDiagrams(query: { limit?: number; cursor?: string } & DiagramFilters = {}): Promise<Out<typeof S.DiagramPage>> {
    const { starred, ...rest } = query;
    return this.send('GET', '/diagrams', { query: { ...rest, ...(starred !== undefined ? { starred: String(starred) } : {}) } });
  }

  /** Every diagram, following cursors page by page; `onPage` hears of each page as it arrives. */
  async *allDiagrams(
    query: DiagramFilters & { pageSize?: number; onPage?: (fetched: number) => void } = {},
  ): AsyncGenerator<Out<typeof S.DiagramListItem>> {
    const { pageSize, onPage, ...filters } = query;
    yield* everyPage((page) => this.listDiagrams({ ...page, ...filters }), { pageSize, onPage });
  }

  createDiagram(body: S.CreateDiagramBody): Promise<Out<typeof S.CreatedDiagram>> {
    return this.send('POST', '/diagrams', { body });
  }

  getDiagram(id: string): Promise<Out<typeof S.Diagram>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}`);
  }

  updateDiagram(id: string, body: S.UpdateDiagramBody): Promise<Out<typeof S.UpdatedDiagram>> {
    return this.send('PATCH', `/diagrams/${encodeURIComponent(id)}`, { body });
  }

  trashDiagram(id: string): Promise<void> {
    return this.send('DELETE', `/diagrams/${encodeURIComponent(id)}`);
  }

  restoreDiagram(id: string): Promise<void> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/restore`);
  }

  setPublicLink(id: string, body: S.PublicLinkBody): Promise<Out<typeof S.PublicLink>> {
    return this.send('PUT', `/diagrams/${encodeURIComponent(id)}/public-link`, { body });
  }

  /** The public link's state; a diagram never published answers enabled false with a null slug and url. */
  getPublicLink(id: string): Promise<Out<typeof S.PublicLink>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/public-link`);
  }

  lintDiagram(id: string): Promise<Out<typeof S.LintReport>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/lint`);
  }

  /** The diagram as text: the spec it draws, Mermaid or DOT, with what the text does not say. */
  diagramSource(id: string, language: Out<typeof S.ExportLanguage>): Promise<Out<typeof S.DiagramSource>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/source`, { query: { language } });
  }

  editDiagram(id: string, body: S.EditBody): Promise<Out<typeof S.EditResult>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/edit`, { body });
  }

  regenerateDiagram(id: string, body: S.RegenerateBody): Promise<Out<typeof S.RegenerateResult>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/regenerate`, { body });
  }

  patchDiagram(id: string, body: S.PatchBody): Promise<Out<typeof S.PatchResult>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/patch`, { body });
  }

  listComments(id: string): Promise<Out<typeof S.CommentList>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/comments`);
  }

  addComment(id: string, body: S.CommentBody): Promise<Out<typeof S.Comment>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/comments`, { body });
  }

  /** One page of a diagram's revisions, newest first. */
  listRevisions(id: string, page: { cursor?: string; limit?: number } = {}): Promise<Out<typeof H.RevisionList>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/revisions`, { query: { cursor: page.cursor, limit: page.limit } });
  }

  /** Every revision of a diagram, newest first, following cursors page by page; `onPage` hears of each page as it arrives. */
  async *allRevisions(id: string, options: { pageSize?: number; onPage?: (fetched: number) => void } = {}): AsyncGenerator<Out<typeof H.RevisionItem>> {
    yield* everyPage((page) => this.listRevisions(id, page), options);
  }

  /** The diagram's scene as it was at revision `rev`. */
  getRevision(id: string, rev: string): Promise<Out<typeof H.RevisionScene>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/revisions/${encodeURIComponent(rev)}`);
  }

  /** What changed from `against` (default: the revision before `rev`) to `rev`. */
  diffRevisions(id: string, rev: string, against?: string): Promise<Out<typeof H.RevisionDiff>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/revisions/${encodeURIComponent(rev)}/diff`, { query: { against } });
  }

  /** Writes revision `rev`'s scene as a new revision; with `expectedUpdatedAt`, refused (409 stale_read) if the diagram changed since. */
  restoreRevision(id: string, rev: string, body: H.RestoreRevisionBody = {}): Promise<Out<typeof H.RestoredRevision>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/revisions/${encodeURIComponent(rev)}/restore`, { body });
  }

  listShares(id: string): Promise<Out<typeof Sh.DiagramSharing>> {
    return this.send('GET', `/diagrams/${encodeURIComponent(id)}/shares`);
  }

  /** Shares with a verified account at once, or invites the address by mail. */
  shareDiagram(id: string, body: Sh.ShareBody): Promise<Out<typeof Sh.ShareResult>> {
    return this.send('POST', `/diagrams/${encodeURIComponent(id)}/shares`, { body });
  }

  changeShare(id: string, userId: string, body: Sh.ShareRoleBody): Promise<Out<typeof Sh.Share>> {
    return this.send('PATCH', `/diagrams/${encodeURIComponent(id)}/shares/${encodeURIComponent(userId)}`, { body });
  }

  removeShare(id: string, userId: string): Promise<void> {
    return this.send('DELETE', `/diagrams/${encodeURIComponent(id)}/shares/${encodeURIComponent(userId)}`);
  }

  cancelDiagramInvitation(id: string, invitationId: string): Promise<void> {
    return this.send('DELETE', `/diagrams/${encodeURIComponent(id)}/invitations/${encodeURIComponent(invitationId)}`);
  }

  /** Moves a diagram into a workspace, or out of its workspace with null. */
  moveDiagramToWorkspace(id: string, body: Sh.MoveToWorkspaceBody): Promise<Out<typeof Sh.DiagramPlacement>> {
    return this.send('PUT', `/diagrams/${encodeURIComponent(id)}/workspace`, { body });
  }

  listWorkspaces(): Promise<Out<typeof Sh.WorkspaceList>> {
    return this.send('GET', '/workspaces');
  }

  createWorkspace(body: Sh.WorkspaceBody): Promise<Out<typeof Sh.Workspace>> {
    return this.send('POST', '/workspaces', { body });
  }

  getWorkspace(id: string): Promise<Out<typeof Sh.Workspace>> {
    return this.send('GET', `/workspaces/${encodeURIComponent(id)}`);
  }

  renameWorkspace(id: string, body: Sh.WorkspaceBody): Promise<Out<typeof Sh.Workspace>> {
    return this.send('PATCH', `/workspaces/${encodeURIComponent(id)}`, { body });
  }

  listMembers(id: string): Promise<Out<typeof Sh.MemberList>> {
    return this.send('GET', `/workspaces/${encodeURIComponent(id)}/members`);
  }

  /** Adds a verified account as a member at once, or invites the address by mail. */
  inviteMember(id: string, body: Sh.MemberBody): Promise<Out<typeof Sh.MemberResult>> {
    return this.send('POST', `/workspaces/${encodeURIComponent(id)}/members`, { body });
  }

  changeMemberRole(id: string, userId: string, body: Sh.MemberRoleBody): Promise<Out<typeof Sh.Member>> {
    return this.send('PATCH', `/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`, { body });
  }

  /** Removes a member; `me` leaves the workspace. */
  removeMember(id: string, userId: string): Promise<void> {
    return this.send('DELETE', `/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`);
  }

  cancelWorkspaceInvitation(id: string, invitationId: string): Promise<void> {
    return this.send('DELETE', `/workspaces/${encodeURIComponent(id)}/invitations/${encodeURIComponent(invitationId)}`);
  }

  listFolders(): Promise<Out<typeof S.FolderList>> {
    return this.send('GET', '/folders');
  }

  createFolder(body: S.CreateFolderBody): Promise<Out<typeof S.Folder>> {
    return this.send('POST', '/folders', { body });
  }

  renameFolder(id: string, body: S.UpdateFolderBody): Promise<Out<typeof S.Folder>> {
    return this.send('PATCH', `/folders/${encodeURIComponent(id)}`, { body });
  }

  deleteFolder(id: string): Promise<void> {
    return this.send('DELETE', `/folders/${encodeURIComponent(id)}`);
  }

  listIcons(query: { q?: string; category?: string } = {}): Promise<Out<typeof S.IconList>> {
    return this.send('GET', '/icons', { query });
  }

  /**
   * The render envelope: SVG and base64 PNG in one JSON answer. `rev` renders
   * that revision instead of the current scene; the render options (width,
   * scale, padding, background, theme, elementIds, frameId) change the look.
   */
  renderDiagram(id: string, options?: { format?: 'json'; quality?: S.RenderQuality; rev?: string; embed?: 'scene' } & RenderOptions): Promise<Out<typeof S.RenderEnvelope>>;
  /** The image (or PDF) bytes; `bytes` is null for an empty scene (the server's 204). `embed: 'scene'`: the PNG or SVG carries the scene. */
  renderDiagram(id: string, options: { format: 'png' | 'svg' | 'pdf'; quality?: S.RenderQuality; rev?: string; embed?: 'scene' } & RenderOptions): Promise<RenderedImage>;
  async renderDiagram(
    id: string,
    options: { format?: S.RenderFormat; quality?: S.RenderQuality; rev?: string; embed?: 'scene' } & RenderOptions = {},
  ): Promise<Out<typeof S.RenderEnvelope> | RenderedImage> {
    const { format = 'json', quality, rev, embed, ...look } = options;
    const path = `/diagrams/${encodeURIComponent(id)}/render`;
    const query = { format, quality, rev, embed, ...renderOptionsQuery(look) };
    if (format === 'json') return this.send('GET', path, { query });
    const res = await this.request('GET', path, { query, accept: IMAGE_TYPES[format] });
    return {
      bytes: res.status === 204 ? null : new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? IMAGE_TYPES[format],
      // An empty scene is answered at quality fast (there is nothing to draw faithfully).
      quality: res.headers.get('x-render-quality') === 'faithful' ? 'faithful' : 'fast',
      note: res.headers.get('x-render-note'),
    };
  }

  /** The raw SVG of a catalog icon. */
  getIcon(id: string): Promise<Buffer> {
    return this.send('GET', `/icons/${encodeURIComponent(id)}`, { raw: true });
  }

  /**
   * Every problem with a spec, an edit fragment, patch ops or a scene, without
   * writing anything (POST /specs/validate); with `diagramId`, an edit or ops
   * are also checked against that diagram's current content.
   */
  validateContent(body: ValidateContentBody): Promise<ValidationReport> {
    return this.send('POST', '/specs/validate', { body });
  }
}

/** What POST /specs/validate checks: exactly one of spec, edit, ops, scene. */
export type ValidateContentBody = ({ spec: unknown } | { edit: unknown } | { ops: unknown } | { scene: unknown }) & { diagramId?: string };

/** One problem found: its catalogue code, where (a JSON Pointer into the validated value) and how to fix it. */
export interface ContentProblem {
  code: string;
  message: string;
  path: string;
  hint?: string;
}

export interface ValidationReport {
  valid: boolean;
  problems: ContentProblem[];
}
