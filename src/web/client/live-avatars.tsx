/**
 * Who else is in the diagram, as a row of avatars in the top bar: initials
 * on the person's colour (the colour of their pointer and selection on the
 * canvas), their name on hover, dimmed while they are idle or away. One
 * person in two tabs is one avatar, as active as their most active tab.
 */
import type { LivePeer } from './live-protocol.ts';
import { initials, people } from './live-people.ts';

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
