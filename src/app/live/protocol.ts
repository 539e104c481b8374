/**
 * The live protocol between the editor and the server: JSON text frames, one
 * message per frame. The server sends `welcome` first, then `elements`
 * (changes that won the merge; `from: null` for a write from outside the
 * room, and for the room's copies of elements a sender sent older copies
 * of), `scene`, `files`, `saved`, `revision`, `presence`, `joined`, `left`,
 * `role`, `error` and, last, `gone`. The editor sends `elements` (editors
 * only) and `presence`.
 *
 * `scene` says a write replaced the whole scene as supplied (a regenerate
 * from a scene): the editor replaces everything it holds with `elements`,
 * its unsent and unsaved changes included, rather than merging them, and
 * sends its later `elements` with `scene` set to that message's
 * `docUpdatedAt`. Changes sent on the scene before (no `scene` field, or an
 * older one) are dropped by the server without an answer.
 */
import { z } from 'zod';
import type { LiveElement } from '../../domain/live/reconcile.ts';
import { MAX_SCENE_ELEMENTS } from '../../domain/scene/validate.ts';
import type { UserRecord } from '../../store/store.ts';

export type LiveRole = 'editor' | 'viewer';

export interface Pointer {
  x: number;
  y: number;
  tool: 'pointer' | 'laser';
}

export interface PeerState {
  pointer: Pointer | null;
  button: 'up' | 'down';
  selectedElementIds: Record<string, true>;
  status: 'active' | 'idle' | 'away';
}

/** One connection in a room: one person in two tabs is two peers. */
export interface Peer extends PeerState {
  peerId: string;
  userId: string;
  name: string;
  email: string;
  color: { background: string; stroke: string };
}

export type GoneReason = 'deleted' | 'access' | 'signed_out';

/** The close code that follows each `gone`. */
export const GONE_CLOSE_CODES: Record<GoneReason, number> = { deleted: 4404, access: 4403, signed_out: 4401 };

export type ServerMessage =
  | { type: 'welcome'; you: Peer; role: LiveRole; docUpdatedAt: string; elements: LiveElement[]; files: Record<string, unknown>; peers: Peer[] }
  | { type: 'elements'; elements: LiveElement[]; from: string | null; docUpdatedAt?: string }
  /** A write replaced the whole scene: these elements are the scene now, replacing everything (see above). */
  | { type: 'scene'; elements: LiveElement[]; files: Record<string, unknown>; docUpdatedAt: string }
  | { type: 'files'; files: Record<string, unknown> }
  | { type: 'saved'; upTo: number; docUpdatedAt: string }
  /** The stored revision moved (a write from this room, another instance's or the API's): for the history panel and restores. */
  | { type: 'revision'; docUpdatedAt: string }
  | { type: 'presence'; peer: Peer }
  | { type: 'joined'; peer: Peer }
  | { type: 'left'; peerId: string }
  | { type: 'role'; role: LiveRole }
  | { type: 'error'; code: string; message: string; seq?: number }
  | { type: 'gone'; reason: GoneReason };

/** The most elements one selection may name, and one `elements` message carry: a whole scene (a paste of that many must pass). */
export const MAX_LIVE_ELEMENTS = MAX_SCENE_ELEMENTS;

const PointerSchema = z.object({ x: z.number().finite(), y: z.number().finite(), tool: z.enum(['pointer', 'laser']) });

const ElementsMessage = z.object({
  type: z.literal('elements'),
  seq: z.number().int().nonnegative(),
  // Each element is checked by the room as a scene's are (validateScene): checking it here too would copy every one.
  elements: z.array(z.unknown()).max(MAX_LIVE_ELEMENTS, `at most ${MAX_LIVE_ELEMENTS} elements a message`),
  /** The `docUpdatedAt` of the last `scene` message the editor took; absent before any. */
  scene: z.string().max(64).optional(),
});

const PresenceMessage = z.object({
  type: z.literal('presence'),
  pointer: PointerSchema.nullable().optional(),
  button: z.enum(['up', 'down']).optional(),
  selectedElementIds: z
    .record(z.string(), z.literal(true))
    .refine((ids) => Object.keys(ids).length <= MAX_LIVE_ELEMENTS, `at most ${MAX_LIVE_ELEMENTS} selected elements`)
    .optional(),
  status: z.enum(['active', 'idle', 'away']).optional(),
});

export const ClientMessage = z.discriminatedUnion('type', [ElementsMessage, PresenceMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type PresenceUpdate = z.infer<typeof PresenceMessage>;

/** What a person is called in a room: the part of the address before the @. */
export function displayName(user: Pick<UserRecord, 'email'>): string {
  const at = user.email.lastIndexOf('@');
  return at > 0 ? user.email.slice(0, at) : user.email;
}

/**
 * A person's colours, from their id: the same on every instance and in every
 * tab, and the hue the editor draws their pointer and selection in
 * (Excalidraw's own: its string hash of the id, in 37 steps of 10°).
 */
export function peerColor(userId: string): { background: string; stroke: string } {
  let hash = 0;
  for (const c of userId) hash = (hash << 5) - hash + c.charCodeAt(0);
  const hue = (Math.abs(hash) % 37) * 10;
  return { background: hslToHex(hue, 1, 0.83), stroke: hslToHex(hue, 0.7, 0.4) };
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
