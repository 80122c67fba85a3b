import { hasNoNulCharacter, INPUT_MESSAGES, isAdmin, SettingDto, SettingUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import type { SettingsService } from './settings.service.js';

const KeyParams = z.object({
  key: z
    .string()
    .min(1)
    .max(100)
    .refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter)
    .meta({ description: 'A setting key (see the Setting schema); an unknown one is refused with ERR_NO_SETTING_FOUND' }),
});
const tags = ['Settings'];
const admin = { access: 'admin' as const };

export function settingsRoutes(http: FastifyInstance, settings: SettingsService): void {
  const app = http.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/settings',
    {
      schema: {
        operationId: 'listSettings',
        summary: 'Every setting; admins read secrets masked, attendants read no secret and no admins-only setting',
        tags,
        response: { 200: z.array(SettingDto) },
      },
    },
    async (request) => settings.list(isAdmin(currentUser(request))),
  );

  app.post(
    '/api/settings/userApiToken/regenerate',
    { config: admin, schema: { operationId: 'regenerateApiToken', summary: 'Replace the send API token (userApiToken) with a new random one', tags, response: { 200: SettingDto } } },
    async () => settings.regenerateApiToken(),
  );

  app.put(
    '/api/settings/:key',
    { config: admin, schema: { operationId: 'updateSetting', summary: 'Change one setting', tags, params: KeyParams, body: SettingUpdateInput, response: { 200: SettingDto } } },
    async (request) => settings.update(request.params.key, request.body.value),
  );
}
