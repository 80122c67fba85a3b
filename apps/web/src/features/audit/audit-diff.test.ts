import { describe, expect, it } from 'vitest';
import { fieldChanges, valueText } from './audit-diff';

describe("fieldChanges (the audit page's before → after)", () => {
  it('lists only the fields that changed, by path', () => {
    expect(fieldChanges({ name: 'Sales', color: '#111', queues: [1] }, { name: 'Support', color: '#111', queues: [1, 2] })).toEqual([
      { path: 'name', before: 'Sales', after: 'Support' },
      { path: 'queues', before: [1], after: [1, 2] },
    ]);
  });

  it('goes into nested objects', () => {
    expect(fieldChanges({ cloud: { token: '***', id: '1' } }, { cloud: { token: '***', id: '2' } })).toEqual([{ path: 'cloud.id', before: '1', after: '2' }]);
  });

  it('lists every field of a created target with no before, and of a deleted one with no after', () => {
    expect(fieldChanges(null, { value: 'x' })).toEqual([{ path: 'value', before: undefined, after: 'x' }]);
    expect(fieldChanges({ id: 3 }, null)).toEqual([{ path: 'id', before: 3, after: undefined }]);
  });

  it('leaves out updatedAt unless it is the only change', () => {
    expect(fieldChanges({ a: 1, updatedAt: 'x' }, { a: 2, updatedAt: 'y' })).toEqual([{ path: 'a', before: 1, after: 2 }]);
    expect(fieldChanges({ updatedAt: 'x' }, { updatedAt: 'y' })).toEqual([{ path: 'updatedAt', before: 'x', after: 'y' }]);
  });

  it('writes values as short texts', () => {
    expect(valueText(undefined)).toBe('—');
    expect(valueText('***')).toBe('***');
    expect(valueText([1, 2])).toBe('[1,2]');
  });
});
