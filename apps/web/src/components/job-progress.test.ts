import { describe, expect, it } from 'vitest';
import { allFailed } from './job-progress';

describe('allFailed (issue 33 item 18)', () => {
  it('is a finished batch where every recipient failed: it reads "Failed" in red, not "Done"', () => {
    expect(allFailed({ status: 'done', total: 3, failed: 3 })).toBe(true);
    expect(allFailed({ status: 'done', total: 3, failed: 2 })).toBe(false);
    expect(allFailed({ status: 'running', total: 3, failed: 3 })).toBe(false);
    expect(allFailed({ status: 'cancelled', total: 3, failed: 3 })).toBe(false);
    expect(allFailed({ status: 'done', total: 0, failed: 0 })).toBe(false);
  });
});
