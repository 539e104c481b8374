import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AccessFacts, mayInWorkspace, mayPerform, roleOn } from '../../src/auth/policy.ts';

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

test('in a workspace, any member views, editors and admins file their diagrams in, only admins manage; outsiders nothing', () => {
  const table = [
    [null, { view: false, file: false, manage: false }],
    ['viewer', { view: true, file: false, manage: false }],
    ['editor', { view: true, file: true, manage: false }],
    ['admin', { view: true, file: true, manage: true }],
  ] as const;
  for (const [role, allowed] of table) {
    for (const action of ['view', 'file', 'manage'] as const) assert.equal(mayInWorkspace(role, action), allowed[action], `${role} ${action}`);
  }
});
