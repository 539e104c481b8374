/**
 * The editor's reads of a diagram through the web app's session routes
 * (`GET /app/api/diagrams/:id`), and the errors those routes answer with.
 * No React here. Changes travel over the live socket (live-client.ts).
 */

export interface DiagramDocument {
  id: string;
  title: string;
  docUpdatedAt: string;
  scene: { elements: unknown[]; appState?: Record<string, unknown> };
  /** The images the scene's catalog icons show, in the editor's `files` form. */
  files?: Record<string, unknown>;
}

export class ResponseError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Fetches a diagram for the signed-in user (`GET /app/api/diagrams/:id`). */
export async function fetchDiagram(diagramId: string, fetchFn: typeof fetch = fetch): Promise<DiagramDocument> {
  const response = await fetchFn(`/app/api/diagrams/${encodeURIComponent(diagramId)}`, {
    headers: { accept: 'application/json' },
    cache: 'no-store',
  });
  if (!response.ok) throw await responseError(response);
  return (await response.json()) as DiagramDocument;
}

/** The diagram as Mermaid text (`GET /app/api/diagrams/:id/source`), with how many things of the drawing it leaves out. */
export async function fetchMermaid(diagramId: string, fetchFn: typeof fetch = fetch): Promise<{ text: string; leftOut: number }> {
  const response = await fetchFn(`/app/api/diagrams/${encodeURIComponent(diagramId)}/source?language=mermaid`, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw await responseError(response);
  const body = (await response.json()) as { text: string; warnings: unknown[] };
  return { text: body.text, leftOut: body.warnings.length };
}

/** A refused request as an error: its status, and the code and message of the app's JSON error when there is one. */
export async function responseError(response: Response): Promise<ResponseError> {
  let code: string | undefined;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { error?: string; message?: string };
    code = body.error;
    message = body.message ?? body.error ?? message;
  } catch {
    // Not JSON (a proxy's error page): the status line says enough.
  }
  return new ResponseError(response.status, code, message);
}
