/**
 * The messages of a diagram's live socket (`/app/api/diagrams/:id/live`),
 * as the editor sees them. JSON text frames, one message per frame. The
 * server speaks first (`welcome`); the client sends its element changes and
 * its presence. No React and no Excalidraw here.
 */

export type LiveRole = 'editor' | 'viewer';
export type PresenceStatus = 'active' | 'idle' | 'away';
export type GoneReason = 'deleted' | 'access' | 'signed_out';

export interface PeerPointer {
  x: number;
  y: number;
  tool: 'pointer' | 'laser';
}

/** One connection in the room: one person in two tabs is two peers. */
export interface LivePeer {
  peerId: string;
  userId: string;
  name: string;
  email: string;
  color: { background: string; stroke: string };
  pointer: PeerPointer | null;
  button: 'up' | 'down';
  selectedElementIds: Record<string, true>;
  status: PresenceStatus;
}

/** An element as it travels: the editor's element, of which the merge reads only these fields. */
export interface SceneElement {
  id: string;
  version: number;
  versionNonce: number;
  isDeleted?: boolean;
  index?: string | null;
  [field: string]: unknown;
}

export type ServerMessage =
  | { type: 'welcome'; you: LivePeer; role: LiveRole; docUpdatedAt: string; elements: SceneElement[]; files: Record<string, unknown>; peers: LivePeer[] }
  | { type: 'elements'; elements: SceneElement[]; from: string | null; docUpdatedAt?: string }
  | { type: 'files'; files: Record<string, unknown> }
  | { type: 'saved'; upTo: number; docUpdatedAt: string }
  | { type: 'revision'; docUpdatedAt: string }
  | { type: 'presence'; peer: LivePeer }
  | { type: 'joined'; peer: LivePeer }
  | { type: 'left'; peerId: string }
  | { type: 'role'; role: LiveRole }
  | { type: 'error'; code: string; message: string; seq?: number }
  | { type: 'gone'; reason: GoneReason };

export interface PresenceUpdate {
  pointer: PeerPointer | null;
  button: 'up' | 'down';
  selectedElementIds: Record<string, true>;
  status: PresenceStatus;
}

export type ClientMessage = { type: 'elements'; seq: number; elements: readonly SceneElement[] } | ({ type: 'presence' } & PresenceUpdate);

const SERVER_TYPES = new Set<ServerMessage['type']>(['welcome', 'elements', 'files', 'saved', 'revision', 'presence', 'joined', 'left', 'role', 'error', 'gone']);

/**
 * A frame from the server as a message, or null for one this client does not
 * know (a newer server's message, or not JSON): ignoring it is safer than
 * failing the whole connection.
 */
export function parseServerMessage(frame: unknown): ServerMessage | null {
  if (typeof frame !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const type = (message as { type?: unknown }).type;
  if (typeof type !== 'string' || !SERVER_TYPES.has(type as ServerMessage['type'])) return null;
  if ((type === 'welcome' || type === 'elements') && !Array.isArray((message as { elements?: unknown }).elements)) return null;
  return message as ServerMessage;
}

/** The live socket's URL for a diagram, on the page's own origin (ws: or wss: as the page is http: or https:). */
export function liveUrl(location: { protocol: string; host: string }, diagramId: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/app/api/diagrams/${encodeURIComponent(diagramId)}/live`;
}
