// The role an SSO sign-in gives (governance.md "Single sign-on"): RoleMap of the first RoleClaim
// value that has one, in the claim's order, whether the claim is a list or one string; else
// DefaultRole. Values that are not strings, and names RoleMap inherits from Object, map nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roleFromClaims } from './sso-sign-in.js';

const settings = { roleClaim: 'groups', roleMap: { admins: 'admin', designers: 'designer' } as const, defaultRole: 'agent' as const };

test('the first claim value RoleMap names wins, in the order the provider sent', () => {
  assert.equal(roleFromClaims({ groups: ['staff', 'designers', 'admins'] }, settings), 'designer');
  assert.equal(roleFromClaims({ groups: ['admins', 'designers'] }, settings), 'admin');
});

test('a claim that is one string maps like a list of one', () => {
  assert.equal(roleFromClaims({ groups: 'admins' }, settings), 'admin');
});

test('no mapped value, no claim, another type, or no RoleClaim at all: DefaultRole', () => {
  for (const claims of [{ groups: ['staff'] }, {}, { groups: 7 }, { groups: [{ admins: true }] }, { groups: ['constructor', 'toString'] }]) {
    assert.equal(roleFromClaims(claims, settings), 'agent', JSON.stringify(claims));
  }
  assert.equal(roleFromClaims({ groups: ['admins'] }, { ...settings, roleClaim: null }), 'agent');
});
