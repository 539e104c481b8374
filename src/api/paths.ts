/** Where the REST API lives on the server: every API route's path starts with this. */
export const API_PREFIX = '/api/v1';

/** Where a person opens a diagram in the web editor; `publicUrl` is the service's PUBLIC_URL. */
export function editorUrl(publicUrl: string, diagramId: string): string {
  return `${publicUrl}/app/d/${diagramId}`;
}
