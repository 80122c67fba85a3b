import { describe, expect, it } from 'vitest';
import { parseCsatRating } from './csat-rating.js';

describe('a reply to the satisfaction survey', () => {
  it.each([
    ['5', 5],
    [' 3 ', 3],
    ['1\n', 1],
    ['4️⃣', 4],
    ['2⃣', 2],
    ['⭐⭐⭐', 3],
    ['⭐ ⭐ ⭐ ⭐ ⭐', 5],
    ['★', 1],
  ])('reads %j as %i', (body, rating) => {
    expect(parseCsatRating(body)).toBe(rating);
  });

  it.each(['6', '0', '10', '3.5', '5 stars', 'ok', '', '⭐⭐⭐⭐⭐⭐', '2 or 3', '５'])('is not a rating: %j', (body) => {
    expect(parseCsatRating(body)).toBeNull();
  });
});
