/**
 * A sequence diagram as the spec describes it once checked: participants in
 * their order across the page, and the steps in their order down it —
 * messages, notes, activations and frames (loop, alt, opt, par, critical,
 * break, rect) that hold steps of their own.
 */
import type { ArrowheadName } from '../spec/types.ts';

export const PARTICIPANT_TYPES = ['participant', 'actor', 'database', 'queue', 'boundary', 'control', 'entity', 'collections'] as const;
export type ParticipantType = (typeof PARTICIPANT_TYPES)[number];

export const FRAME_KINDS = ['loop', 'alt', 'opt', 'par', 'critical', 'break', 'rect'] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];
/** The frames whose steps split into branches, and the word each branch after the first is drawn with. */
export const BRANCH_WORDS: Partial<Record<FrameKind, string>> = { alt: 'else', par: 'and', critical: 'option' };

export const MESSAGE_LINES = ['solid', 'dashed'] as const;
export type MessageLine = (typeof MESSAGE_LINES)[number];

/** The size caps of a sequence spec (beyond them: SPEC_TOO_LARGE). */
export const SEQUENCE_LIMITS = {
  participants: 100,
  /** Steps in all, frames and what they hold included. */
  steps: 2000,
  /** Frames inside frames. */
  depth: 12,
} as const;

export interface Participant {
  id: string;
  label: string;
  type: ParticipantType;
  /** A catalog icon drawn above the label; an actor, a database and a queue have one by default. */
  icon: string | null;
}

export interface Message {
  step: 'message';
  /** The generated arrow id: `msg-<n>`, n counting messages from 1 in document order. */
  id: string;
  from: string;
  to: string;
  label: string;
  line: MessageLine;
  startArrowhead: ArrowheadName;
  endArrowhead: ArrowheadName;
  /** Starts an activation of the target / ends the source's latest one (Mermaid's `+` and `-`). */
  activate: boolean;
  deactivate: boolean;
  /** The target is created by this message: its box is drawn here, not at the top. */
  create: boolean;
  /** The end whose lifeline ends here, with a cross. */
  destroy: 'from' | 'to' | null;
  /** Where it came from, for messages: `steps[3] "a ->> b"`. */
  source: string;
}

export interface Note {
  step: 'note';
  id: string;
  text: string;
  placement: 'over' | 'leftOf' | 'rightOf';
  /** One participant, or (over) the two the note spans. */
  participants: string[];
}

interface Activation {
  step: 'activate' | 'deactivate';
  participant: string;
}

export interface Branch {
  label: string;
  steps: Step[];
}

export interface Frame {
  step: 'frame';
  id: string;
  kind: FrameKind;
  /** The first branch is the frame's own steps and label; alt, par and critical may have more. */
  branches: Branch[];
  /** For `rect`: the background colour. */
  color: string | null;
}

export type Step = Message | Note | Activation | Frame;

export interface SequenceSpec {
  kind: 'sequence';
  participants: Participant[];
  steps: Step[];
  /** Messages numbered from 1, the number before each label. */
  autonumber: boolean;
  caption?: string;
}

/**
 * What a sequence diagram's element is (`lifeline`, `frame`, `activation`, `message`, `note`…), as the
 * drawing records it in the element's customData; null for any other element.
 */
export function sequenceRole(e: object): string | null {
  const role = ((e as { customData?: unknown }).customData as { sequence?: unknown } | undefined)?.sequence;
  return typeof role === 'string' ? role : null;
}
