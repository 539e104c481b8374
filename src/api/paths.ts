/** Where the REST API lives on the server: every API route's path starts with this. */
export const API_PREFIX = '/api/v1';

/** Where a person opens a diagram in the web editor; `publicUrl` is the service's PUBLIC_URL. */
export function editorUrl(publicUrl: string, diagramId: string): string {
  return `${publicUrl}/app/d/${diagramId}`;
}

/** The canonical addresses (absolute paths) of the API's resources, as a 201's Location names them. */
export const resourcePath = {
  diagram: (id: string) => `${API_PREFIX}/diagrams/${id}`,
  folder: (id: string) => `${API_PREFIX}/folders/${id}`,
  workspace: (id: string) => `${API_PREFIX}/workspaces/${id}`,
  comment: (diagramId: string, commentId: string) => `${API_PREFIX}/diagrams/${diagramId}/comments/${commentId}`,
};
