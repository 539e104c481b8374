/**
 * Who else is in the diagram, as a row of avatars in the top bar: initials
 * on the person's colour (the colour of their pointer and selection on the
 * canvas), their name on hover, dimmed while they are idle or away. One
 * person in two tabs is one avatar, as active as their most active tab.
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

function describe(peer: LivePeer): string {
  return peer.status === 'active' ? peer.name : `${peer.name} (${peer.status})`;
}

export function PeerAvatars({ peers }: { peers: readonly LivePeer[] }) {
  const shown = people(peers);
  if (shown.length === 0) return null;
  return (
    <ul className="db-peers" aria-label="Also here">
      {shown.map((peer) => (
        <li
          key={peer.userId}
          className={`db-peer db-peer-${peer.status}`}
          title={describe(peer)}
          aria-label={describe(peer)}
          data-status={peer.status}
          style={{ backgroundColor: peer.color.background, borderColor: peer.color.stroke }}
        >
          {initials(peer.name)}
        </li>
      ))}
    </ul>
  );
}
