import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth.js';

describe('the heap growing factor', () => {
  it("leaves a process started with its own --heap-growing-percent alone, and sets ours otherwise", () => {
    expect(limitHeapGrowth(['--heap-growing-percent=0'])).toBe(0);
    expect(limitHeapGrowth(['--inspect', '--heap_growing_percent=80'])).toBe(80);
    expect(limitHeapGrowth([])).toBe(HEAP_GROWING_PERCENT);
  });

  it('keeps the heap of a process that makes garbage near what it holds alive', () => {
    // Garbage promoted to the old generation (kept alive across a few young collections, then dropped), as the
    // requests in flight under load are: the old generation's peak with V8's own factor and with ours.
    const program = `
      const v8 = require('node:v8');
      if (process.argv[1] === 'ours') v8.setFlagsFromString('--heap-growing-percent=${HEAP_GROWING_PERCENT}');
      const live = []; let peak = 0;
      for (let i = 0; i < 2000000; i++) {
        live.push({ i, text: 'x'.repeat(64) + i, list: [i, i + 1, i + 2] });
        if (live.length > 300000) live.splice(0, 100000);
        if (i % 20000 === 0) peak = Math.max(peak, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size);
      }
      console.log(Math.round(peak / 1e6));`;
    const peak = (which: string) => Number(spawnSync(process.execPath, ['-e', program, which], { encoding: 'utf8' }).stdout.trim());
    const theirs = peak('theirs');
    const ours = peak('ours');
    expect(ours).toBeGreaterThan(0);
    expect(ours).toBeLessThan(theirs * 0.7); // 153 MB against 388 here
  });
});
