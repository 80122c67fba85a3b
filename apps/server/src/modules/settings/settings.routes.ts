import { hasNoNulCharacter, INPUT_MESSAGES, isAdmin, SettingUpdateInput } from '@wadesk/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../http/auth-hook.js';
import { parse } from '../../http/validate.js';
import type { SettingsService } from './settings.service.js';

const KeyParams = z.object({ key: z.string().min(1).max(100).refine(hasNoNulCharacter, INPUT_MESSAGES.invalidCharacter) });
const admin = { config: { access: 'admin' as const } };

export function settingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  app.get('/api/settings', async (request) => settings.list(isAdmin(currentUser(request))));

  app.post('/api/settings/userApiToken/regenerate', admin, async () => settings.regenerateApiToken());

  app.put('/api/settings/:key', admin, async (request) => {
    const { key } = parse(KeyParams, request.params);
    const { value } = parse(SettingUpdateInput, request.body);
    return settings.update(key, value);
  });
}
