import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AccessFacts, mayPerform, roleOn } from '../../src/auth/policy.ts';

const facts = (f: Partial<AccessFacts>): AccessFacts => ({ ownerId: 'owner', shareRole: null, workspaceRole: null, ...f });

test('the owner may do everything; a stranger nothing', () => {
  for (const action of ['read', 'write', 'own'] as const) {
    assert.equal(mayPerform(facts({}), 'owner', action), true);
    assert.equal(mayPerform(facts({}), 'stranger', action), false);
  }
});

test('shares and workspace roles give read or write, never ownership', () => {
  const table: Array<[Partial<AccessFacts>, string | null]> = [
    [{ shareRole: 'viewer' }, 'viewer'],
    [{ shareRole: 'editor' }, 'editor'],
    [{ workspaceRole: 'viewer' }, 'viewer'],
    [{ workspaceRole: 'editor' }, 'editor'],
    [{ workspaceRole: 'admin' }, 'editor'],
    [{ shareRole: 'viewer', workspaceRole: 'editor' }, 'editor'],
    [{ shareRole: 'editor', workspaceRole: 'viewer' }, 'editor'],
  ];
  for (const [f, expected] of table) {
    assert.equal(roleOn(facts(f), 'me'), expected, JSON.stringify(f));
    assert.equal(mayPerform(facts(f), 'me', 'read'), true);
    assert.equal(mayPerform(facts(f), 'me', 'write'), expected === 'editor');
    assert.equal(mayPerform(facts(f), 'me', 'own'), false);
  }
});
