/**
 * `node --import tsx bench/mcp-transcript.ts [OUT.md]`: an MCP session as an
 * agent would have it, recorded as Markdown. Starts the real server
 * (src/main.ts) on a throwaway SQLite database, connects the MCP SDK's own
 * client to its hosted endpoint (/mcp) with a fresh token, and makes a naive
 * first generate_diagram call (shape "box", "direction" at the top of the
 * spec, an edge written { source, target }), then the call corrected by the
 * hints of the error alone. Writes the transcript to OUT.md (default: stdout).
 * Not a test: it exits 1 only when the session does not go as described.
 */
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runBenchmark, seedBenchUser, startApiServer } from './processes.ts';

type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean };

const out = process.argv[2];
const lines: string[] = [];
const say = (text = '') => lines.push(text);
const block = (language: string, text: string) => say(`\`\`\`${language}\n${text}\n\`\`\`\n`);

await runBenchmark('mcp-transcript', async (dataDir) => {
  const token = await seedBenchUser(dataDir, 'read,write');
  const { base } = await startApiServer(dataDir);
  const client = new Client({ name: 'mcp-transcript', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      say(`**Agent → \`tools/call\` \`${name}\`**\n`);
      block('json', JSON.stringify(args, null, 2));
      const result = (await client.callTool({ name, arguments: args })) as Result;
      say(`**Drawbridge → ${result.isError ? '`isError: true`' : 'result'}**\n`);
      block('json', result.content[0]!.text!);
      return result;
    };

    say('# An MCP session: a naive first attempt, corrected by one round of hints\n');
    say(`Recorded by \`bench/mcp-transcript.ts\` against a real Drawbridge server (hosted MCP endpoint \`/mcp\`, the MCP SDK's own client).\n`);
    say('The server\'s instructions, as the client receives them at initialization:\n');
    block('text', client.getInstructions() ?? '(none)');

    say('## 1. The first attempt\n');
    say('Written from habit, not from the schema: `shape: "box"`, `direction` at the top of the spec, an edge as `{ source, target }`, and `"database"` as a shape.\n');
    const naive = {
      title: 'Checkout',
      spec: {
        direction: 'LR',
        nodes: [
          { id: 'web', label: 'Web app', shape: 'box' },
          { id: 'api', label: 'Orders API', shape: 'box' },
          { id: 'db', label: 'Orders DB', shape: 'database' },
        ],
        edges: [{ source: 'web', target: 'api' }, 'api -> db : SQL'],
      },
    };
    const first = await call('generate_diagram', naive);
    if (!first.isError) throw new Error('the naive attempt was accepted');
    const problems = (JSON.parse(first.content[0]!.text!) as { problems?: unknown[] }).problems ?? [];
    if (problems.length < 4) throw new Error(`expected every problem at once, got ${problems.length}`);

    say('## 2. The corrected call\n');
    say('Every problem came back at once, each with its fix; applying them all:\n');
    const corrected = {
      title: 'Checkout',
      spec: {
        layout: { direction: 'LR' },
        nodes: [
          { id: 'web', label: 'Web app', shape: 'rectangle' },
          { id: 'api', label: 'Orders API', shape: 'rectangle' },
          { id: 'db', label: 'Orders DB', shape: 'rectangle', icon: 'icon-database' },
        ],
        edges: [{ from: 'web', to: 'api' }, 'api -> db : SQL'],
      },
    };
    const second = await call('generate_diagram', corrected);
    if (second.isError) throw new Error('the corrected call was refused');
    const created = JSON.parse(second.content[0]!.text!) as { id: string; editorUrl: string };
    say(`The person opens the diagram at its \`editorUrl\` (here on a throwaway local server).\n`);
    const lint = await call('lint_diagram', { id: created.id });
    if (lint.isError) throw new Error('lint failed');
  } finally {
    await client.close();
  }
  const text = `${lines.join('\n')}\n`;
  if (out) fs.writeFileSync(out, text);
  else process.stdout.write(text);
});
