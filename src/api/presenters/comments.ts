// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
import type { CommentRecord } from '../../store/store.ts';

export const comment = (c: CommentRecord) => ({
  id: c.id,
  elementId: c.elementId,
  body: c.body,
  authorId: c.authorId,
  createdAt: c.createdAt,
  resolved: c.resolved,
  resolvedReason: c.resolvedReason,
});
