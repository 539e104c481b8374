/**
 * What this instance's rooms relay to the other instances, sent in batches:
 * one batch at a time on the live bus (on PostgreSQL, one transaction on one
 * pooled connection), and what arrives meanwhile waits for the next. While it
 * waits it is folded: a peer's presence by its latest, a sender's elements
 * by id (the later copy of an element won the merge later), the room's list
 * of peers by its latest. However fast a room changes, the queue holds at
 * most one entry per peer and one copy per element, and the bus carries one
 * batch at a time.
 */
import type { LiveElement } from '../../domain/live/reconcile.ts';
import type { LiveNotice } from '../../store/store.ts';
import type { RelayEvent } from './room.ts';

interface Waiting {
  diagramId: string;
  event: RelayEvent;
  /** A sender's elements, by id, while they wait. */
  elements?: Map<string, LiveElement>;
}

export class RelayOutbox {
  private readonly origin: string;
  private readonly send: (notices: LiveNotice[]) => Promise<void>;
  private readonly failed: (error: unknown) => void;
  /** In arrival order; a folded event keeps the place of its first. */
  private waiting = new Map<string, Waiting>();
  private sequence = 0;
  private sending: Promise<void> | null = null;
  private scheduled = false;

  constructor(origin: string, send: (notices: LiveNotice[]) => Promise<void>, failed: (error: unknown) => void) {
    this.origin = origin;
    this.send = send;
    this.failed = failed;
  }

  /** Entries waiting, and whether a batch is on its way (for tests and operators). */
  stats(): { waiting: number; sending: boolean } {
    return { waiting: this.waiting.size, sending: this.sending !== null };
  }

  add(diagramId: string, event: RelayEvent): void {
    const key = foldKey(diagramId, event) ?? `#${this.sequence++}`;
    const held = this.waiting.get(key);
    if (held && event.kind === 'elements') {
      for (const element of event.elements) held.elements!.set(element.id, element);
    } else if (held) {
      held.event = event;
    } else {
      this.waiting.set(key, { diagramId, event, ...(event.kind === 'elements' ? { elements: new Map(event.elements.map((e) => [e.id, e])) } : {}) });
    }
    this.schedule();
  }

  /** Resolves once everything added so far has been handed to the bus. */
  async drain(): Promise<void> {
    while (this.sending !== null || this.waiting.size > 0) {
      if (this.sending === null) this.flush();
      await this.sending;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.sending !== null) return;
    this.scheduled = true;
    // After the current turn, so what a message sets off goes in one batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.sending !== null || this.waiting.size === 0) return;
    const batch = [...this.waiting.values()];
    this.waiting = new Map();
    const notices: LiveNotice[] = batch.map(({ diagramId, event, elements }) => ({
      type: 'relay',
      diagramId,
      origin: this.origin,
      event: elements ? { ...event, elements: [...elements.values()] } : event,
    }));
    this.sending = this.send(notices)
      .catch(this.failed)
      .finally(() => {
        this.sending = null;
        if (this.waiting.size > 0) this.schedule();
      });
  }
}

/** Events that a later one of the same key replaces (or, for elements, adds to); null: kept as it is. */
function foldKey(diagramId: string, event: RelayEvent): string | null {
  switch (event.kind) {
    case 'elements':
      return `elements ${diagramId} ${event.from}`;
    case 'presence':
      return `presence ${diagramId} ${event.peer.peerId}`;
    case 'peers':
      return `peers ${diagramId}`;
    default:
      return null;
  }
}
