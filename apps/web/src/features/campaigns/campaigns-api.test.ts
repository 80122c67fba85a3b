import type { CampaignDto } from '@wadesk/contracts';
import { describe, expect, it } from 'vitest';
import { isNotOlder } from '../../services/live-record';
import { activeCampaignOf } from './campaigns-api';

const base: CampaignDto = {
  id: 1, kind: 'text', status: 'running', whatsappId: 1, whatsappName: 'Sim', userId: 2, userName: 'Ana', message: 'Oi', url: null,
  title: null, path: null, minInterval: 0, maxInterval: 1, template: null, total: 10, sent: 3, failed: 0, unknown: 0, invalid: 0, nextSendAt: null,
  lastError: null, createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:05.000Z', startedAt: null, finishedAt: null,
};

describe('campaigns on the page', () => {
  it('keeps the later of two copies of a campaign, whatever order they arrive in', () => {
    const later = { ...base, status: 'done' as const, sent: 10, updatedAt: '2026-11-24T10:00:09.000Z' };
    expect(isNotOlder(later, base)).toBe(true);
    expect(isNotOlder(base, later)).toBe(false);
    expect(isNotOlder(base, undefined)).toBe(true);
  });

  it('shows the newest send of the page kind that is still under way', () => {
    const list = [
      { ...base, id: 4, kind: 'audio' as const },
      { ...base, id: 3, status: 'done' as const },
      { ...base, id: 2, status: 'paused' as const },
      { ...base, id: 1 },
    ];
    expect(activeCampaignOf('text', list)?.id).toBe(2);
    expect(activeCampaignOf('mediaUrl', list)).toBeUndefined();
  });
});
