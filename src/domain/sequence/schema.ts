/**
 * The sequence spec as zod schemas: the JSON Schema clients and agents see
 * (through z.toJSONSchema) and the shape check of each part. The checks that
 * name the offending step precisely are check.ts's.
 */
import { z } from 'zod';
import { CssColor } from '../spec/schema.ts';
import { ARROWHEADS, SPEC_LIMITS } from '../spec/types.ts';
import { MESSAGE_SHORTHAND_PATTERN } from './shorthand.ts';
import { FRAME_KINDS, MESSAGE_LINES, PARTICIPANT_TYPES, SEQUENCE_LIMITS } from './types.ts';

const Id = z
  .string()
  .min(1)
  .max(SPEC_LIMITS.idLength)
  .regex(/\S/)
  .meta({ description: `A participant id: non-empty, at most ${SPEC_LIMITS.idLength} characters` });
const Label = z.string().max(SPEC_LIMITS.labelLength);
const Arrowhead = z.enum(ARROWHEADS);

const SequenceParticipant = z
  .union([
    Id,
    z.strictObject({
      id: Id,
      label: Label.nullable().optional().meta({ description: 'The text shown; defaults to the id' }),
      type: z
        .enum(PARTICIPANT_TYPES)
        .nullable()
        .optional()
        .meta({ description: 'participant (default): a box; actor: a person (an icon above the name); database, queue: a box with that icon; boundary, control, entity, collections: a box' }),
      icon: z.string().max(SPEC_LIMITS.idLength).nullable().optional().meta({ description: 'A catalog icon id drawn above the label (GET /api/v1/icons)' }),
    }),
  ])
  .meta({ id: 'SequenceParticipant', description: 'A participant: its id, or { id, label?, type?, icon? }. Participants a message names without declaring are added in the order first named.' });

const SequenceMessageShorthand = z
  .string()
  .max(SPEC_LIMITS.shorthandLength)
  .regex(new RegExp(MESSAGE_SHORTHAND_PATTERN, 'u'))
  .meta({
    id: 'SequenceMessageShorthand',
    description:
      'A message as Mermaid writes it: FROM ARROW TO with an optional ": LABEL". ->> a call (solid, filled head), -->> a reply (dashed), -> and --> no head, -) and --) asynchronous (open head), -x and --x lost (a bar), <<->> and <<-->> both ways; a + after the arrow activates the target, a - ends the source\'s activation.',
    examples: ['browser ->> api : POST /login', 'api -->> browser : 302 Found', 'api ->>+ db : SELECT user'],
  });

const SequenceMessage = z
  .strictObject({
    from: Id.meta({ description: 'The participant that sends' }),
    to: Id.meta({ description: 'The participant that receives; the same as from for a message to itself' }),
    label: Label.nullable().optional().meta({ description: 'Text on the message' }),
    line: z.enum(MESSAGE_LINES).nullable().optional().meta({ description: 'solid (default: a call) or dashed (a reply)' }),
    arrowhead: Arrowhead.nullable().optional().meta({ description: 'The head at the receiving end (default triangle)' }),
    startArrowhead: Arrowhead.nullable().optional().meta({ description: 'The head at the sending end (default none)' }),
    activate: z.boolean().nullable().optional().meta({ description: 'Activates the target from this message on' }),
    deactivate: z.boolean().nullable().optional().meta({ description: "Ends the source's latest activation at this message" }),
    create: z.boolean().nullable().optional().meta({ description: "The target is created by this message: its box is drawn here rather than at the top" }),
    destroy: z.enum(['from', 'to']).nullable().optional().meta({ description: "The end whose lifeline stops here, with a cross" }),
  })
  .meta({ id: 'SequenceMessage', description: 'A message from one participant to another (or to itself)', examples: [{ from: 'api', to: 'db', label: 'SELECT user', activate: true }] });

