import { isJidGroup, isLidUser, isPnUser, jidDecode } from '@whiskeysockets/baileys';

const GROUP_SUFFIX = '@g.us';
const USER_SUFFIX = '@s.whatsapp.net';

/** The user part of a JID without device or agent suffix (`5511999:3@s.whatsapp.net` → `5511999`). */
export function jidUser(jid: string): string {
  return jidDecode(jid)?.user ?? jid.split('@')[0].split(':')[0];
}

export function isGroupJid(jid: string | null | undefined): jid is string {
  return Boolean(jid && isJidGroup(jid));
}

export function isPhoneJid(jid: string | null | undefined): jid is string {
  return Boolean(jid && isPnUser(jid));
}

export function isLidJid(jid: string | null | undefined): jid is string {
  return Boolean(jid && isLidUser(jid));
}

/**
 * Our chat id (a contact's digits or a group id) to a JID. A phone number has at most 15 digits (E.164);
 * group ids are longer (`120363...`) or the old `creator-timestamp` form. A full JID passes through.
 */
export function toJid(chatId: string): string {
  if (chatId.includes('@')) return chatId;
  if (chatId.includes('-')) return `${chatId}${GROUP_SUFFIX}`;
  const digits = chatId.replace(/\D/g, '');
  return digits.length > 15 ? `${digits}${GROUP_SUFFIX}` : `${digits}${USER_SUFFIX}`;
}

export function groupJid(groupId: string): string {
  return groupId.endsWith(GROUP_SUFFIX) ? groupId : `${groupId}${GROUP_SUFFIX}`;
}

/** A group JID to our group id (without `@g.us`). */
export function groupIdOf(jid: string): string {
  return jid.endsWith(GROUP_SUFFIX) ? jid.slice(0, -GROUP_SUFFIX.length) : jid;
}

/** Our chat id for a message key's chat: the group id, or the contact's digits (preferring the phone-number JID). */
export function chatIdOfJid(jid: string, alt?: string | null): string {
  if (isGroupJid(jid)) return groupIdOf(jid);
  return jidUser(!isPhoneJid(jid) && isPhoneJid(alt) ? alt : jid);
}
