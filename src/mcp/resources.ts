import fs from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The MCP resources: reference text an agent reads before writing specs or scenes. */
function specGrammar(): string {
  try {
    return fs.readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
  } catch {
    return 'The spec grammar reference (docs/spec.md) is not available in this installation.';
  }
}

const SCENE_GUIDE = `# Authoring scenes for Drawbridge

A scene is the Excalidraw editor format: { "elements": [...] }. Prefer a DiagramSpec
(generate_diagram) when you want the server to lay the diagram out; write a scene
(create_scene, regenerate_diagram with scene, patch_elements) when you need exact positions.

With create_scene, each element needs only a type and a position; the server
side of this tool fills id (random), x/y (0), width/height (160x80, text: sized to the text).
Any other Excalidraw field (strokeColor, backgroundColor, text, fontSize, points,
startBinding, endBinding, containerId, ...) is passed through unchanged.

Labels: a text element with "containerId" set to a shape's id is that shape's label.
Arrows: give "points" relative to x/y, and "startBinding"/"endBinding" { "elementId": ... }
to connect them to shapes.

## Worked example

{
  "title": "Two boxes",
  "elements": [
    { "id": "a", "type": "rectangle", "x": 0, "y": 0, "width": 160, "height": 80 },
    { "id": "a-label", "type": "text", "x": 40, "y": 28, "text": "Client", "containerId": "a" },
    { "id": "b", "type": "rectangle", "x": 300, "y": 0, "width": 160, "height": 80 },
    { "id": "b-label", "type": "text", "x": 340, "y": 28, "text": "Server", "containerId": "b" },
    { "id": "ab", "type": "arrow", "x": 160, "y": 40, "width": 140, "height": 0,
      "points": [[0, 0], [140, 0]],
      "startBinding": { "elementId": "a", "focus": 0, "gap": 0 },
      "endBinding": { "elementId": "b", "focus": 0, "gap": 0 } }
  ]
}

Afterwards, read_diagram summarises it as nodes a ("Client"), b ("Server") and the edge a -> b;
lint_diagram reports overlaps, clipped labels, unbound arrows, arrows through shapes or labels and
misplaced labels, each with the element ids to fix with patch_elements.
`;

export function registerResources(server: McpServer): void {
  server.registerResource('spec-grammar', 'drawbridge://docs/spec-grammar', { title: 'DiagramSpec grammar', description: 'The DiagramSpec grammar (nodes, edges, layout) with a worked example', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: specGrammar() }],
  }));
  server.registerResource('scene-guide', 'drawbridge://docs/scene-guide', { title: 'Scene authoring guide', description: 'How to write terse Excalidraw elements for create_scene, with a worked example', mimeType: 'text/markdown' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/markdown', text: SCENE_GUIDE }],
  }));
}
