import type { GroupMetadata } from '@whiskeysockets/baileys';
import type { GroupInfo } from '../channel-driver.js';
import { groupIdOf, isPhoneJid, jidUser } from './baileys-jid.js';

/** A participant's phone number, also when the group addresses members by LID. */
function participantNumber(p: GroupMetadata['participants'][number]): string {
  return jidUser(isPhoneJid(p.phoneNumber) ? p.phoneNumber : p.id);
}

/** Baileys group metadata to our GroupInfo (group id without `@g.us`, member numbers as digits). */
export function toGroupInfo(meta: GroupMetadata): GroupInfo {
  return {
    id: groupIdOf(meta.id),
    subject: meta.subject,
    description: meta.desc ?? undefined,
    participants: meta.participants.map((p) => ({
      number: participantNumber(p),
      isAdmin: p.admin === 'admin' || p.admin === 'superadmin' || Boolean(p.isAdmin || p.isSuperAdmin),
    })),
    announce: Boolean(meta.announce),
  };
}
