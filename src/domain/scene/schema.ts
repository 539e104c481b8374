/**
 * A raw scene in the editor's (Excalidraw's) format as zod schemas: what
 * validateScene checks a scene's shape with, and the JSON Schema clients
 * see. Loose where the editor is loose: an element must have an id and a
 * type; every other field is the editor's and is stored as supplied.
 */
import { z } from 'zod';

export const MAX_SCENE_ELEMENTS = 5000;

export const SceneElement = z
  .looseObject({
    id: z.string().min(1).meta({ description: 'Unique in the scene' }),
    type: z.string().min(1).meta({ description: 'rectangle, ellipse, diamond, text, arrow, line, freedraw, image, frame, embeddable, iframe, magicframe' }),
    link: z.string().nullable().optional().meta({ description: 'A link opened from the element: http, https or mailto only' }),
  })
  .meta({
    id: 'SceneElement',
    description:
      'An element in the Excalidraw format (x, y, width, height, angle, strokeColor, backgroundColor, text, points, boundElements, containerId, startBinding, endBinding, fileId…). Only id and type are required; the other fields are the editor\'s, stored as supplied. An image whose fileId starts with "icon-" must name a catalog icon.',
    examples: [{ id: 'box1', type: 'rectangle', x: 0, y: 0, width: 160, height: 70, strokeColor: '#1e1e1e', backgroundColor: 'transparent' }],
  });

export const Scene = z
  .looseObject({
    elements: z.array(SceneElement).max(MAX_SCENE_ELEMENTS).meta({ description: `The elements, at most ${MAX_SCENE_ELEMENTS}` }),
    appState: z.looseObject({}).nullable().optional().meta({ description: 'The editor state; accepted and dropped' }),
    files: z.record(z.string(), z.unknown()).nullable().optional().meta({ description: 'Embedded files; accepted and dropped (icons come from the catalog)' }),
  })
  .meta({
    id: 'Scene',
    description: 'A raw scene in the Excalidraw editor format: { elements, appState?, files? }. Elements are stored exactly as supplied; everything else is dropped.',
    examples: [{ elements: [{ id: 'box1', type: 'rectangle', x: 0, y: 0, width: 160, height: 70 }] }],
  });
