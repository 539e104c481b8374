// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
import type { FolderRecord } from '../../store/store.ts';

export const folder = (f: FolderRecord) => ({ id: f.id, name: f.name, parentId: f.parentId });
