import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import type { RevisionItem } from '../../src/api/history-schemas.ts';
import { describeVia, diffLines, historyRow } from '../../src/cli/history.ts';
import { runCli } from '../../src/cli/program.ts';

// The history commands' arguments, help and output formats, with no server:
// a usage mistake is refused before any request (the API URL here answers nothing).

async function cli(argv: string[], apiUrl = 'http://127.0.0.1:9'): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { HOME: '/nonexistent', SERVICE_TOKEN: 'drw_pat_unused', SERVICE_API_URL: apiUrl },
    stdout: { write: (s: string | Uint8Array) => void (stdout += String(s)) },
    stderr: { write: (s: string | Uint8Array) => void (stderr += String(s)) },
  });
  return { code, stdout, stderr };
}

describe('arguments and help', () => {
  test('history, diff and restore have help with examples, and the top-level help lists them', async () => {
    for (const [command, example] of [
      ['history', 'drawbridge history ID'],
      ['diff', 'drawbridge diff ID r12 --against r3'],
      ['restore', 'drawbridge restore ID r12'],
    ] as const) {
      const run = await cli([command, '--help']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^Usage: drawbridge ${command} \\[options\\] <id>`));
      assert.ok(run.stdout.includes(`Examples:\n`) && run.stdout.includes(`$ ${example}`), run.stdout);
    }
    const top = await cli(['--help']);
    for (const line of [/^ {2}history \[options\] <id> /m, /^ {2}diff \[options\] <id> <rev> /m, /^ {2}restore \[options\] <id> <rev> /m]) assert.match(top.stdout, line);
    const render = await cli(['render', '--help']);
    assert.match(render.stdout, /--rev <rev>/);
    assert.match(render.stdout, /\$ drawbridge render ID --rev r12 -o before\.png/);
  });

  test('a missing revision, a bad --limit, --all with --cursor and --rev with several ids are usage errors (exit 2)', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['diff', 'ID'], /missing required argument 'rev'/],
      [['restore', 'ID'], /missing required argument 'rev'/],
      [['history'], /missing required argument 'id'/],
      [['history', 'ID', '--limit', '0'], /--limit must be a positive integer, got 0/],
      [['history', 'ID', '--all', '--cursor', 'c1'], /give --all or --cursor, not both/],
      [['render', 'A', 'B', '--rev', 'r1', '--dir', '.'], /--rev names a revision of one diagram/],
      [['restore', 'ID', 'r1', '--expected-updated-at'], /option '--expected-updated-at <time>' argument missing/],
    ];
    for (const [argv, message] of cases) {
      const run = await cli(argv);
      assert.equal(run.code, 2, `${argv.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, argv.join(' '));
    }
  });
});

const item = (overrides: Partial<RevisionItem>): RevisionItem => ({
  rev: 'r2',
  at: '2026-05-04T10:21:07.512Z',
  author: { id: 'u1', email: 'ana@example.com' },
  via: { kind: 'token', name: 'ci-deploy', token: { id: 't1', name: 'ci-deploy' } },
  kind: 'patch',
  elementCount: 4,
  summary: 'moved 1 shape',
  hasScene: true,
  ...overrides,
});

describe('output', () => {
  test('via reads as how the write came: the token, the application, the web editor, or the MCP tool and whom it acted for', () => {
    assert.equal(describeVia(item({}).via), 'token ci-deploy');
    assert.equal(describeVia({ kind: 'oauth', name: 'Claude', client: { id: 'c1', name: 'Claude' } }), 'oauth Claude');
    assert.equal(describeVia({ kind: 'web', name: 'web editor' }), 'web editor');
    assert.equal(describeVia({ kind: 'mcp', name: 'patch_elements', tool: 'patch_elements', token: { id: 't2', name: 'agent-bot' } }), 'mcp patch_elements (agent-bot)');
    assert.equal(describeVia({ kind: 'mcp', name: 'edit_diagram', client: { id: 'c1', name: 'Claude' } }), 'mcp edit_diagram (Claude)');
    assert.equal(describeVia(null), '-');
  });

  test('a history row is rev, when (to the second), who, via, kind and summary', () => {
    assert.deepEqual(historyRow(item({})), ['r2', '2026-05-04 10:21:07', 'ana@example.com', 'token ci-deploy', 'patch', 'moved 1 shape']);
    assert.deepEqual(historyRow(item({ rev: 'r9', kind: 'restore', restoredFrom: 'r1', summary: 'restored r1: added b' })).slice(4), ['restore', 'restored r1: added b']);
    assert.deepEqual(historyRow(item({ kind: 'baseline', author: null, via: null })).slice(2, 5), ['-', '-', 'baseline']);
  });

  test('a diff reads as the summary, then the ids added, removed and changed (with what changed); empty lists are left out', () => {
    assert.deepEqual(
      diffLines({ from: 'r1', to: 'r2', summary: 'deleted b, moved a', added: [], removed: ['b', 'b-label'], changed: [{ id: 'a', aspects: ['geometry', 'style'] }] }),
      ['r1 → r2: deleted b, moved a', 'removed:  b, b-label', 'changed:  a (geometry, style)'],
    );
    assert.deepEqual(diffLines({ from: null, to: 'r1', summary: 'added a', added: ['a'], removed: [], changed: [] }), ['(nothing) → r1: added a', 'added:    a']);
    // An element a write only restamped (its version, as a label change touches its shape) never shows an empty list.
    assert.deepEqual(diffLines({ from: 'r1', to: 'r2', summary: 'relabelled bi as BI', added: [], removed: [], changed: [{ id: 'bi', aspects: [] }, { id: 'bi-label', aspects: ['text'] }] }), [
      'r1 → r2: relabelled bi as BI',
      'changed:  bi (restamped only), bi-label (text)',
    ]);
  });
});

test('restore on a server that records no history says the restore is done but not in the history', async () => {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'D', rev: null, restoredFrom: 'r1', docUpdatedAt: '2026-05-04T10:21:07.512Z', elements: 3, unresolvedComments: 2 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const run = await cli(['restore', 'D', 'r1'], `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      'Restored r1 of D (3 elements); this server records no history now, so the restore is not in it.\nOpened again 2 comments on elements that came back.\n',
    );
    assert.deepEqual(requests, ['POST /api/v1/diagrams/D/revisions/r1/restore']);
  } finally {
    server.close();
  }
});
