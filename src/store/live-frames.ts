/**
 * Notices cut into frames that fit PostgreSQL's NOTIFY payload (under 8000
 * bytes) and put back together on arrival. A notice's JSON is made plain
 * ASCII (every other character as a \u escape) so a frame's length in
 * characters is its length in bytes; each frame names its notice, its place
 * and the count: `<id>|<i>|<n>|<part>`.
 */
import { randomBytes } from 'node:crypto';

/** The most a frame may hold, in bytes: under NOTIFY's 8000 with room to spare. */
export const MAX_FRAME_BYTES = 7900;
/** A notice whose frames have not all arrived after this long is dropped (its sender died mid-way). */
const ASSEMBLY_TIMEOUT_MS = 30_000;

const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function toFrames(notice: unknown): string[] {
  const text = asciiJson(notice);
  const id = randomBytes(9).toString('base64url');
  const room = MAX_FRAME_BYTES - id.length - 24;
  const count = Math.max(1, Math.ceil(text.length / room));
  return Array.from({ length: count }, (_, i) => `${id}|${i}|${count}|${text.slice(i * room, (i + 1) * room)}`);
}

/** Puts frames back into notices; `take` answers a notice once its last frame arrives, else null. */
export class FrameAssembler {
  private readonly partial = new Map<string, { parts: string[]; received: number; since: number }>();

  take(frame: string, now = Date.now()): unknown | null {
    const match = /^([^|]+)\|(\d+)\|(\d+)\|/.exec(frame);
    if (!match) return null;
    const [head, id, i, n] = match as unknown as [string, string, string, string];
    const [index, count] = [Number(i), Number(n)];
    const part = frame.slice(head.length);
    if (count === 1) return JSON.parse(part);
    this.sweep(now);
    let entry = this.partial.get(id);
    if (!entry) this.partial.set(id, (entry = { parts: new Array(count), received: 0, since: now }));
    if (entry.parts[index] === undefined) entry.received += 1;
    entry.parts[index] = part;
    if (entry.received < count) return null;
    this.partial.delete(id);
    return JSON.parse(entry.parts.join(''));
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.partial) if (now - entry.since > ASSEMBLY_TIMEOUT_MS) this.partial.delete(id);
  }
}
