/**
 * Where a person opens a diagram. The API gives every diagram it returns an
 * `editorUrl`; for answers without one (a result the tool builds itself, like
 * trash_diagram's, or an older server) the URL is `<app url>/app/d/<id>`, the
 * web app's editor route. The app URL is first the one this MCP server reaches
 * the API at (the same server serves the web app), and once the API has
 * answered with an editorUrl, the base of that URL (the server's configured
 * public URL), so every result of a session names the same place.
 */
const EDITOR_PATH = /\/app\/d\/[^/]+$/;

export class Links {
  private appUrl: string;

  constructor(appUrl: string) {
    this.appUrl = appUrl.replace(/\/+$/, '');
  }

  editorUrlFor(diagram: { id: string; editorUrl?: unknown }): string {
    if (typeof diagram.editorUrl === 'string' && EDITOR_PATH.test(diagram.editorUrl)) {
      this.appUrl = diagram.editorUrl.replace(EDITOR_PATH, '');
      return diagram.editorUrl;
    }
    return `${this.appUrl}/app/d/${encodeURIComponent(diagram.id)}`;
  }

  /** `value` with its `editorUrl` (the API's when it gave one); a `publicUrl` the answer carries is kept as it is. */
  with<T extends { id: string }>(value: T): T & { editorUrl: string } {
    return { ...value, editorUrl: this.editorUrlFor(value) };
  }
}
