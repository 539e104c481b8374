import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * What the MCP server teaches an agent: the server instructions (sent once,
 * at initialization) and the prompts, each a walk through the tools in the
 * order that makes a good diagram.
 */
export const INSTRUCTIONS = `Drawbridge makes diagrams a person can open and edit in a web editor (Excalidraw).
- Prefer a spec over a raw scene: generate_diagram takes nodes and edges ("a -> b : label") and lays them out; use create_scene only for exact positions.
- For the order in which parts talk, the shape of types or of data, give the spec a "kind": "sequence", "class" or "er" (see the prompts of those names).
- You may write Mermaid instead of a spec (a flowchart, stateDiagram-v2, sequenceDiagram, classDiagram or erDiagram: pass it as "mermaid"), or hand over Graphviz DOT as "dot": generate_diagram, regenerate_diagram and validate_diagram read them, and list what the drawing leaves out as warnings. get_diagram_source gives any diagram back as Mermaid, DOT or a spec: to change a diagram's structure, read its source, change the text and send it to regenerate_diagram rather than drawing it anew; once a person has arranged it, regenerate keeps their arrangement (layout "keep").
- Put nodes inside a container (a VPC, a subnet, a team) with the node's "parent": the container's id. Direction goes in "layout": { "direction": "LR" }.
- Find icons with search_icons (e.g. q: "postgres" gives icon-postgresql) and set the node's "icon"; an id not in the catalog is refused.
- Check content before writing it with validate_diagram: it lists every problem at once, each with a hint.
- Before you finish: read_diagram (look at the PNG it returns) and lint_diagram; fix what they show.
- To change a diagram, edit it (edit_diagram for nodes and edges, patch_elements for precise element changes): do not regenerate it, which throws away what a person changed by hand.
- Every write is kept. To undo a mistake: list_revisions (who wrote what, newest first), diff_revisions (what a write changed), then restore_revision with the last good rev (a new revision: nothing is lost).
- Every result names the diagram's editorUrl: give it to the person.`;

/** Steps, numbered from 1. */
const numbered = (steps: readonly string[]) => steps.map((step, i) => `${i + 1}. ${step}`).join('\n');

/** What follows the plan, for any kind; `additions` names what edit_diagram adds to it. */
const checkDrawAndHandOver = (additions: string) => [
  'Call validate_diagram with { "spec": ... } and fix every problem it lists.',
  'Call generate_diagram with the spec and a title.',
  `Call read_diagram on the new id and look at the image; call lint_diagram. Fix what is wrong with edit_diagram (labels, colours, ${additions}) or patch_elements (move, resize), not by generating again.`,
  "Answer with the diagram's editorUrl.",
];

const STEPS_NEW = numbered([
  'Plan the nodes (short labels, 3-25 nodes) and the edges between them; pick a direction (TB for hierarchies and flows, LR for pipelines).',
  'For each technology node, find an icon with search_icons and use its id as the node\'s "icon".',
  ...checkDrawAndHandOver('new nodes or edges'),
]);

/** The steps for a sequence, class or ER diagram, whose spec has no nodes, edges or layout direction. */
const stepsForKind = (plan: string, additions: string) => numbered([plan, ...checkDrawAndHandOver(additions)]);

/** One valid spec of each further kind, shown in its prompt (and checked by the tests). */
const KIND_EXAMPLES = {
  sequence: {
    kind: 'sequence',
    autonumber: true,
    participants: [{ id: 'user', type: 'actor' }, { id: 'app', label: 'Web app' }, { id: 'idp', label: 'Identity provider' }],
    steps: [
      'user ->> app : Sign in',
      'app ->>+ idp : /authorize',
      { frame: 'alt', label: 'consent given', steps: ['idp -->> app : code'], branches: [{ label: 'refused', steps: ['idp -->> app : access_denied'] }] },
      { deactivate: 'idp' },
      { note: 'session cookie set', over: 'app' },
      'app -->> user : Signed in',
    ],
  },
  class: {
    kind: 'class',
    classes: [
      { id: 'Shape', annotation: 'interface', methods: ['+area() double'] },
      { id: 'Circle', attributes: ['-radius: double'], methods: ['+area() double'] },
      { id: 'Drawing', attributes: ['-shapes: List~Shape~'], methods: ['+render() void'] },
    ],
    relations: ['Shape <|.. Circle', 'Drawing "1" o-- "*" Shape : contains'],
  },
  er: {
    kind: 'er',
    entities: [
      { id: 'CUSTOMER', attributes: ['int id PK', 'string email UK'] },
      { id: 'ORDER', attributes: ['int id PK', 'int customer_id FK', 'date placed_at'] },
      { id: 'LINE_ITEM', attributes: ['int order_id PK, FK', 'int product_id PK, FK', 'int quantity'] },
    ],
    relationships: ['CUSTOMER ||--o{ ORDER : places', 'ORDER ||--|{ LINE_ITEM : contains'],
  },
} as const;

