import { describe, expect, it } from 'vitest';
import { groupActionFieldProblems, GroupsCreateInput } from './index.js';

describe('the group actions field rule (§5)', () => {
  it('lets an action run with exactly its fields', () => {
    expect(groupActionFieldProblems({ action: 'update', subject: 'T' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'update', description: 'D' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'update', subject: 'T', description: 'D' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'create', title: 'T', participants: '5511987654321' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'open', confirmation: 'ABRIR' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'close', confirmation: ' FECHAR ' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'message', message: 'm' })).toEqual([]);
    expect(groupActionFieldProblems({ action: 'privateMessage', message: 'm', minInterval: 0, maxInterval: 3 })).toEqual([]);
  });

  it('names the missing, foreign or wrong fields', () => {
    expect(groupActionFieldProblems({ action: 'update' })).toEqual(['subject', 'description']);
    expect(groupActionFieldProblems({ action: 'create', title: 'T' })).toEqual(['participants']);
    expect(groupActionFieldProblems({ action: 'message', message: 'm', title: 'x' })).toEqual(['title']);
    expect(groupActionFieldProblems({ action: 'open', confirmation: 'FECHAR' })).toEqual(['confirmation']);
    expect(groupActionFieldProblems({ action: 'close', confirmation: 'fechar' })).toEqual(['confirmation']);
    expect(groupActionFieldProblems({ action: 'privateMessage', message: 'm', minInterval: 9, maxInterval: 3 })).toEqual(['maxInterval']);
    expect(groupActionFieldProblems({ action: 'message', message: '   ' })).toEqual(['message']);
  });

  it("reads /zdgGroupsCreate's contact as lines, from a list or from text split by lines, commas or semicolons", () => {
    expect(GroupsCreateInput.parse({ title: 'T', contact: '5511987654321, 5511987654322;5511987654323\n' }).contact).toBe(
      '5511987654321\n5511987654322\n5511987654323',
    );
    expect(GroupsCreateInput.parse({ title: 'T', contact: ['5511987654321', ' 5511987654322 '] }).contact).toBe('5511987654321\n5511987654322');
    expect(GroupsCreateInput.parse({ title: 'T' }).contact).toBe('');
  });
});
