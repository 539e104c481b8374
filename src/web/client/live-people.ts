/**
 * Who is in the diagram, as the top bar's avatars show them: a person's
 * initials, and one entry per person however many tabs they have open.
 */
import type { LivePeer, PresenceStatus } from './live-protocol.ts';

const LIVELINESS: Readonly<Record<PresenceStatus, number>> = { active: 2, idle: 1, away: 0 };

/** "ada.lovelace" → "AL", "grace" → "G". */
export function initials(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

/** One entry per person, in the order they arrived, with their liveliest status. */
export function people(peers: readonly LivePeer[]): LivePeer[] {
  const byUser = new Map<string, LivePeer>();
  for (const peer of peers) {
    const seen = byUser.get(peer.userId);
    if (!seen || LIVELINESS[peer.status] > LIVELINESS[seen.status]) byUser.set(peer.userId, seen ? { ...seen, status: peer.status } : peer);
  }
  return [...byUser.values()];
}