const text = (body: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: body } }] });

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'diagram_from_description',
    { title: 'Diagram from a description', description: 'Turn a description in words into a laid-out diagram, checked and linted.', argsSchema: { description: z.string().describe('What the diagram should show') } },
    ({ description }) =>
      text(`Make a Drawbridge diagram of the following:\n\n${description}\n\nSteps:\n${STEPS_NEW}\n\nExample spec: { "layout": { "direction": "LR" }, "nodes": [ { "id": "web", "label": "Web app" }, { "id": "api", "label": "API" } ], "edges": [ "web -> api : HTTPS" ] }`),
  );
  server.registerPrompt(
    'architecture_diagram',
    { title: 'Architecture diagram', description: 'A system architecture: services, data stores and their connections, grouped in containers, with icons.', argsSchema: { description: z.string().describe('The system: its parts, how they talk, where they run') } },
    ({ description }) =>
      text(
        `Draw the architecture of this system as a Drawbridge diagram:\n\n${description}\n\nGuidance:\n- One node per service, data store, queue or external actor; label them with their role ("Orders API", "Orders DB").\n- Group what runs together (a cloud account, a VPC, a cluster, a subnet) in container nodes: give each member "parent": "<container id>". Containers nest.\n- Use icons: search_icons with q set to each technology ("postgres", "kafka", "kubernetes", "aws lambda") and set the node's "icon" to the id found.\n- Edges carry the protocol as their label: "api -> db : SQL"; use { "from", "to", "style": "dashed" } for asynchronous flows.\n- Use "layout": { "direction": "LR" } for request flows, TB for layered systems.\n\nSteps:\n${STEPS_NEW}\n\nExample spec: { "layout": { "direction": "LR" }, "nodes": [ { "id": "vpc", "label": "VPC" }, { "id": "api", "label": "Orders API", "icon": "icon-nodejs", "parent": "vpc" }, { "id": "db", "label": "Orders DB", "icon": "icon-postgresql", "parent": "vpc" } ], "edges": [ "api -> db : SQL" ] }`,
      ),
  );
  server.registerPrompt(
    'flowchart',
    { title: 'Flowchart', description: 'A process as a flowchart: start and end, steps, decisions with labelled branches.', argsSchema: { description: z.string().describe('The process, step by step') } },
    ({ description }) =>
      text(
        `Draw this process as a Drawbridge flowchart:\n\n${description}\n\nGuidance:\n- Start and end are "shape": "ellipse"; steps are rectangles (the default); each decision is "shape": "diamond" with a question as its label ("Paid?").\n- Every branch out of a decision is an edge labelled with its answer: "paid -> ship : yes", "paid -> retry : no".\n- Keep the main path first in the node list, so it runs straight down ("layout": { "direction": "TB" }).\n\nSteps:\n${STEPS_NEW}\n\nExample spec: { "layout": { "direction": "TB" }, "nodes": [ { "id": "start", "label": "Order placed", "shape": "ellipse" }, { "id": "paid", "label": "Paid?", "shape": "diamond" }, { "id": "ship", "label": "Ship" }, { "id": "remind", "label": "Send reminder" } ], "edges": [ "start -> paid", "paid -> ship : yes", "paid -> remind : no" ] }`,
      ),
  );
  server.registerPrompt(
    'sequence_diagram',
    { title: 'Sequence diagram', description: 'The order in which parts of a system talk (a login, a payment, a retry) as a sequence diagram.', argsSchema: { description: z.string().describe('Who talks to whom, in what order, and what can go differently') } },
    ({ description }) =>
      text(
        `Draw this interaction as a Drawbridge sequence diagram:\n\n${description}\n\nGuidance:\n- The spec has "kind": "sequence". Participants go left to right in the order they first act; people are "type": "actor", data stores "database", queues "queue".\n- Each message is a step, written as Mermaid writes it: "a ->> b : call" (a request), "b -->> a : reply" (a response), "a -) b : event" (asynchronous); a "+" after the arrow starts an activation of the target, a "-" ends the sender's.\n- What may go differently is a frame: { "frame": "alt", "label": "valid", "steps": [...], "branches": [{ "label": "invalid", "steps": [...] }] }; repetition is "loop", an optional part "opt".\n- Notes explain a step: { "note": "…", "over": "app" } (or "leftOf", "rightOf").\n\nSteps:\n${stepsForKind('Plan the participants (a person, each service, each data store) and the messages between them, in order; what may go differently is a frame.', 'new messages')}\n\nExample spec: ${JSON.stringify(KIND_EXAMPLES.sequence)}`,
      ),
  );
  server.registerPrompt(
    'class_diagram',
    { title: 'Class diagram', description: 'The shape of a program\'s types: classes with their attributes and methods, and how they relate.', argsSchema: { description: z.string().describe('The types, their members and how they relate') } },
    ({ description }) =>
      text(
        `Draw these types as a Drawbridge class diagram:\n\n${description}\n\nGuidance:\n- The spec has "kind": "class". Each class lists "attributes" and "methods" as Mermaid writes them ("+name: String", "+area() double"); an "annotation" such as "interface" or "enumeration" is drawn above the name.\n- Relations are written as Mermaid writes them, with spaces around the mark: "Animal <|-- Dog" (inheritance), "Shape <|.. Circle" (realisation), "Car *-- Wheel" (composition), "Team o-- Person" (aggregation), "A --> B" (association), "A ..> B" (dependency); multiplicities in quotes beside the ids: "Drawing \\"1\\" o-- \\"*\\" Shape".\n- Superclasses are drawn above their subclasses.\n\nSteps:\n${stepsForKind('Plan the classes with their attributes and methods, and the relations between them.', 'new classes or relations')}\n\nExample spec: ${JSON.stringify(KIND_EXAMPLES.class)}`,
      ),
  );
  server.registerPrompt(
    'er_diagram',
    { title: 'Entity-relationship diagram', description: 'The shape of a system\'s data: entities with their attributes and keys, and their relationships with cardinalities.', argsSchema: { description: z.string().describe('The entities, their attributes and how they relate') } },
    ({ description }) =>
      text(
        `Draw this data model as a Drawbridge entity-relationship diagram:\n\n${description}\n\nGuidance:\n- The spec has "kind": "er". Each entity lists "attributes" as "type name [PK|FK|UK] [\\"comment\\"]" ("int id PK", "int customer_id FK").\n- Relationships are written as Mermaid writes them: "CUSTOMER ||--o{ ORDER : places", with || exactly one, |o zero or one, }| one or more, }o zero or more at each end, and .. instead of -- when the relationship is not identifying.\n\nSteps:\n${stepsForKind('Plan the entities with their attributes and keys, and the relationships between them with their cardinalities.', 'new entities or relationships')}\n\nExample spec: ${JSON.stringify(KIND_EXAMPLES.er)}`,
      ),
  );
  server.registerPrompt(
    'improve_diagram',
    { title: 'Improve this diagram', description: 'Review an existing diagram and fix what makes it hard to read, keeping what a person drew.', argsSchema: { diagramId: z.string().describe('The id of the diagram to improve (from list_diagrams)') } },
    ({ diagramId }) =>
      text(
        `Improve the Drawbridge diagram with id "${diagramId}", keeping its content and any changes a person made by hand.\n\nSteps:\n1. Call read_diagram with { "id": "${diagramId}", "includeGeometry": true } and look at the image: is every label readable, does the flow read in one direction, is anything missing?\n2. Call lint_diagram with { "id": "${diagramId}" }: each issue names the element ids to fix.\n3. Fix with edit_diagram (clearer labels, colours, missing nodes or edges) and patch_elements (move or resize overlapping shapes, delete strays). Check your ops first with validate_diagram ({ "ops": [...], "diagramId": "${diagramId}" }). Do not call regenerate_diagram with layout "fresh": it lays the whole diagram out again and loses what a person arranged.\n4. Call read_diagram and lint_diagram again until they are clean.\n5. Summarise what you changed and give the diagram's editorUrl.`,
      ),
  );
}
