import type { ContactDto, ExtraInfoDto } from '@wadesk/contracts';
import type { contactCustomFields, contacts } from '../../db/schema.js';

export function toExtraInfoDto(row: typeof contactCustomFields.$inferSelect): ExtraInfoDto {
  return { id: row.id, name: row.name, value: row.value };
}

export function toContactDto(row: typeof contacts.$inferSelect, extraInfo: ExtraInfoDto[]): ContactDto {
  return {
    id: row.id,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup,
    extraInfo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
