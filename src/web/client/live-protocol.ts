/**
 * The messages of a diagram's live socket (`/app/api/diagrams/:id/live`),
 * as the editor sees them. JSON text frames, one message per frame. The
 * server speaks first (`welcome`); the client sends its element changes and
 * its presence. The shapes are the server's own (src/app/live/protocol.ts),
 * imported as types only, so nothing of the server reaches the browser.
 * No React and no Excalidraw here.
 */

import type { ClientMessage, GoneReason, LiveRole, Peer, PeerState, Pointer, ServerMessage as WireMessage } from '../../app/live/protocol.ts';

export type { ClientMessage, GoneReason, LiveRole };
export type LivePeer = Peer;
export type PeerPointer = Pointer;
export type PresenceStatus = PeerState['status'];
/** The person's presence as this client sends it: every field, every time. */
export type PresenceUpdate = PeerState;

/** An element as it travels: the editor's element, of which the merge reads only these fields. */
export interface SceneElement {
  id: string;
  version: number;
  versionNonce: number;
  isDeleted?: boolean;
  index?: string | null;
  [field: string]: unknown;
}

/** A message from the server, its elements as the editor reads them (the server stamps every one with a numeric version and nonce). */
export type ServerMessage = WireMessage extends infer M ? (M extends { elements: unknown[] } ? Omit<M, 'elements'> & { elements: SceneElement[] } : M) : never;

const SERVER_TYPES = new Set<ServerMessage['type']>(['welcome', 'elements', 'scene', 'files', 'saved', 'revision', 'presence', 'joined', 'left', 'role', 'error', 'gone']);

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
  if ((type === 'welcome' || type === 'elements' || type === 'scene') && !Array.isArray((message as { elements?: unknown }).elements)) return null;
  return message as ServerMessage;
}

/** The live socket's URL for a diagram, on the page's own origin (ws: or wss: as the page is http: or https:). */
export function liveUrl(location: { protocol: string; host: string }, diagramId: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/app/api/diagrams/${encodeURIComponent(diagramId)}/live`;
}
