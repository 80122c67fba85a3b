/**
 * Reactions (issue 18). A reaction is stored as a message of its emoji replying to the message it reacts to (as
 * the Cloud API's inbound reactions are); the chat offers this short choice.
 */
export const REACTION_EMOJIS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** One emoji (with its modifiers, joiners and variation selectors), as a reaction's body is. */
export function isReactionEmoji(text: string): boolean {
  return (
    text.length > 0 &&
    text.length <= 32 &&
    /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3)+$/u.test(text) &&
    /\p{Extended_Pictographic}|\u20e3|\p{Regional_Indicator}/u.test(text)
  );
}

type ReactionLike = { fromMe: boolean; isDeleted: boolean; body: string; quotedMsg: { id: number } | null };

/** Whether a message is a reaction: one emoji replying to the message it reacts to. */
export function isReaction(m: ReactionLike): boolean {
  return !m.isDeleted && m.quotedMsg !== null && isReactionEmoji(m.body);
}

/**
 * The reactions shown on each message, by its id: the latest of this side (`mine`) and of the contact's side
 * (`theirs`), from the messages in order, oldest first.
 */
export function reactionsOn(messages: readonly ReactionLike[]): Map<number, { mine?: string; theirs?: string }> {
  const out = new Map<number, { mine?: string; theirs?: string }>();
  for (const m of messages) {
    if (!isReaction(m)) continue;
    const entry = out.get(m.quotedMsg!.id) ?? {};
    if (m.fromMe) entry.mine = m.body;
    else entry.theirs = m.body;
    out.set(m.quotedMsg!.id, entry);
  }
  return out;
}
