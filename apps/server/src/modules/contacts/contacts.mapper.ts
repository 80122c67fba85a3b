import type { ContactDto, ExtraInfoDto, LabelRefDto } from '@wadesk/contracts';
import type { contactCustomFields, contacts } from '../../db/schema.js';

export function toExtraInfoDto(row: typeof contactCustomFields.$inferSelect): ExtraInfoDto {
  return { id: row.id, name: row.name, value: row.value };
}

/** `labels`: the contact's labels by name (none for a contact just created). */
export function toContactDto(row: typeof contacts.$inferSelect, extraInfo: ExtraInfoDto[], labels: LabelRefDto[]): ContactDto {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    extraInfo,
    labels,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
