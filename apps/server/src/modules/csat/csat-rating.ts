/**
 * A contact's answer to the satisfaction survey (issue 36 §5, decision 0041): a digit from 1 to 5 alone, with spaces
 * around it, as a keycap emoji (4️⃣) or as 1 to 5 stars (⭐⭐⭐⭐). Anything else is not a rating ("5 stars, thanks",
 * "10", "3.5", "2 or 3" start a conversation as before).
 */
export function parseCsatRating(body: string): number | null {
  const text = body.trim().replace(/\uFE0F/g, '');
  const digit = /^([1-5])\u20E3?$/u.exec(text);
  if (digit) return Number(digit[1]);
  const stars = /^(?:\u2B50|\u2605|\u{1F31F}){1,5}$/u.exec(text.replace(/\s+/g, ''));
  if (stars) return [...text.replace(/\s+/g, '')].length;
  return null;
}