const SequenceNote = z
  .strictObject({
    note: Label.meta({ description: 'The note\'s text' }),
    over: z.union([Id, z.array(Id).min(1).max(2)]).optional().meta({ description: 'Over one participant, or spanning from one to another' }),
    leftOf: Id.optional().meta({ description: 'Left of this participant' }),
    rightOf: Id.optional().meta({ description: 'Right of this participant' }),
  })
  .meta({ id: 'SequenceNote', description: 'A note: exactly one of over, leftOf, rightOf', examples: [{ note: 'PKCE verifier kept', over: 'app' }, { note: 'both ends agree', over: ['a', 'b'] }] });

const SequenceActivate = z.strictObject({ activate: Id }).meta({ id: 'SequenceActivate', description: 'Activates a participant: a bar on its lifeline until it is deactivated' });
const SequenceDeactivate = z.strictObject({ deactivate: Id }).meta({ id: 'SequenceDeactivate', description: "Ends a participant's latest activation" });

const SequenceFrame = z
  .strictObject({
    frame: z.enum(FRAME_KINDS).meta({ description: 'loop, alt, opt, par, critical, break, or rect (a coloured background and no label)' }),
    label: Label.nullable().optional().meta({ description: 'The condition, drawn in brackets beside the kind' }),
    color: CssColor.nullable().optional().meta({ description: 'rect only: the background colour' }),
    get steps() {
      return z.array(SequenceStep).max(SEQUENCE_LIMITS.steps).meta({ description: 'The steps inside the frame' });
    },
    get branches() {
      return z
        .array(z.strictObject({ label: Label.nullable().optional(), steps: z.array(SequenceStep).max(SEQUENCE_LIMITS.steps) }))
        .nullable()
        .optional()
        .meta({ description: 'alt: the else branches; par: the and branches; critical: the option branches; each with its label and steps' });
    },
  })
  .meta({
    id: 'SequenceFrame',
    description: 'A frame around steps',
    examples: [{ frame: 'alt', label: 'valid code', steps: ['idp -->> app : tokens'], branches: [{ label: 'invalid', steps: ['idp -->> app : 400'] }] }],
  });

const SequenceStep: z.ZodType = z
  .union([SequenceMessageShorthand, SequenceMessage, SequenceNote, SequenceActivate, SequenceDeactivate, SequenceFrame])
  .meta({ id: 'SequenceStep', description: 'A message (a shorthand string or an object), a note, an activate or deactivate, or a frame' });

export const SequenceSpec = z
  .strictObject({
    kind: z.literal('sequence').meta({ description: 'A sequence diagram' }),
    version: z.union([z.literal('1'), z.literal(1)]).optional(),
    participants: z.array(SequenceParticipant).max(SEQUENCE_LIMITS.participants).nullable().optional().meta({ description: `The participants left to right, at most ${SEQUENCE_LIMITS.participants}` }),
    steps: z.array(SequenceStep).max(SEQUENCE_LIMITS.steps).meta({ description: `The steps top to bottom, at most ${SEQUENCE_LIMITS.steps} in all` }),
    autonumber: z.boolean().nullable().optional().meta({ description: 'Number the messages from 1' }),
    caption: Label.nullable().optional().meta({ description: 'A title drawn centred above the diagram' }),
  })
  .meta({
    id: 'SequenceSpec',
    description: 'A sequence diagram: participants across, steps down; the server lays it out with lifelines, message arrows bound to them, activations, notes and frames.',
    examples: [
      {
        kind: 'sequence',
        participants: [{ id: 'user', type: 'actor' }, 'app', { id: 'idp', label: 'Identity provider' }],
        steps: ['user ->> app : Sign in', 'app ->>+ idp : /authorize', { note: 'the user consents', over: 'idp' }, 'idp -->>- app : code', 'app -->> user : Signed in'],
      },
    ],
  });
export type SequenceSpecInput = z.input<typeof SequenceSpec>;
